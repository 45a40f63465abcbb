//! Notes as memories of the read side: the notes on a user's nodes and relationships
//! that match the queries — what an extraction noted ("Sarah Chen wants the hiring plan
//! done by March.") and the insights episodic consolidation wrote — ranked for context
//! (and explore). Notes are found by their words through the store's note search
//! ([`cosmo_shared::graph::NoteSearchStore::search_notes`]), so they are there from the extraction
//! on, before `consolidate-descriptions` has written any description, and an insight
//! keeps the knowledge of the Sources it replaced reachable after they are archived.
//!
//! Notes have no vector of their own: their words are all they are found by (the
//! query's full-text terms, [`terms`]: "What does Sarah Chen want by March?" asks for
//! `sarah chen want march`).
//!
//! Ranking: the notes on nodes that hybrid retrieval ranks for the queries
//! (`rank_target` over `Target::Node`; for a relationship, either end) come before
//! all others; within each group a note scores the mean of its normalised full-text
//! score and its owner's normalised retrieval score.

use std::collections::HashMap;

use super::terms::terms;
use super::{Loaded, RetrievalResult, Why, key_of};
use crate::retrieval::Recall;
use cosmo_shared::domain::{NoteHit, SearchScope};

/// A note ranked for the queries.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RankedNote {
    /// 0–2: 1 when the note's owner is among the ranked nodes, plus the mean of `text`
    /// and `owner`.
    pub score: f64,
    /// Its full-text score over the best of its query's list, 0–1 (best query).
    pub text: f64,
    /// Its owner node's retrieval score over the best node's, 0–1 (a relationship: the
    /// better end); 0 when retrieval did not rank it.
    pub owner: f64,
    pub note: NoteHit,
}

/// Each ranked node's score over the best one's (0–1), by entity key, from what
/// `rank_target` returned for `Target::Node`.
pub(crate) fn node_relevance(ranked: &[(f64, Why, Loaded)]) -> HashMap<String, f64> {
    let best = ranked.iter().map(|(s, _, _)| *s).fold(0.0, f64::max);
    ranked
        .iter()
        .map(|(s, _, l)| {
            let r = if best > 0.0 { s / best } else { 0.0 };
            (key_of(l), r.clamp(0.0, 1.0))
        })
        .collect()
}

/// The `limit` notes in `scope` that best match the query `texts`, best first (ties:
/// newer first, then owner key and note id), given the relevance of the nodes retrieval
/// ranked for them ([`node_relevance`]). Notes are searched by the [`terms`] of each
/// text. Expired notes are never returned; notes of archived owners only when the scope
/// includes archived memories.
pub(crate) async fn rank_notes_among(
    r: &Recall<'_>,
    scope: &SearchScope,
    texts: &[&str],
    nodes: &HashMap<String, f64>,
    limit: usize,
) -> RetrievalResult<Vec<RankedNote>> {
    if limit == 0 {
        return Ok(Vec::new());
    }
    let n = r.retrieval.candidates_per_signal.max(limit);
    let now = r.clock.now();
    let mut lists = Vec::new();
    for text in texts {
        let words = terms(text);
        if !words.is_empty() {
            lists.push(r.graph.notes.search_notes(scope, &words, now, n).await?);
        }
    }
    Ok(rank(lists, nodes, limit))
}

/// Merges the queries' note lists (a note once, with its best text score) and ranks
/// them.
fn rank(lists: Vec<Vec<NoteHit>>, nodes: &HashMap<String, f64>, limit: usize) -> Vec<RankedNote> {
    let mut by_note: HashMap<(String, String), (f64, NoteHit)> = HashMap::new();
    for list in lists {
        let best = list.iter().map(|h| h.score).fold(0.0, f64::max);
        for hit in list {
            let text = if best > 0.0 {
                (hit.score / best).clamp(0.0, 1.0)
            } else {
                1.0
            };
            let key = (hit.owner_key.clone(), hit.note_id.clone());
            match by_note.get_mut(&key) {
                Some((t, _)) if *t >= text => {}
                Some(entry) => *entry = (text, hit),
                None => {
                    by_note.insert(key, (text, hit));
                }
            }
        }
    }
    let mut ranked: Vec<RankedNote> = by_note
        .into_values()
        .map(|(text, note)| {
            let owner = note
                .about
                .iter()
                .filter_map(|k| nodes.get(k))
                .fold(None, |best: Option<f64>, r| {
                    Some(best.map_or(*r, |b| b.max(*r)))
                });
            let tier = if owner.is_some() { 1.0 } else { 0.0 };
            let owner = owner.unwrap_or(0.0);
            RankedNote {
                score: tier + (text + owner) / 2.0,
                text,
                owner,
                note,
            }
        })
        .collect();
    ranked.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| b.note.date_added.cmp(&a.note.date_added))
            .then_with(|| a.note.owner_key.cmp(&b.note.owner_key))
            .then_with(|| a.note.note_id.cmp(&b.note.note_id))
    });
    ranked.truncate(limit);
    ranked
}

#[cfg(test)]
mod tests {
    use chrono::{DateTime, Duration, Utc};

    use super::*;
    use cosmo_shared::domain::MemoryKind;

    fn hit(owner: &str, id: &str, score: f64, about: &[&str]) -> NoteHit {
        NoteHit {
            note_id: id.into(),
            text: format!("note {id}"),
            owner_kind: if about.len() == 2 {
                MemoryKind::Relationship
            } else {
                MemoryKind::Node
            },
            owner_key: owner.into(),
            owner: owner.into(),
            about: about.iter().map(|k| (*k).to_owned()).collect(),
            source_id: Some("s".into()),
            date_added: DateTime::<Utc>::UNIX_EPOCH,
            said_at: DateTime::<Utc>::UNIX_EPOCH,
            added_by: "alice".into(),
            score,
            derived_from: Vec::new(),
        }
    }

    fn ids(ranked: &[RankedNote]) -> Vec<&str> {
        ranked.iter().map(|r| r.note.note_id.as_str()).collect()
    }

    #[test]
    fn notes_of_ranked_nodes_come_first() {
        let nodes = HashMap::from([("sarah".to_owned(), 1.0), ("acme".to_owned(), 0.5)]);
        let list = vec![
            hit("garden", "g", 9.0, &["garden"]),
            hit("acme", "a", 3.0, &["acme"]),
            hit("sarah", "s", 1.0, &["sarah"]),
            hit("rel", "r", 2.0, &["bob", "acme"]),
        ];
        let ranked = rank(vec![list], &nodes, 10);
        assert_eq!(ids(&ranked), ["s", "a", "r", "g"], "{ranked:#?}");
        assert_eq!(
            ranked[3].score, 0.5,
            "the best text match, of no ranked node"
        );
        assert_eq!(ranked[2].owner, 0.5, "a relationship: its better end");
        assert_eq!(rank(Vec::new(), &nodes, 10), Vec::new());
    }

    #[test]
    fn a_note_counts_once_with_its_best_text_score_and_ties_go_to_newer() {
        let nodes = HashMap::new();
        let mut newer = hit("n", "b", 2.0, &["n"]);
        newer.date_added += Duration::days(1);
        let first = vec![hit("n", "a", 4.0, &["n"]), newer.clone()];
        let second = vec![
            NoteHit {
                score: 1.0,
                ..newer
            },
            hit("n", "a", 1.0, &["n"]),
        ];
        let ranked = rank(vec![first, second], &nodes, 10);
        assert_eq!(ids(&ranked), ["b", "a"], "{ranked:#?}");
        assert_eq!(
            rank(vec![vec![hit("n", "a", 1.0, &["n"])]], &nodes, 0),
            Vec::new()
        );
    }
}
