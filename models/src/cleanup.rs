//! Deterministic, type-specific cleanup of raw content (Phase 1): turns a typed
//! [`RawContent`] into the plain text the rest of the pipeline reads.
//!
//! * transcripts: `Title: …`, then one `[ts] Speaker: text` line per turn;
//! * emails ([`email`]): `From:`/`To:`/`Subject:` headers and the body only — no HTML,
//!   quoted replies or signatures;
//! * Slack threads ([`slack`]): `#channel`, then chronological `[ts] user: text` lines
//!   with Slack markup resolved;
//! * text notes: the title and the content with light whitespace cleanup.
//!
//! The language-model steps (disfluency removal, summaries) run on this output; nothing
//! here needs a model, so it is cheap to re-run.

use cosmo_core::domain::raw::{RawContent, TextNote, Transcript};

pub mod email;
pub mod passages;
pub mod slack;

/// The cleaned, plain-text rendering of `raw`.
pub fn render(raw: &RawContent) -> String {
    match raw {
        RawContent::Transcript(t) => render_transcript(t),
        RawContent::Email(e) => email::render(e),
        RawContent::Slack(s) => slack::render(s),
        RawContent::Text(n) => render_text(n),
    }
}

/// Who speaks or writes in `raw`, in order of first appearance, without repeats:
/// transcript speakers, Slack users, or the email sender's display name.
pub fn speakers(raw: &RawContent) -> Vec<String> {
    let names: Vec<String> = match raw {
        RawContent::Transcript(t) => t
            .turns
            .iter()
            .filter_map(|turn| turn.speaker.clone())
            .collect(),
        RawContent::Email(e) => vec![email::sender_name(&e.from)],
        RawContent::Slack(s) => s.messages.iter().map(|m| m.user.clone()).collect(),
        RawContent::Text(_) => Vec::new(),
    };
    let mut seen = Vec::<String>::new();
    for name in names {
        let name = collapse_spaces(&name);
        if !name.is_empty() && !seen.iter().any(|s| s.eq_ignore_ascii_case(&name)) {
            seen.push(name);
        }
    }
    seen
}

fn render_transcript(t: &Transcript) -> String {
    // (timestamp, speaker, text) per output line; consecutive turns of one speaker merge
    // unless the later one carries its own timestamp.
    let mut lines: Vec<(Option<String>, Option<String>, String)> = Vec::new();
    for turn in &t.turns {
        let text = collapse_spaces(&turn.text);
        if text.is_empty() {
            continue;
        }
        let speaker = turn
            .speaker
            .as_deref()
            .map(collapse_spaces)
            .filter(|s| !s.is_empty());
        let timestamp = turn
            .timestamp
            .as_deref()
            .map(format_timestamp)
            .filter(|s| !s.is_empty());
        if let Some(last) = lines.last_mut()
            && timestamp.is_none()
            && speaker.is_some()
            && last.1 == speaker
        {
            last.2.push(' ');
            last.2.push_str(&text);
            continue;
        }
        lines.push((timestamp, speaker, text));
    }
    let mut out = Vec::new();
    if let Some(title) = t
        .title
        .as_deref()
        .map(collapse_spaces)
        .filter(|s| !s.is_empty())
    {
        out.push(format!("Title: {title}"));
    }
    for (timestamp, speaker, text) in lines {
        let mut line = String::new();
        if let Some(ts) = timestamp {
            line.push_str(&format!("[{ts}] "));
        }
        if let Some(speaker) = speaker {
            line.push_str(&format!("{speaker}: "));
        }
        line.push_str(&text);
        out.push(line);
    }
    out.join("\n")
}

/// Seconds (`65`, `65.4`) become `00:01:05`; anything else is kept as written.
fn format_timestamp(ts: &str) -> String {
    let ts = ts.trim();
    match ts.parse::<f64>() {
        Ok(secs) if secs.is_finite() && secs >= 0.0 => {
            let secs = secs.floor() as u64;
            format!("{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
        }
        _ => ts.to_owned(),
    }
}

fn render_text(note: &TextNote) -> String {
    let content = light_cleanup(&note.content);
    match note
        .title
        .as_deref()
        .map(collapse_spaces)
        .filter(|s| !s.is_empty())
    {
        Some(title) if content.is_empty() => format!("Title: {title}"),
        Some(title) => format!("Title: {title}\n{content}"),
        None => content,
    }
}

/// Trims every line, collapses runs of spaces and tabs, and keeps at most one blank line
/// between paragraphs.
pub(crate) fn light_cleanup(text: &str) -> String {
    let lines: Vec<String> = text
        .replace("\r\n", "\n")
        .replace('\r', "\n")
        .lines()
        .map(collapse_spaces)
        .collect();
    collapse_blank_lines(&lines)
}

/// Joins lines, turning every run of blank lines into one and dropping leading and
/// trailing blank lines.
pub(crate) fn collapse_blank_lines(lines: &[String]) -> String {
    let mut out: Vec<&str> = Vec::new();
    for line in lines {
        let line = line.trim_end();
        if line.is_empty() && out.last().is_none_or(|l| l.is_empty()) {
            continue;
        }
        out.push(line);
    }
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    out.join("\n")
}

/// Single spaces between words, no leading or trailing whitespace, no line breaks.
pub(crate) fn collapse_spaces(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use cosmo_core::domain::raw::Turn;

    fn turn(speaker: Option<&str>, text: &str, ts: Option<&str>) -> Turn {
        Turn {
            speaker: speaker.map(str::to_owned),
            text: text.to_owned(),
            timestamp: ts.map(str::to_owned),
        }
    }

    #[test]
    fn transcripts_get_one_line_per_turn_with_title_and_timestamps() {
        let raw = RawContent::Transcript(Transcript {
            title: Some("Weekly  sync".into()),
            turns: vec![
                turn(Some("Alice"), "Hi  all,\nlet's start.", Some("00:00:01")),
                turn(Some("Alice"), "First the budget.", None),
                turn(Some("Bob"), "   ", Some("5")),
                turn(Some("Bob"), "Sounds good.", Some("65")),
                turn(None, "(laughter)", None),
            ],
        });
        assert_eq!(
            render(&raw),
            "Title: Weekly sync\n[00:00:01] Alice: Hi all, let's start. First the budget.\n\
             [00:01:05] Bob: Sounds good.\n(laughter)"
        );
        assert_eq!(speakers(&raw), vec!["Alice", "Bob"]);
    }

    #[test]
    fn timestamped_turns_of_one_speaker_stay_separate() {
        let raw = RawContent::Transcript(Transcript {
            title: None,
            turns: vec![
                turn(Some("A"), "One.", Some("1")),
                turn(Some("A"), "Two.", Some("2")),
            ],
        });
        assert_eq!(render(&raw), "[00:00:01] A: One.\n[00:00:02] A: Two.");
    }

    #[test]
    fn text_notes_get_light_cleanup() {
        let raw = RawContent::Text(TextNote {
            title: Some(" Groceries ".into()),
            content: "  buy   milk \t and eggs  \n\n\n\n  call mum\r\n".into(),
        });
        assert_eq!(
            render(&raw),
            "Title: Groceries\nbuy milk and eggs\n\ncall mum"
        );
        assert!(speakers(&raw).is_empty());
        let untitled = RawContent::Text(TextNote {
            title: None,
            content: "a  b".into(),
        });
        assert_eq!(render(&untitled), "a b");
    }

    #[test]
    fn speakers_are_deduplicated_in_order() {
        let raw = RawContent::Transcript(Transcript {
            title: None,
            turns: vec![
                turn(Some("Bob"), "x", None),
                turn(Some("Alice"), "y", None),
                turn(Some("bob"), "z", None),
                turn(None, "w", None),
            ],
        });
        assert_eq!(speakers(&raw), vec!["Bob", "Alice"]);
    }
}
