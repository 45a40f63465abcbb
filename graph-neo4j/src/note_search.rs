//! Note search on Neo4j (`NoteSearchStore::search_notes`, `cypher/notes/`). Notes are parallel
//! list properties of their node or relationship, so the full-text indexes
//! (`semantic_note_text`, `relates_note_text`, on `note_texts`) find and score owners,
//! not notes: each statement returns the best `limit` owners in scope with all their
//! notes, and the notes that hold the query's words are picked here — words compared on
//! their Porter stems ([`super::porter`]), as the indexes' `english` analyzer compares
//! them. The owners' Lucene scores only choose the candidates: each note is scored on
//! its own, by BM25 over the candidates ([`note_bm25`]), as SQLite's FTS5 scores each
//! note, so the note that holds the words best comes first whichever node or link
//! holds it, and the order does not move with other users' words.

use std::collections::BTreeMap;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use cosmo_core::domain::{MemoryKind, Note, NoteHit, SearchScope, relationship_label};
use cosmo_core::graph::{GraphError, GraphResult, NoteSearchStore};
use neo4rs::{BoltType, Row};

use super::Neo4jGraph;
use super::bolt::{Props, column, int, list, opt, string_column};
use super::cypher::notes as nx;
use super::decode;
use super::episodic::SYSTEM_AUTHOR;
use super::lucene::escape_lucene;
use super::porter::stem;

/// A Lucene query matching any of the terms in `note_texts`: each term an escaped,
/// quoted phrase, as `text_search` quotes them. `None` when no term has a letter or
/// digit.
fn lucene_query(terms: &[String]) -> Option<String> {
    let clauses: Vec<String> = terms
        .iter()
        .map(|t| t.trim())
        .filter(|t| t.chars().any(char::is_alphanumeric))
        .map(|t| format!("note_texts:\"{}\"", escape_lucene(t)))
        .collect();
    (!clauses.is_empty()).then(|| clauses.join(" OR "))
}

/// A text's words, lower case and stemmed, split where the analyzer splits (anything
/// but letters and digits).
fn stems(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| stem(&w.to_lowercase()))
        .collect()
}

/// The share of `terms` (each a stemmed phrase) the note's words hold, 0 when none.
fn coverage(note: &[String], terms: &[Vec<String>]) -> f64 {
    if terms.is_empty() {
        return 0.0;
    }
    let held = terms
        .iter()
        .filter(|t| note.windows(t.len()).any(|w| w == t.as_slice()))
        .count();
    held as f64 / terms.len() as f64
}

/// Each note's BM25 score for the terms (stemmed phrases), with the candidates as the
/// collection: how often each term occurs in the note, weighed by how few candidates
/// hold it and the note's length against theirs (k1 = 1.2, b = 0.75, as FTS5).
fn note_bm25(notes: &[Vec<String>], terms: &[Vec<String>]) -> Vec<f64> {
    const K1: f64 = 1.2;
    const B: f64 = 0.75;
    let n = notes.len() as f64;
    let avg = notes.iter().map(Vec::len).sum::<usize>() as f64 / n.max(1.0);
    let count = |note: &[String], t: &[String]| {
        if t.is_empty() || note.len() < t.len() {
            0
        } else {
            note.windows(t.len()).filter(|w| *w == t).count()
        }
    };
    let idf: Vec<f64> = terms
        .iter()
        .map(|t| {
            let df = notes.iter().filter(|note| count(note, t) > 0).count() as f64;
            (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
        })
        .collect();
    notes
        .iter()
        .map(|note| {
            let norm = K1 * (1.0 - B + B * note.len() as f64 / avg.max(1.0));
            terms
                .iter()
                .zip(&idf)
                .map(|(t, idf)| {
                    let tf = count(note, t) as f64;
                    idf * tf * (K1 + 1.0) / (tf + norm)
                })
                .sum()
        })
        .collect()
}

fn float_column(row: &Row, name: &str) -> GraphResult<f64> {
    match column(row, name)? {
        BoltType::Float(f) => Ok(f.value),
        BoltType::Integer(i) => Ok(i.value as f64),
        other => Err(backend(format!(
            "`{name}`: expected a number, got {other:?}"
        ))),
    }
}

fn backend(detail: String) -> GraphError {
    GraphError::Backend(anyhow::anyhow!(
        "reading a note search from Neo4j: {detail}"
    ))
}

/// `derived`: `[note id ('' for a link without one), Source key]` pairs.
fn derived_links(row: &Row) -> GraphResult<Vec<(String, String)>> {
    let string = |v: &BoltType| match v {
        BoltType::String(s) => Ok(s.value.clone()),
        other => Err(backend(format!(
            "`derived`: expected a string, got {other:?}"
        ))),
    };
    match column(row, "derived")? {
        BoltType::Null(_) => Ok(Vec::new()),
        BoltType::List(pairs) => pairs
            .value
            .iter()
            .map(|pair| match pair {
                BoltType::List(p) if p.value.len() == 2 => {
                    Ok((string(&p.value[0])?, string(&p.value[1])?))
                }
                other => Err(backend(format!(
                    "`derived`: expected a pair, got {other:?}"
                ))),
            })
            .collect(),
        other => Err(backend(format!(
            "`derived`: expected a list, got {other:?}"
        ))),
    }
}

/// The Sources an insight derives from: its links by note id, and links recorded
/// before note ids were kept (which erasure counts for every insight on the node).
fn sources_of(note: &Note, links: &[(String, String)]) -> Vec<String> {
    if note.source_id.is_some() {
        return Vec::new();
    }
    let mut keys: Vec<String> = links
        .iter()
        .filter(|(id, _)| *id == note.note_id || (id.is_empty() && note.added_by == SYSTEM_AUTHOR))
        .map(|(_, key)| key.clone())
        .collect();
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// What the search keeps of one owner's notes.
struct Pick<'a> {
    scope: &'a SearchScope,
    at: DateTime<Utc>,
    terms: &'a [Vec<String>],
}

impl Pick<'_> {
    /// The owner's notes that are live, in the scope's range and hold a term, with the
    /// share of the terms each holds.
    fn notes(&self, notes: Vec<Note>) -> Vec<(Note, f64)> {
        notes
            .into_iter()
            .filter(|n| n.expires_at.is_none_or(|t| t > self.at))
            .filter(|n| self.scope.since.is_none_or(|s| n.said_at >= s))
            .filter(|n| self.scope.until.is_none_or(|u| n.said_at < u))
            .filter_map(|n| {
                let c = coverage(&stems(&n.text), self.terms);
                (c > 0.0).then_some((n, c))
            })
            .collect()
    }
}

/// The notes of one owner row that hold the query's words, each with its share of them.
fn owner_notes(row: &Row, kind: MemoryKind, pick: &Pick<'_>) -> GraphResult<Vec<(NoteHit, f64)>> {
    let owner_key =
        string_column(row, "owner_key")?.ok_or_else(|| backend("an owner without a key".into()))?;
    let text = |name| Ok::<_, GraphError>(string_column(row, name)?.unwrap_or_default());
    let about = match kind {
        MemoryKind::Relationship => vec![text("from_key")?, text("to_key")?],
        _ => vec![owner_key.clone()],
    };
    let owner = match kind {
        MemoryKind::Relationship => relationship_label(
            &text("from_name")?,
            &text("relationship_type")?,
            &text("to_name")?,
        ),
        _ => text("owner")?,
    };
    let score = float_column(row, "score")?;
    let links = derived_links(row)?;
    let notes = decode::notes(&Props::from_row(row, "notes")?)?;
    Ok(pick
        .notes(notes)
        .into_iter()
        .map(|(note, share)| {
            let derived_from = sources_of(&note, &links);
            (
                NoteHit {
                    note_id: note.note_id,
                    text: note.text,
                    owner_kind: kind,
                    owner_key: owner_key.clone(),
                    owner: owner.clone(),
                    about: about.clone(),
                    source_id: note.source_id,
                    date_added: note.date_added,
                    said_at: note.said_at,
                    added_by: note.added_by,
                    score,
                    derived_from,
                },
                share,
            )
        })
        .collect())
}

#[async_trait]
impl NoteSearchStore for Neo4jGraph {
    async fn search_notes(
        &self,
        scope: &SearchScope,
        terms: &[String],
        at: DateTime<Utc>,
        limit: usize,
    ) -> GraphResult<Vec<NoteHit>> {
        let Some(query) = lucene_query(terms) else {
            return Ok(Vec::new());
        };
        if limit == 0 {
            return Ok(Vec::new());
        }
        let stemmed: Vec<Vec<String>> = terms
            .iter()
            .map(|t| stems(t))
            .filter(|t| !t.is_empty())
            .collect();
        let pick = Pick {
            scope,
            at,
            terms: &stemmed,
        };
        // (hit, share of the terms) in no particular order yet.
        let mut found: Vec<(NoteHit, f64)> = Vec::new();
        for (statement, kind) in [
            (&nx::SEARCH_NODES, MemoryKind::Node),
            (&nx::SEARCH_RELATIONSHIPS, MemoryKind::Relationship),
        ] {
            // Owners come by score, but an owner's notes may not hold the words (the
            // index matches them across notes, or in a note no longer live): page on
            // until `limit` notes are picked or the owners run out.
            let (mut skip, mut picked) = (0usize, 0usize);
            loop {
                let q = statement
                    .bind()
                    .p("user_id", scope.user_id.as_str())
                    .p("include_archived", scope.include_archived)
                    .p("since", opt(scope.since))
                    .p("until", opt(scope.until))
                    .p("at", at)
                    .p("query", query.clone())
                    .p("skip", int(skip))
                    .p("limit", int(limit));
                let rows = self.rows(q.query()?).await?;
                let owners = rows.len();
                for row in rows {
                    let hits = owner_notes(&row, kind, &pick)?;
                    picked += hits.len();
                    found.extend(hits);
                }
                if owners < limit || picked >= limit {
                    break;
                }
                skip += owners;
            }
        }
        // One note once (a note id is unique per owner).
        let mut by_note: BTreeMap<(String, String), (NoteHit, f64)> = BTreeMap::new();
        for (hit, share) in found {
            by_note
                .entry((hit.owner_key.clone(), hit.note_id.clone()))
                .or_insert((hit, share));
        }
        let mut hits: Vec<(NoteHit, f64)> = by_note.into_values().collect();
        let scores = note_bm25(
            &hits.iter().map(|(h, _)| stems(&h.text)).collect::<Vec<_>>(),
            &stemmed,
        );
        for ((hit, _), score) in hits.iter_mut().zip(scores) {
            hit.score = score;
        }
        hits.sort_by(|(a, ca), (b, cb)| {
            b.score
                .total_cmp(&a.score)
                .then_with(|| cb.total_cmp(ca))
                .then_with(|| a.owner_key.cmp(&b.owner_key))
                .then_with(|| a.note_id.cmp(&b.note_id))
        });
        hits.truncate(limit);
        Ok(hits.into_iter().map(|(h, _)| h).collect())
    }

    async fn insights_of(
        &self,
        user_id: &str,
        source_keys: &[String],
        at: DateTime<Utc>,
    ) -> GraphResult<Vec<NoteHit>> {
        if source_keys.is_empty() {
            return Ok(Vec::new());
        }
        let q = nx::INSIGHTS_OF
            .bind()
            .p("user_id", user_id)
            .p("source_keys", list(source_keys.iter().map(String::as_str)));
        let mut hits = Vec::new();
        for row in self.rows(q.query()?).await? {
            let owner_key = string_column(&row, "owner_key")?
                .ok_or_else(|| backend("an owner without a key".into()))?;
            let owner = string_column(&row, "owner")?.unwrap_or_default();
            let links = derived_links(&row)?;
            for note in decode::notes(&Props::from_row(&row, "notes")?)? {
                let derived_from = sources_of(&note, &links);
                let live = note.expires_at.is_none_or(|t| t > at);
                if !live || !derived_from.iter().any(|k| source_keys.contains(k)) {
                    continue;
                }
                hits.push(NoteHit {
                    note_id: note.note_id,
                    text: note.text,
                    owner_kind: MemoryKind::Node,
                    owner_key: owner_key.clone(),
                    owner: owner.clone(),
                    about: vec![owner_key.clone()],
                    source_id: None,
                    date_added: note.date_added,
                    said_at: note.said_at,
                    added_by: note.added_by,
                    score: 0.0,
                    derived_from,
                });
            }
        }
        hits.sort_by(|a, b| (&a.owner_key, &a.note_id).cmp(&(&b.owner_key, &b.note_id)));
        Ok(hits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cosmo_core::domain::NoteLifetime;

    fn terms(t: &[&str]) -> Vec<Vec<String>> {
        t.iter().map(|t| stems(t)).collect()
    }

    fn note(id: &str, text: &str, source: Option<&str>, added_by: &str) -> Note {
        Note {
            note_id: id.into(),
            text: text.into(),
            added_by: added_by.into(),
            source_id: source.map(Into::into),
            date_added: DateTime::<Utc>::UNIX_EPOCH,
            said_at: DateTime::<Utc>::UNIX_EPOCH,
            lifetime: NoteLifetime::Forever,
            expires_at: None,
        }
    }

    #[test]
    fn every_term_is_a_quoted_phrase_on_the_note_texts() {
        let t = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            lucene_query(&t(&["march", "co-op", "say \"hi\""])).unwrap(),
            r#"note_texts:"march" OR note_texts:"co\-op" OR note_texts:"say \"hi\"""#
        );
        assert_eq!(lucene_query(&t(&["  ", "--"])), None);
    }

    #[test]
    fn both_statements_filter_on_the_whole_scope_and_expiry() {
        for s in nx::ALL {
            for clause in [
                "$user_id",
                "OR $include_archived)",
                "$since IS NULL OR",
                "$until IS NULL OR",
                "note_expires_at[i] > $at",
                "LIMIT $limit",
            ] {
                assert!(s.text.contains(clause), "cypher/{}: {clause}", s.file);
            }
        }
    }

    #[test]
    fn a_note_holding_more_of_the_words_scores_higher_than_its_neighbours() {
        let notes: Vec<Vec<String>> = [
            "Lunch with Sarah Chen from Acme Corp.",
            "Sarah Chen leads the hiring plan at Acme Corp.",
            "Sarah Chen wants the hiring plan done by March.",
        ]
        .iter()
        .map(|t| stems(t))
        .collect();
        let scores = note_bm25(&notes, &terms(&["sarah", "chen", "want", "march"]));
        assert!(scores[2] > scores[0] && scores[2] > scores[1], "{scores:?}");
        // A rarer word weighs more than a common one.
        let scores = note_bm25(&notes, &terms(&["lunch", "sarah"]));
        assert!(scores[0] > scores[1], "{scores:?}");
        assert_eq!(note_bm25(&[], &terms(&["sarah"])), Vec::<f64>::new());
    }

    #[test]
    fn notes_hold_terms_by_their_stems() {
        let note = stems("Sarah Chen wants the hiring plan done by March.");
        assert_eq!(coverage(&note, &terms(&["want", "march"])), 1.0);
        assert_eq!(coverage(&note, &terms(&["hire", "budget"])), 0.5);
        assert_eq!(coverage(&note, &terms(&["sarah-chen"])), 1.0, "a phrase");
        assert_eq!(coverage(&note, &terms(&["chen-sarah"])), 0.0);
        assert_eq!(coverage(&note, &[]), 0.0);
    }

    #[test]
    fn an_insight_names_its_sources_by_note_id() {
        let links = vec![
            ("n1".to_owned(), "s2".to_owned()),
            ("n1".to_owned(), "s1".to_owned()),
            ("n2".to_owned(), "s3".to_owned()),
            (String::new(), "s0".to_owned()),
        ];
        let insight = note("n1", "x", None, SYSTEM_AUTHOR);
        assert_eq!(sources_of(&insight, &links), ["s0", "s1", "s2"]);
        let extracted = note("n1", "x", Some("s9"), "alice");
        assert!(sources_of(&extracted, &links).is_empty());
    }

    #[test]
    fn only_live_notes_in_range_that_hold_a_term_are_picked() {
        let scope = SearchScope {
            since: Some(DateTime::<Utc>::UNIX_EPOCH),
            ..SearchScope::user("alice")
        };
        let at = DateTime::<Utc>::UNIX_EPOCH + chrono::Duration::days(10);
        let t = terms(&["plan"]);
        let pick = Pick {
            scope: &scope,
            at,
            terms: &t,
        };
        let live = note("a", "The plan", Some("s"), "alice");
        let expired = Note {
            expires_at: Some(at),
            ..note("b", "Old plan", Some("s"), "alice")
        };
        let early = Note {
            said_at: DateTime::<Utc>::UNIX_EPOCH - chrono::Duration::days(1),
            ..note("c", "Early plan", Some("s"), "alice")
        };
        let other = note("d", "Nothing here", Some("s"), "alice");
        let picked: Vec<String> = pick
            .notes(vec![live, expired, early, other])
            .into_iter()
            .map(|(n, _)| n.note_id)
            .collect();
        assert_eq!(picked, ["a"]);
    }
}
