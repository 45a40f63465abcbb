//! What was said, as the statements a context can carry, each under its origin: the
//! lines (turns, messages, paragraphs) of the Sources retrieval ranks for the message,
//! the notes that match it, and the statements of consolidation insights.
//!
//! Every statement is scored the same way, so a turn, a note and an insight compete on
//! one scale ([`score`]): how well its own words match the message (BM25 over every
//! candidate statement, the query's words on their stems), how relevant retrieval
//! found where it came from (the Source's fused score, the note's), and, for a line,
//! whether it is in the passage the vector signal scored its Source by. A note taken
//! from a line that is a candidate already is not a second statement: it raises that
//! line. Lines are shown grounded against when they were said (`yesterday (7 May
//! 2023)`).

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use cosmo_shared::cleanup::passages;
use cosmo_shared::domain::{MemoryKind, NoteHit, Source, SourceMeta, SourceType};
use cosmo_shared::llm::time::{date, ground};

use super::UsedMemory;
use crate::retrieval::Query;
use crate::retrieval::evidence::{stem, word_groups};
use crate::retrieval::rank::{Signal, SignalHit};

/// The weights of a statement's score: its words, its origin's relevance, the vector.
const TEXT: f64 = 0.55;
const ORIGIN: f64 = 0.3;
const VECTOR: f64 = 0.15;

/// One origin of statements: a Source, or a consolidation insight.
#[derive(Debug, Clone)]
pub(super) struct Group {
    /// `8 May 2023 · conversation · <key>`; `8 – 20 May 2023 · consolidated from 3 Sources`.
    pub header: String,
    pub when: DateTime<Utc>,
    /// What showing any of its statements uses (a Source), if not each statement's own.
    pub memory: Option<UsedMemory>,
}

#[derive(Debug, Clone)]
pub(super) struct Statement {
    pub group: usize,
    /// Its place in its origin (content order).
    pub order: usize,
    /// As shown: grounded, on one line.
    pub text: String,
    /// 0–1.
    pub score: f64,
    /// Whether its own words or the vector signal point at it: a statement without
    /// either comes in only beside a chosen neighbour.
    pub matched: bool,
    /// A note or an insight (or a line a note was taken from): the memory it is, beside
    /// its origin's.
    pub memory: Option<UsedMemory>,
}

#[derive(Debug, Default)]
pub(super) struct Pool {
    pub groups: Vec<Group>,
    pub statements: Vec<Statement>,
}

/// A Source retrieval returned, with its relevance against the best one (0–1).
pub(super) struct FoundSource<'a> {
    pub source: &'a Source,
    pub relevance: f64,
    pub signals: &'a [SignalHit],
}

/// A note that matched, with its relevance against the best one (0–1).
pub(super) struct FoundNote<'a> {
    pub note: &'a NoteHit,
    pub relevance: f64,
}

/// Before scoring: the parts of a statement's score.
struct Draft {
    statement: Statement,
    /// The words as said (scored), before grounding added dates to them.
    said: String,
    origin: f64,
    vector: f64,
}

/// The statements of these Sources and notes, scored for the queries. `metas` has the
/// Sources of notes whose Source was not returned (their date and type).
/// `others` are the texts of the other candidates (facts, nodes, Storylines, episode
/// summaries): their words are scored on the same scale, returned in their order.
pub(super) fn pool(
    sources: &[FoundSource<'_>],
    notes: &[FoundNote<'_>],
    metas: &HashMap<String, SourceMeta>,
    others: &[&str],
    queries: &[Query],
) -> (Pool, Vec<f64>) {
    let mut groups: Vec<Group> = Vec::new();
    let mut drafts: Vec<Draft> = Vec::new();
    let mut group_of: HashMap<String, usize> = HashMap::new();
    for found in sources {
        let s = found.source;
        let when = s.event_time();
        let kind = match &s.context_type {
            Some(c) => format!("{}, {c}", s.source_type),
            None => s.source_type.to_string(),
        };
        let g = groups.len();
        groups.push(Group {
            header: format!("{} · {kind} · {}", date(when.date_naive()), s.entity_key),
            when,
            memory: Some(UsedMemory {
                kind: MemoryKind::Source,
                key: s.entity_key.clone(),
                note_id: None,
            }),
        });
        group_of.insert(s.entity_key.clone(), g);
        let vector = found
            .signals
            .iter()
            .filter(|h| h.signal == Signal::Vector)
            .max_by(|a, b| a.normalised.total_cmp(&b.normalised));
        let turns = matches!(
            s.source_type,
            SourceType::Conversation | SourceType::Meeting | SourceType::SlackThread
        );
        for (order, (line, passages)) in lines(&s.content, turns).into_iter().enumerate() {
            let in_vector = vector
                .and_then(|h| h.passage)
                .is_some_and(|p| passages.contains(&p));
            drafts.push(Draft {
                said: line.clone(),
                statement: Statement {
                    group: g,
                    order,
                    text: ground(&line, when),
                    score: 0.0,
                    matched: in_vector,
                    memory: None,
                },
                origin: found.relevance,
                vector: if in_vector {
                    vector.map_or(0.0, |h| h.normalised.max(0.1))
                } else {
                    0.0
                },
            });
        }
    }
    for found in notes {
        let n = found.note;
        // A note taken from a line already there raises that line.
        if let Some(key) = &n.source_id
            && let Some(&g) = group_of.get(key)
        {
            let wanted = normalise(&n.text);
            if let Some(d) = drafts
                .iter_mut()
                .find(|d| d.statement.group == g && normalise(&d.statement.text).contains(&wanted))
            {
                d.origin = d.origin.max(found.relevance);
                d.statement.memory.get_or_insert_with(|| UsedMemory {
                    kind: n.owner_kind,
                    key: n.owner_key.clone(),
                    note_id: Some(n.note_id.clone()),
                });
                continue;
            }
        }
        let memory = UsedMemory {
            kind: n.owner_kind,
            key: n.owner_key.clone(),
            note_id: Some(n.note_id.clone()),
        };
        let g = match &n.source_id {
            Some(key) => *group_of.entry(key.clone()).or_insert_with(|| {
                groups.push(note_group(key, n, metas.get(key)));
                groups.len() - 1
            }),
            None => {
                groups.push(insight_group(n, metas));
                groups.len() - 1
            }
        };
        let pieces = if n.is_insight() {
            sentences(&n.text)
        } else {
            vec![n.text.clone()]
        };
        let first = drafts.iter().filter(|d| d.statement.group == g).count();
        for (i, piece) in pieces.into_iter().enumerate() {
            drafts.push(Draft {
                said: piece.clone(),
                statement: Statement {
                    group: g,
                    order: first + i,
                    text: if n.is_insight() {
                        piece
                    } else {
                        ground(&piece, n.said_at)
                    },
                    score: 0.0,
                    matched: false,
                    memory: Some(memory.clone()),
                },
                origin: found.relevance,
                vector: 0.0,
            });
        }
    }
    let mut texts: Vec<&str> = drafts.iter().map(|d| d.said.as_str()).collect();
    texts.extend_from_slice(others);
    let matches = text_match(&texts, queries);
    let (lines, others) = matches.split_at(drafts.len());
    for (d, t) in drafts.iter_mut().zip(lines) {
        d.statement.matched |= *t > 0.0;
        d.statement.score = TEXT * t + ORIGIN * d.origin + VECTOR * d.vector;
    }
    let pool = Pool {
        groups,
        statements: drafts.into_iter().map(|d| d.statement).collect(),
    };
    (pool, others.to_vec())
}

/// The score of another candidate with this text match and relevance (0–1 each).
pub(super) fn score_of(text: f64, relevance: f64) -> f64 {
    TEXT * text + ORIGIN * relevance
}

/// The group of a note whose Source retrieval did not return.
fn note_group(key: &str, n: &NoteHit, meta: Option<&SourceMeta>) -> Group {
    let when = meta.map_or(n.said_at, |m| m.event_time);
    let kind = meta.map_or_else(|| "from".to_owned(), |m| m.source_type.to_string());
    Group {
        header: format!("{} · {kind} · {key}", date(when.date_naive())),
        when,
        memory: None,
    }
}

/// The group of an insight: the span of its Sources' dates and how many there were.
fn insight_group(n: &NoteHit, metas: &HashMap<String, SourceMeta>) -> Group {
    let mut times: Vec<DateTime<Utc>> = n
        .derived_from
        .iter()
        .filter_map(|k| metas.get(k).map(|m| m.event_time))
        .collect();
    times.sort();
    let span = match (times.first(), times.last()) {
        (Some(a), Some(b)) if a.date_naive() != b.date_naive() => {
            format!("{} – {}", date(a.date_naive()), date(b.date_naive()))
        }
        _ => date(n.said_at.date_naive()),
    };
    let count = n.derived_from.len();
    Group {
        header: format!(
            "{span} · consolidated from {count} Source{}",
            if count == 1 { "" } else { "s" }
        ),
        when: n.said_at,
        memory: None,
    }
}

/// The statements of a Source's content in order, each with the passages (their
/// ordinals) that hold it: its turns (`turns`: a conversation, meeting or thread, where
/// a turn is what answers), else its sentences; a line's `[timestamp]` is left out.
fn lines(content: &str, turns: bool) -> Vec<(String, Vec<u32>)> {
    let mut out: Vec<(String, Vec<u32>)> = Vec::new();
    for (p, passage) in passages::split(content).iter().enumerate() {
        let mut first = true;
        for line in passage.lines().map(str::trim).filter(|l| !l.is_empty()) {
            let line = strip_timestamp(line);
            let pieces = if turns {
                vec![line.to_owned()]
            } else {
                sentences(line)
            };
            for piece in pieces {
                // Consecutive passages share a line: once.
                match out.last_mut() {
                    Some((last, ps)) if first && *last == piece => ps.push(p as u32),
                    _ => out.push((piece, vec![p as u32])),
                }
                first = false;
            }
        }
    }
    out
}

fn strip_timestamp(line: &str) -> &str {
    match line
        .strip_prefix('[')
        .and_then(|rest| rest.split_once("] "))
    {
        Some((stamp, rest)) if stamp.len() <= 40 => rest,
        _ => line,
    }
}

/// An insight's statements: its lines, or its sentences.
fn sentences(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    if lines.len() > 1 {
        return lines.into_iter().map(str::to_owned).collect();
    }
    let mut out = Vec::new();
    let mut current = String::new();
    for piece in text.split_inclusive(['.', '!', '?']) {
        current.push_str(piece);
        if current.trim().chars().count() >= 20 {
            out.push(current.trim().to_owned());
            current.clear();
        }
    }
    if !current.trim().is_empty() {
        out.push(current.trim().to_owned());
    }
    out
}

/// Lower case, words only: how statements are compared for repeats.
pub(super) fn normalise(text: &str) -> String {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

/// BM25 of each text's words for the queries' word groups (k1 1.2, b 0.75), the
/// candidates the collection, normalised to the best (0–1).
fn text_match(texts: &[&str], queries: &[Query]) -> Vec<f64> {
    const K1: f64 = 1.2;
    const B: f64 = 0.75;
    let groups: Vec<Vec<String>> = queries.iter().flat_map(word_groups).collect();
    let docs: Vec<Vec<String>> = texts
        .iter()
        .map(|t| {
            t.split(|c: char| !(c.is_alphanumeric() || c == '\''))
                .filter(|w| !w.is_empty())
                .map(|w| stem(&w.to_lowercase()))
                .collect()
        })
        .collect();
    let n = docs.len() as f64;
    let avg = docs.iter().map(Vec::len).sum::<usize>() as f64 / n.max(1.0);
    let tf = |doc: &[String], g: &[String]| doc.iter().filter(|w| g.contains(w)).count() as f64;
    let idf: Vec<f64> = groups
        .iter()
        .map(|g| {
            let df = docs.iter().filter(|d| tf(d, g) > 0.0).count() as f64;
            (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
        })
        .collect();
    let raw: Vec<f64> = docs
        .iter()
        .map(|doc| {
            let norm = K1 * (1.0 - B + B * doc.len() as f64 / avg.max(1.0));
            groups
                .iter()
                .zip(&idf)
                .map(|(g, idf)| {
                    let f = tf(doc, g);
                    idf * f * (K1 + 1.0) / (f + norm)
                })
                .sum()
        })
        .collect();
    let best = raw.iter().copied().fold(0.0, f64::max);
    raw.into_iter()
        .map(|t| if best > 0.0 { t / best } else { 0.0 })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_each_once_in_order_with_their_passages() {
        let content = (0..30)
            .map(|i| format!("[00:00:{i:02}] Speaker {i}: line number {i} of a long talk here"))
            .collect::<Vec<_>>()
            .join("\n");
        let got = lines(&content, true);
        assert_eq!(got.len(), 30, "{got:?}");
        assert!(got[0].0.starts_with("Speaker 0: line number 0"));
        assert!(got.iter().all(|(_, ps)| !ps.is_empty()));
        assert!(
            got.iter().any(|(_, ps)| ps.len() == 2),
            "a line two passages share"
        );
    }

    #[test]
    fn an_insight_is_split_into_its_statements() {
        assert_eq!(
            sentences(
                "On 8 May 2023, Caroline: I went to a support group.\nOn 20 May 2023, Caroline: I lead it now."
            ),
            [
                "On 8 May 2023, Caroline: I went to a support group.",
                "On 20 May 2023, Caroline: I lead it now."
            ]
        );
        assert_eq!(
            sentences("Caroline found a group. She leads it now, every Monday."),
            ["Caroline found a group.", "She leads it now, every Monday."]
        );
        assert_eq!(
            normalise("Hi, Mel!  How's it going?"),
            "hi mel how s it going"
        );
    }
}
