//! Periods named by an event: "after the adoption", "since moving in", "before the
//! surgery". A question that places what it asks after (or before) something that
//! happened — "What happened with Maya's dog after the adoption?" — names a period
//! bounded by that event's time, as "after May" names one bounded by a month. The
//! event is looked for among the question's own best Sources (the question says whose
//! event it is), ranked by the event's words alone; later Sources speak of the event
//! too ("since we adopted him"), so of those that match it about as well as the best,
//! the earliest is taken (`retrieval::within`). Its event time bounds the period: from
//! it on for *after*, *since*, *following*; up to and including it for *before*,
//! *prior to*. The period is then searched a second time like any named period
//! (`route.rs`), so what came after the event and matches the question outranks what
//! came before, and nothing is filtered out.
//!
//! A period named by a date ("after May 2023") is the period's own (`period/`); the
//! first phrase found wins. Idioms that name no event ("after all", "since then",
//! "before long") are not anchors.

use chrono::{DateTime, Duration, Utc};
use serde::Serialize;

use super::period::Period;

/// Which side of the event the question asks about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Side {
    After,
    Before,
}

/// An event a query places what it asks after or before.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Anchor {
    /// The whole phrase, marker included ("after the adoption"), lower-cased.
    pub phrase: String,
    /// The event's words ("the adoption").
    pub event: String,
    pub side: Side,
}

const MARKERS: &[(&str, Side)] = &[
    ("after", Side::After),
    ("since", Side::After),
    ("following", Side::After),
    ("before", Side::Before),
    ("prior to", Side::Before),
];

/// Words that end the event's phrase: a clause or question that follows it.
const STOP: &[&str] = &[
    "what", "how", "who", "whom", "which", "where", "when", "why", "did", "does", "do", "was",
    "were", "is", "are", "has", "have", "had", "and", "but",
];

/// Phrases after a marker that name no event: idioms, and the times of any day
/// ("before dawn", "after work"), which every day has.
const IDIOMS: &[&str] = &[
    "all",
    "that",
    "then",
    "this",
    "long",
    "a while",
    "a bit",
    "ever",
    "now",
    "today",
    "dawn",
    "sunrise",
    "sunset",
    "dusk",
    "noon",
    "midnight",
    "breakfast",
    "lunch",
    "dinner",
    "bed",
    "bedtime",
    "work",
    "school",
    "class",
    "hours",
];

/// The most words an event's phrase keeps.
const MAX_WORDS: usize = 8;

impl Anchor {
    /// The period the event bounds, given when it happened: from it on, or up to and
    /// including it.
    pub fn period(&self, at: DateTime<Utc>) -> Period {
        let (since, until) = match self.side {
            Side::After => (Some(at), None),
            Side::Before => (None, Some(at + Duration::microseconds(1))),
        };
        Period {
            phrase: self.phrase.clone(),
            since,
            until,
        }
    }
}

/// The first event `text` places its question after or before.
pub fn find(text: &str) -> Option<Anchor> {
    let lower = text.to_lowercase().replace('’', "'");
    for (i, _) in lower.char_indices() {
        let at_word = lower[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric());
        if !at_word {
            continue;
        }
        for &(marker, side) in MARKERS {
            let Some(rest) = lower[i..].strip_prefix(marker) else {
                continue;
            };
            if !rest.starts_with(' ') {
                continue;
            }
            if let Some(event) = event_phrase(rest) {
                return Some(Anchor {
                    phrase: format!("{marker} {event}"),
                    event,
                    side,
                });
            }
        }
    }
    None
}

/// The event named by the words after a marker, up to the end of the clause.
fn event_phrase(rest: &str) -> Option<String> {
    let clause = rest
        .split([',', '?', '.', ';', '!', ':'])
        .next()
        .unwrap_or_default();
    let mut words = Vec::new();
    for w in clause.split_whitespace() {
        if STOP.contains(&w) || words.len() == MAX_WORDS {
            break;
        }
        words.push(w);
    }
    let event = words.join(" ");
    (!IDIOMS.contains(&event.as_str()) && !super::terms::terms(&event).is_empty()).then_some(event)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(text: &str) -> Option<(String, Side)> {
        find(text).map(|a| (a.event, a.side))
    }

    #[test]
    fn an_event_after_a_marker_is_an_anchor() {
        let cases = [
            (
                "What happened with Maya's dog after the adoption?",
                "the adoption",
                Side::After,
            ),
            (
                "After the surgery news, what was the next development with Freya's mom?",
                "the surgery news",
                Side::After,
            ),
            (
                "How long was Freya unwell after eating something bad?",
                "eating something bad",
                Side::After,
            ),
            (
                "what has Leo been up to since moving to Denver",
                "moving to denver",
                Side::After,
            ),
            (
                "What did Sam do before the wedding and who came?",
                "the wedding",
                Side::Before,
            ),
            (
                "Where did they live prior to the move?",
                "the move",
                Side::Before,
            ),
        ];
        for (text, want, side) in cases {
            assert_eq!(event(text), Some((want.to_owned(), side)), "{text}");
        }
    }

    #[test]
    fn idioms_and_words_that_name_nothing_are_not_anchors() {
        for text in [
            "Why won't Freya need pills after all?",
            "What has she done since then?",
            "Will it be fixed before long?",
            "What did he say after that?",
            "What is the name of her dog?",
            "Did the aftershock hit the town?",
            "What happened after?",
            "Why did Andre get up before dawn?",
            "What does she do after work?",
        ] {
            assert_eq!(find(text), None, "{text}");
        }
    }
}
