//! Content passages: the pieces of a Source's cleaned content that retrieval embeds and
//! shows as evidence.
//!
//! A one- or two-sentence summary cannot stand for a long conversation (a 3,000-character
//! chat session summarised in 150 characters keeps one or two of its topics), so a
//! Source is also searched by its passages and scored by the best of them. A passage is
//! a window of consecutive lines — a few turns of a transcript or a Slack thread, a
//! paragraph or two of an email or note — of about [`TARGET_CHARS`] characters, about
//! what a small sentence embedder reads whole. Consecutive windows share one line when
//! their lines are short, so a question and its answer in adjacent turns are always in
//! one passage together. A line longer than a window is cut at sentence ends, and a
//! sentence longer than a window at word boundaries.
//!
//! The split depends only on the text: the same content always gives the same passages,
//! so re-processing a Source rewrites them identically.

/// The size a passage is filled to, in characters.
pub const TARGET_CHARS: usize = 500;

/// At most this many passages per Source: longer content gets longer passages, so the
/// embedding calls and the index stay bounded per Source.
pub const MAX_PASSAGES: usize = 96;

/// Lines at most this long may be repeated at the start of the next passage.
const OVERLAP_MAX_CHARS: usize = 200;

/// The passages of `content`, in order; none for blank content.
pub fn split(content: &str) -> Vec<String> {
    if content.trim().is_empty() {
        return Vec::new();
    }
    let mut budget = TARGET_CHARS;
    loop {
        let passages = windows(&units(content, budget), budget);
        if passages.len() <= MAX_PASSAGES {
            return passages;
        }
        budget = budget * 3 / 2;
    }
}

/// Consecutive units packed into windows of at most `budget` characters.
fn windows(units: &[String], budget: usize) -> Vec<String> {
    let mut passages = Vec::new();
    let mut start = 0;
    while start < units.len() {
        let mut end = start + 1;
        let mut len = units[start].chars().count();
        while end < units.len() && len + 1 + units[end].chars().count() <= budget {
            len += 1 + units[end].chars().count();
            end += 1;
        }
        passages.push(units[start..end].join("\n"));
        if end == units.len() {
            break;
        }
        // Share the last line with the next passage when it is short and not the only
        // one, so adjacent lines are read together at least once.
        let last = &units[end - 1];
        start = if end - start >= 2 && last.chars().count() <= OVERLAP_MAX_CHARS {
            end - 1
        } else {
            end
        };
    }
    passages
}

/// Non-empty lines, each at most `budget` characters (longer ones cut at sentence ends,
/// then at spaces).
fn units(content: &str, budget: usize) -> Vec<String> {
    let mut out = Vec::new();
    for line in content.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if line.chars().count() <= budget {
            out.push(line.to_owned());
            continue;
        }
        let mut current = String::new();
        for piece in sentences(line).flat_map(|s| words_within(s, budget)) {
            if !current.is_empty() && current.chars().count() + 1 + piece.chars().count() > budget {
                out.push(std::mem::take(&mut current));
            }
            if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(&piece);
        }
        if !current.is_empty() {
            out.push(current);
        }
    }
    out
}

/// Sentences of a line: each ends after `.`, `!` or `?` followed by a space.
fn sentences(line: &str) -> impl Iterator<Item = &str> {
    let mut rest = line;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let cut = rest
            .char_indices()
            .find(|&(i, c)| {
                matches!(c, '.' | '!' | '?') && rest[i + c.len_utf8()..].starts_with(' ')
            })
            .map_or(rest.len(), |(i, c)| i + c.len_utf8());
        let (sentence, tail) = rest.split_at(cut);
        rest = tail.trim_start();
        Some(sentence.trim())
    })
    .filter(|s| !s.is_empty())
}

/// `sentence` in pieces of at most `budget` characters, cut at spaces (a single word
/// longer than that is cut anywhere).
fn words_within(sentence: &str, budget: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for word in sentence.split_whitespace() {
        let mut word: String = word.to_owned();
        while word.chars().count() > budget {
            let head: String = word.chars().take(budget).collect();
            word = word.chars().skip(budget).collect();
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            out.push(head);
        }
        if !current.is_empty() && current.chars().count() + 1 + word.chars().count() > budget {
            out.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(&word);
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turns(n: usize, len: usize) -> String {
        (0..n)
            .map(|i| format!("Speaker{}: {}", i % 2, "word ".repeat(len / 5)))
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn short_content_is_one_passage() {
        assert_eq!(
            split("Lunch with Sarah.\n\nShe wants the plan by March."),
            ["Lunch with Sarah.\nShe wants the plan by March."]
        );
        assert!(split("  \n\n ").is_empty());
    }

    #[test]
    fn a_transcript_becomes_overlapping_windows_of_whole_turns() {
        let content = turns(20, 150);
        let passages = split(&content);
        assert!(passages.len() >= 6, "{}", passages.len());
        for p in &passages {
            assert!(p.chars().count() <= TARGET_CHARS, "{}", p.chars().count());
            assert!(p.lines().all(|l| l.starts_with("Speaker")), "whole turns");
        }
        for pair in passages.windows(2) {
            let last = pair[0].lines().last().unwrap();
            assert_eq!(pair[1].lines().next().unwrap(), last, "one shared turn");
        }
        // Every turn is in some passage.
        for line in content.lines() {
            assert!(passages.iter().any(|p| p.contains(line.trim())));
        }
    }

    #[test]
    fn a_note_or_email_becomes_passages_of_whole_paragraphs() {
        let paragraphs: Vec<String> = (0..6)
            .map(|i| {
                format!(
                    "Paragraph {i} says one thing. {}",
                    "More of it. ".repeat(14)
                )
            })
            .collect();
        let content = paragraphs.join("\n\n");
        let passages = split(&content);
        assert!(passages.len() >= 3, "{passages:#?}");
        for p in &passages {
            assert!(p.chars().count() <= TARGET_CHARS);
            for line in p.lines() {
                assert!(
                    paragraphs.iter().any(|para| para.trim() == line),
                    "a passage holds whole paragraphs: {line:?}"
                );
            }
        }
        for para in &paragraphs {
            assert!(passages.iter().any(|p| p.contains(para.trim())), "{para}");
        }
    }

    #[test]
    fn long_lines_are_cut_at_sentences_then_words() {
        let sentence = "This sentence is about forty characters. ";
        let paragraph = sentence.repeat(40);
        let passages = split(&paragraph);
        assert!(passages.len() > 1);
        for p in &passages {
            assert!(p.chars().count() <= TARGET_CHARS);
            assert!(p.ends_with('.'), "cut at a sentence end: {p:?}");
        }
        let word = "x".repeat(TARGET_CHARS * 2 + 7);
        let passages = split(&word);
        assert_eq!(passages.concat(), word, "nothing lost");
        assert!(passages.iter().all(|p| p.chars().count() <= TARGET_CHARS));
    }

    #[test]
    fn very_long_content_is_bounded_and_deterministic() {
        let content = turns(3_000, 150);
        let passages = split(&content);
        assert!(passages.len() <= MAX_PASSAGES, "{}", passages.len());
        assert_eq!(passages, split(&content));
        for line in content.lines().step_by(97) {
            assert!(passages.iter().any(|p| p.contains(line.trim())));
        }
    }
}
