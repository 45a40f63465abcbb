//! Reading rendered content line by line: `[ts] Speaker: text` turns, `Subject:` and
//! `Title:` headers, Slack `#channel` lines — and the sentences of each.

use super::text::{listed_phrase, split_sentences};

/// One line of rendered content.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub timestamp: Option<String>,
    pub speaker: Option<String>,
    /// `title`, `subject`, `from`, `to`, `cc`, `date` or `channel` for header lines.
    pub header: Option<&'static str>,
    pub text: String,
}

/// One sentence, with who said it.
#[derive(Debug, Clone, PartialEq)]
pub struct Sentence {
    pub speaker: Option<String>,
    /// `title` or `subject` when the sentence is a header line.
    pub header: Option<&'static str>,
    pub text: String,
}

impl Sentence {
    /// `Speaker: text`, or the text alone.
    pub fn attributed(&self) -> String {
        match &self.speaker {
            Some(speaker) => format!("{speaker}: {}", self.text),
            None => self.text.clone(),
        }
    }
}

const HEADERS: &[(&str, &str)] = &[
    ("Title:", "title"),
    ("Subject:", "subject"),
    ("From:", "from"),
    ("To:", "to"),
    ("Cc:", "cc"),
    ("Date:", "date"),
];

/// Labels that end in a colon but are not speakers ("Note: …", "Action items: …").
pub const NOT_SPEAKERS: &str = "note|notes|update|todo|to do|summary|agenda|action items|\
    action item|next steps|decision|decisions|ps|p.s|fyi|re|fwd|important|reminder|warning|\
    question|answer|tip|example|step|goal|goals|result|results|status|eta|why|what|how|pros|cons|\
    idea|ideas|context|background|problem|solution|outcome|owner|deadline|location|time|when|where|\
    http|https|mailto|edit|update|reason|risk|risks|plan";

/// Splits rendered content into lines; `known` speakers (if any) are the only labels
/// taken as speakers besides timestamped ones.
pub fn lines(content: &str, known: &[String]) -> Vec<Line> {
    content
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| parse_line(l, known))
        .collect()
}

pub fn parse_line(raw: &str, known: &[String]) -> Line {
    let line = raw.trim();
    for (prefix, name) in HEADERS {
        if let Some(rest) = line.strip_prefix(prefix) {
            return Line {
                timestamp: None,
                speaker: None,
                header: Some(name),
                text: rest.trim().to_owned(),
            };
        }
    }
    if line.starts_with('#') && !line.contains(' ') {
        return Line {
            timestamp: None,
            speaker: None,
            header: Some("channel"),
            text: line[1..].to_owned(),
        };
    }
    let (timestamp, rest) = match line.strip_prefix('[').and_then(|r| r.split_once(']')) {
        Some((ts, rest)) if is_timestamp(ts) => (Some(ts.to_owned()), rest.trim_start()),
        _ => (None, line),
    };
    if let Some((label, text)) = rest.split_once(':')
        && is_speaker_label(label, text, timestamp.is_some(), known)
    {
        return Line {
            timestamp,
            speaker: Some(label.split_whitespace().collect::<Vec<_>>().join(" ")),
            header: None,
            text: text.trim().to_owned(),
        };
    }
    Line {
        timestamp,
        speaker: None,
        header: None,
        text: rest.to_owned(),
    }
}

/// `00:01:05`, `1700000000.0001`, `2024-01-05T10:00:00Z`: short, no spaces, some digits.
fn is_timestamp(ts: &str) -> bool {
    !ts.is_empty() && ts.len() <= 32 && !ts.contains(' ') && ts.chars().any(|c| c.is_ascii_digit())
}

fn is_speaker_label(label: &str, text: &str, timestamped: bool, known: &[String]) -> bool {
    let label = label.trim();
    let words = label.split_whitespace().count();
    if label.is_empty()
        || label.chars().count() > 40
        || words > 4
        || !label.chars().any(char::is_alphabetic)
    {
        return false;
    }
    if label.chars().last().is_some_and(|c| c.is_ascii_digit())
        && text.starts_with(|c: char| c.is_ascii_digit())
    {
        return false; // "Meeting at 10:30"
    }
    if known.iter().any(|k| same_name(k, label)) {
        return true;
    }
    let bad_chars = label
        .chars()
        .any(|c| matches!(c, ',' | ';' | '!' | '?' | '(' | ')' | '"' | '/' | '<'));
    let lower = label.to_lowercase();
    if bad_chars || listed_phrase(&lower, NOT_SPEAKERS) {
        return false;
    }
    if timestamped {
        return words <= 3;
    }
    known.is_empty() && label.starts_with(char::is_uppercase)
}

/// Case- and spacing-insensitive name equality.
pub fn same_name(a: &str, b: &str) -> bool {
    let a = a.split_whitespace().map(str::to_lowercase);
    let b = b.split_whitespace().map(str::to_lowercase);
    a.eq(b)
}

/// The sentences of the speech and body lines of `content`, plus `Title:` and
/// `Subject:` lines (marked as headers). Address headers and channel lines are skipped.
pub fn sentences(content: &str, known: &[String]) -> Vec<Sentence> {
    let mut out = Vec::new();
    for line in lines(content, known) {
        if matches!(line.header, Some("from" | "to" | "cc" | "date" | "channel")) {
            continue;
        }
        for text in split_sentences(&line.text) {
            out.push(Sentence {
                speaker: line.speaker.clone(),
                header: line.header,
                text,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_know_speakers_headers_and_timestamps() {
        let l = parse_line("[00:01:05] Sarah Chen: We ship Friday.", &[]);
        assert_eq!(
            (
                l.timestamp.as_deref(),
                l.speaker.as_deref(),
                l.text.as_str()
            ),
            (Some("00:01:05"), Some("Sarah Chen"), "We ship Friday.")
        );
        assert_eq!(parse_line("Subject: Q3 plan", &[]).header, Some("subject"));
        assert_eq!(
            parse_line("[1700000000.1] alice: hi", &[])
                .speaker
                .as_deref(),
            Some("alice")
        );
        assert_eq!(parse_line("Note: bring snacks", &[]).speaker, None);
        assert_eq!(parse_line("Meeting at 10:30 sharp", &[]).speaker, None);
        let known = vec!["Bob".to_owned()];
        assert_eq!(parse_line("Budget: tight", &known).speaker, None);
        assert_eq!(
            parse_line("bob: hi", &known).speaker.as_deref(),
            Some("bob")
        );
    }
}
