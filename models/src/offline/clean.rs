//! Transcript cleanup: fillers ("um", "you know,"), stutters ("I I think") and empty
//! turns go; speakers, order and timestamps stay; sentences start with a capital and
//! end with punctuation.

use super::text::{self, NOT_SPEAKERS};

/// Single-word fillers, compared in lower case without punctuation.
const FILLERS: &str = "um umm ummm uh uhh uhm erm er err hmm hmmm hm mm mmm mhm ah ahh eh uh-huh \
    mm-hmm um-hum uh-uh";

/// Words before which "you know," / "I mean," / "like," is meant literally.
const LITERAL_BEFORE: &str = "do did does don't didn't if what how whether to i you we they would \
    i'd you'd we'd really also things much";

/// Words people stutter into `I-I` / `the-the`.
const STUTTERED: &str =
    "i we you he she it they the a an and but to that this my our in on is was what";

/// Word pairs that are correct when repeated ("that that", "had had").
const REPEATS_OK: &str = "had that is do bye no very really so ha haha";

/// One output line: a cleaned turn, or a header kept as written.
enum Entry {
    Turn {
        timestamp: Option<String>,
        speaker: Option<String>,
        text: String,
    },
    Kept(String),
}

/// Cleans `Speaker: text` lines; non-turn lines (`Title: …`) are kept as written.
pub fn clean_transcript(transcript: &str) -> String {
    let mut out: Vec<Entry> = Vec::new();
    for raw in transcript.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let mut line = text::parse_line(raw, &[]);
        if line.header.is_some() {
            out.push(Entry::Kept(raw.to_owned()));
            continue;
        }
        if line.speaker.is_none()
            && let Some((label, rest)) = lenient_speaker(&line.text)
        {
            line.speaker = Some(label);
            line.text = rest;
        }
        let cleaned = clean_utterance(&line.text);
        if cleaned.is_empty() {
            continue;
        }
        // Consecutive turns of one speaker merge unless the later one has a timestamp.
        if let Some(Entry::Turn { speaker, text, .. }) = out.last_mut()
            && line.timestamp.is_none()
            && line.speaker.is_some()
            && *speaker == line.speaker
        {
            text.push(' ');
            text.push_str(&cleaned);
            continue;
        }
        out.push(Entry::Turn {
            timestamp: line.timestamp,
            speaker: line.speaker,
            text: cleaned,
        });
    }
    let lines: Vec<String> = out
        .into_iter()
        .map(|entry| match entry {
            Entry::Kept(line) => line,
            Entry::Turn {
                timestamp,
                speaker,
                text,
            } => {
                let ts = timestamp.map(|ts| format!("[{ts}] ")).unwrap_or_default();
                let speaker = speaker.map(|s| format!("{s}: ")).unwrap_or_default();
                format!("{ts}{speaker}{text}")
            }
        })
        .collect();
    lines.join("\n")
}

/// `alice: text` — a short lower-case label the strict parser leaves alone.
fn lenient_speaker(line: &str) -> Option<(String, String)> {
    let (label, rest) = line.split_once(':')?;
    let ok = !label.is_empty()
        && label.len() <= 40
        && label.split_whitespace().count() <= 2
        && label
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '.' | '-' | '_' | '\''))
        && !text::listed_phrase(&label.trim().to_lowercase(), NOT_SPEAKERS)
        && !rest.starts_with("//")
        && !rest.trim().is_empty();
    ok.then(|| (label.trim().to_owned(), rest.trim().to_owned()))
}

/// One utterance without fillers or stutters, with sentence capitals and a final stop.
pub fn clean_utterance(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        let prev_core = out.last().map(|w| core(w)).unwrap_or_default();
        let next_core = words.get(i + 1).map(|w| core(w)).unwrap_or_default();
        let core = core(word);
        let trail = trailing(word);
        let last_word = i + 1 == words.len();
        if text::listed(&core, FILLERS) {
            drop_filler(&mut out, trail, last_word);
            i += 1;
            continue;
        }
        let literal = text::listed(&prev_core, LITERAL_BEFORE);
        let phrase = matches!(
            (core.as_str(), next_core.as_str()),
            ("you", "know") | ("i", "mean")
        );
        if phrase && !literal && trail.is_empty() {
            // "you know" / "I mean" set off by commas, or closing a sentence after one.
            let next_trail = trailing(words[i + 1]);
            let after_comma = out.last().is_some_and(|w| w.ends_with(','));
            let set_off = next_trail.starts_with(',')
                || (after_comma && (ends_sentence(next_trail) || i + 2 == words.len()));
            if set_off {
                drop_filler(&mut out, next_trail, i + 2 == words.len());
                i += 2;
                continue;
            }
        }
        if core == "like" && trail.starts_with(',') && !literal {
            drop_filler(&mut out, trail, last_word);
            i += 1;
            continue;
        }
        if let Some(prev) = out.last_mut() {
            let prev_trail = trailing(prev);
            let repeat = prev_core == core
                && core.chars().all(char::is_alphabetic)
                && !text::listed(&core, REPEATS_OK)
                && matches!(prev_trail, "" | "," | "-" | "—" | "..." | "…");
            if repeat {
                let keep = prev[..prev.len() - prev_trail.len()].to_owned();
                *prev = format!("{keep}{trail}");
                i += 1;
                continue;
            }
        }
        out.push(fix_word(word));
        i += 1;
    }
    finish(&out.join(" "))
}

/// Removes a filler; its punctuation moves to the word before when it ends a sentence,
/// and a comma that only set the filler off is dropped.
fn drop_filler(out: &mut [String], trail: &str, last_word: bool) {
    let len = out.len();
    let Some(prev) = out.last_mut() else { return };
    let prev_trail = trailing(prev).to_owned();
    let base = prev[..prev.len() - prev_trail.len()].to_owned();
    let stop = trail.chars().find(|c| matches!(c, '.' | '!' | '?'));
    if let Some(stop) = stop.filter(|_| last_word || trail == "." || trail.contains(['!', '?'])) {
        if !ends_sentence(&prev_trail) {
            *prev = format!("{base}{stop}");
        }
    } else if trail.starts_with(',') && prev_trail == "," {
        let first_of_sentence = len == 1 || ends_sentence(&out[len - 2]);
        if !first_of_sentence {
            out[len - 1] = base;
        }
    }
}

/// `I I think` uses "i" lower case; `i'm` becomes `I'm`; stutters inside a token
/// (`I-I`, `b-but`) collapse.
fn fix_word(word: &str) -> String {
    let parts: Vec<&str> = word.split('-').collect();
    let mut word = word.to_owned();
    if parts.len() == 2 && !parts[0].is_empty() && !parts[1].is_empty() {
        let first = parts[0].trim_start_matches(|c: char| !c.is_alphanumeric());
        let lead = &parts[0][..parts[0].len() - first.len()];
        let (a, b) = (first.to_lowercase(), core(parts[1]));
        // "I-I", "we-we", but not "so-so" or "win-win".
        let doubled = a == b && text::listed(&a, STUTTERED);
        let cut_off = a.chars().count() == 1
            && a.chars().all(char::is_alphabetic)
            && b.starts_with(&a)
            && b.len() > 1;
        if doubled || cut_off {
            word = format!("{lead}{}", parts[1]);
        }
    }
    let lower = core(&word);
    if (lower == "i" || lower.starts_with("i'"))
        && let Some(pos) = word.find('i')
        && word[..pos].chars().all(|c| !c.is_alphanumeric())
    {
        word.replace_range(pos..pos + 1, "I");
    }
    word
}

/// Tidies spacing, capitalises each sentence and ends the text with a stop.
fn finish(text: &str) -> String {
    let text = text
        .replace(" ,", ",")
        .replace(" .", ".")
        .replace(" ?", "?")
        .replace(" !", "!");
    let text = text.trim_matches(|c: char| c == ',' || c == ';' || c.is_whitespace());
    let sentences: Vec<String> = text::split_sentences(text)
        .into_iter()
        .map(|s| {
            let s = s.trim_start_matches([',', ';', ' ']);
            let mut chars = s.chars();
            match chars.next() {
                Some(c) => c.to_uppercase().chain(chars).collect(),
                None => String::new(),
            }
        })
        .filter(|s| s.chars().any(char::is_alphanumeric))
        .collect();
    let mut joined = sentences.join(" ");
    if joined.ends_with(|c: char| c.is_alphanumeric()) {
        joined.push('.');
    }
    joined
}

fn ends_sentence(word: &str) -> bool {
    word.ends_with(['.', '!', '?'])
}

/// Lower case without surrounding punctuation.
fn core(word: &str) -> String {
    word.trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase()
        .replace('’', "'")
}

/// The punctuation after the last letter or digit.
fn trailing(word: &str) -> &str {
    let end = word.trim_end_matches(|c: char| !c.is_alphanumeric()).len();
    &word[end..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fillers_and_stutters_are_removed() {
        let cases = [
            ("um, so we need to ship", "So we need to ship."),
            (
                "So, uh, the the main thing is the deal.",
                "So, the main thing is the deal.",
            ),
            (
                "I I think Berlin is doable, you know, if the plan holds.",
                "I think Berlin is doable if the plan holds.",
            ),
            (
                "They, um, they asked for a support engineer",
                "They asked for a support engineer.",
            ),
            ("It's tight, you know.", "It's tight."),
            (
                "You know, the budget is fine. i mean, mostly",
                "The budget is fine. Mostly.",
            ),
            ("It was like, amazing", "It was amazing."),
            (
                "Do you know, the guy from sales?",
                "Do you know, the guy from sales?",
            ),
            ("I like pizza and I mean it", "I like pizza and I mean it."),
            ("I-I guess b-but hmm okay.", "I guess but okay."),
            ("a win-win, so-so deal", "A win-win, so-so deal."),
            (
                "that that is what he had had",
                "That that is what he had had.",
            ),
            ("we should  ,um, go", "We should go."),
        ];
        for (input, expected) in cases {
            assert_eq!(clean_utterance(input), expected, "input: {input}");
        }
    }

    #[test]
    fn turns_keep_speakers_order_and_timestamps_and_empty_turns_go() {
        let transcript = "Title: Sync\n[00:00:01] Alice: um, hi all\nBob: Uh.\nBob: Hmm...\n\
            Alice: Uh so the the launch is Friday\nalice: yeah\n\
            [00:02:00] Bob: Sounds good, you know.";
        assert_eq!(
            clean_transcript(transcript),
            "Title: Sync\n[00:00:01] Alice: Hi all. So the launch is Friday.\nalice: Yeah.\n\
             [00:02:00] Bob: Sounds good."
        );
    }
}
