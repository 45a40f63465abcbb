//! [`ReadStore`] on SQLite: vector search over `search_docs` (a shortlist from the
//! user's vectors held in memory, `search/vectors/`, scored exactly from the stored
//! rows; or, for a user whose vectors do not fit the memory budget, every stored vector
//! streamed and scored here, top-k kept in a bounded heap), full-text search (BM25 over
//! the user's text held in memory, `search/texts/`; FTS5 for a user whose text does
//! not fit the memory budget), graph
//! neighbours in SQL, the read views, and atomic lifecycle updates. Table and column
//! names come from the closed [`Target`] enum through `per_target!`: SQL text is never
//! built from input.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use async_trait::async_trait;
use futures::TryStreamExt;
use sqlx::Row;
use sqlx::sqlite::SqliteRow;

use super::storylines::storyline_from_row;
use super::{SqliteGraph, micros, parse};
use crate::domain::{
    Hit, LifecycleChange, MemoryKind, MemoryLifecycle, MemoryState, MemoryStats, Neighbour,
    Relationship, SearchScope, SourceMeta, SourcePassage, SourceType, Storyline, Target,
};
use crate::graph::{GraphResult, LifecycleUpdate, ReadStore};

/// The documents of a user, of one target, visible in the scope (`$1` user, `$2` highest
/// visibility, `$3`/`$4` time range). A team Source is visible to every participant.
macro_rules! docs {
    (source) => {
        "search_docs d JOIN source_participants p ON p.source_key = d.key AND p.user_id = $1
         WHERE d.target = 'source' AND d.visibility <= $2 AND d.at >= $3 AND d.at < $4"
    };
    ($target:literal) => {
        concat!(
            "search_docs d WHERE d.user_id = $1 AND d.target = '",
            $target,
            "' AND d.visibility <= $2 AND d.at >= $3 AND d.at < $4"
        )
    };
}

/// The scope's vectors; with `KEYS`, only those of the keys in `$5` (a JSON array).
macro_rules! vector_sql {
    ($docs:tt, KEYS) => {
        concat!(
            vector_sql!($docs),
            " AND d.key IN (SELECT value FROM json_each($5))"
        )
    };
    ($docs:tt) => {
        concat!(
            "SELECT d.key, d.embedding, d.passages FROM ",
            docs!($docs),
            " AND d.embedding IS NOT NULL"
        )
    };
}

mod cache;
mod texts;
mod vectors;

pub(crate) use texts::TextIndex;
pub(crate) use vectors::VectorIndex;

/// `$5` is the FTS5 query, `$6` the limit. bm25 is lower-is-better: the score is its
/// negation. Column weights favour names and summaries.
macro_rules! text_sql {
    ($fts:literal, $weights:literal, $($docs:tt)+) => {
        // The match is materialised first: joined directly, the planner may loop over
        // the user's documents and re-run the whole full-text query for each one.
        concat!(
            "WITH m AS MATERIALIZED (SELECT rowid AS doc_id, -bm25(", $fts, $weights,
            ") AS score FROM ", $fts, " WHERE ", $fts, " MATCH $5)
             SELECT d.key, m.score AS score FROM m JOIN ", docs!($($docs)+),
            " AND d.doc_id = m.doc_id
             ORDER BY score DESC, d.key LIMIT $6"
        )
    };
}

/// Scope parameters `$1`–`$4`, seeds as a JSON array in `$5`, limit `$6`.
const SOURCE_NEIGHBOURS: &str = concat!(
    "SELECT m.source_key AS key, CAST(count(*) AS REAL) AS score, json_group_array(m.entity_key) AS via
     FROM mentions m JOIN ",
    docs!(source),
    " AND d.key = m.source_key AND m.user_id = $1
       AND m.entity_key IN (SELECT value FROM json_each($5))
     GROUP BY m.source_key ORDER BY score DESC, max(d.at) DESC, m.source_key LIMIT $6"
);

const NODE_NEIGHBOURS: &str = concat!(
    "SELECT x.other AS key, CAST(sum(x.strength) AS REAL) AS score, json_group_array(x.seed) AS via
     FROM (SELECT r.to_key AS other, r.from_key AS seed, r.strength FROM relationships r
           WHERE r.user_id = $1 AND r.from_key IN (SELECT value FROM json_each($5))
             AND (r.state <> 'archived' OR $2 >= 1)
           UNION ALL
           SELECT r.from_key, r.to_key, r.strength FROM relationships r
           WHERE r.user_id = $1 AND r.to_key IN (SELECT value FROM json_each($5))
             AND (r.state <> 'archived' OR $2 >= 1)) x
     JOIN ",
    docs!("node"),
    " AND d.key = x.other AND x.other NOT IN (SELECT value FROM json_each($5))
     GROUP BY x.other ORDER BY score DESC, x.other LIMIT $6"
);

const STORYLINE_NEIGHBOURS: &str = concat!(
    "SELECT s.storyline_id AS key, 1.0 AS score, json_array(s.anchor_key) AS via
     FROM storylines s JOIN ",
    docs!("storyline"),
    " AND d.key = s.storyline_id AND s.anchor_key IN (SELECT value FROM json_each($5))
     ORDER BY d.at DESC, s.storyline_id LIMIT $6"
);

const MACRO_NEIGHBOURS: &str = concat!(
    "SELECT m.macro_id AS key, 1.0 AS score, json_array(m.anchor_key) AS via
     FROM macros m JOIN ",
    docs!("macro"),
    " AND d.key = m.macro_id AND m.anchor_key IN (SELECT value FROM json_each($5))
     ORDER BY d.at DESC, m.macro_id LIMIT $6"
);

const FACT_NEIGHBOURS: &str = concat!(
    "SELECT a.fact_id AS key, CAST(count(*) AS REAL) AS score, json_group_array(a.entity_key) AS via
     FROM fact_about a JOIN ",
    docs!("fact"),
    " AND d.key = a.fact_id AND a.entity_key IN (SELECT value FROM json_each($5))
     GROUP BY a.fact_id ORDER BY score DESC, max(d.at) DESC, a.fact_id LIMIT $6"
);

macro_rules! source_meta {
    ($($rest:literal),*) => {
        concat!(
            "SELECT s.entity_key, s.user_id, s.source_type, s.context_type, s.summary,
                coalesce(s.started_at, s.created_at) AS event_at, s.state FROM sources s ",
            $($rest),*
        )
    };
}

/// A candidate in the top-k heap: the worst on top, so it is the one replaced. The
/// passage that scored it rides along.
#[derive(Debug, PartialEq)]
struct Scored(f64, String, Option<u32>);

impl Eq for Scored {}

impl PartialOrd for Scored {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Scored {
    // Reversed: the heap's top is the lowest score (ties: the greatest key).
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .0
            .total_cmp(&self.0)
            .then_with(|| self.1.cmp(&other.1))
    }
}

/// Cosine similarity of a stored little-endian f32 vector and the query; `None` when the
/// lengths differ or either is zero or not finite.
pub(crate) fn cosine_bytes(stored: &[u8], query: &[f32], query_norm: f64) -> Option<f64> {
    if stored.len() != query.len() * 4 || query_norm == 0.0 {
        return None;
    }
    let (mut dot, mut norm) = (0.0f64, 0.0f64);
    for (chunk, q) in stored.chunks_exact(4).zip(query) {
        let v = f64::from(f32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]));
        dot += v * f64::from(*q);
        norm += v * v;
    }
    (norm > 0.0 && norm.is_finite()).then(|| dot / (norm.sqrt() * query_norm))
}

/// The best cosine among a Source's packed passage vectors (each the query's length)
/// and its ordinal; `None` without a readable one.
fn best_passage(packed: &[u8], query: &[f32], query_norm: f64) -> Option<(f64, u32)> {
    let width = query.len() * 4;
    if width == 0 || !packed.len().is_multiple_of(width) {
        return None;
    }
    packed
        .chunks_exact(width)
        .enumerate()
        .filter_map(|(i, v)| Some((cosine_bytes(v, query, query_norm)?, i as u32)))
        .max_by(|a, b| a.0.total_cmp(&b.0).then_with(|| b.1.cmp(&a.1)))
}

/// The scope's bind values: user, highest visibility, time range.
fn scope_binds(scope: &SearchScope) -> (&str, i64, i64, i64) {
    (
        scope.user_id.as_str(),
        i64::from(scope.include_archived),
        scope.since.map_or(i64::MIN, micros),
        scope.until.map_or(i64::MAX, micros),
    )
}

/// An FTS5 query matching any of the terms, each a quoted string (never syntax).
fn fts_query(terms: &[String]) -> Option<String> {
    let quoted: Vec<String> = terms
        .iter()
        .map(|t| t.trim())
        .filter(|t| !t.is_empty())
        .map(|t| format!("\"{}\"", t.replace('"', "\"\"")))
        .collect();
    (!quoted.is_empty()).then(|| quoted.join(" OR "))
}

/// The keys without repeats, first occurrence kept.
fn distinct(keys: &[String]) -> Vec<&String> {
    let mut seen = std::collections::HashSet::new();
    keys.iter().filter(|k| seen.insert(*k)).collect()
}

fn json<T: serde::Serialize + ?Sized>(keys: &T) -> GraphResult<String> {
    Ok(serde_json::to_string(keys).map_err(anyhow::Error::from)?)
}

fn meta_from_row(r: &SqliteRow) -> sqlx::Result<SourceMeta> {
    Ok(SourceMeta {
        entity_key: r.try_get("entity_key")?,
        user_id: r.try_get("user_id")?,
        source_type: parse::<SourceType>(r, "source_type")?,
        context_type: r.try_get("context_type")?,
        summary: r.try_get("summary")?,
        event_time: super::time(r, "event_at")?,
        state: parse::<MemoryState>(r, "state")?,
    })
}

#[async_trait]
impl ReadStore for SqliteGraph {
    async fn vector_search(
        &self,
        scope: &SearchScope,
        target: Target,
        embedding: &[f32],
        limit: usize,
    ) -> GraphResult<Vec<Hit>> {
        let sql: &'static str = match target {
            Target::Source => vector_sql!(source),
            Target::Node => vector_sql!("node"),
            Target::Storyline => vector_sql!("storyline"),
            Target::Macro => vector_sql!("macro"),
            Target::Fact => vector_sql!("fact"),
        };
        let keys_sql: &'static str = match target {
            Target::Source => vector_sql!(source, KEYS),
            Target::Node => vector_sql!("node", KEYS),
            Target::Storyline => vector_sql!("storyline", KEYS),
            Target::Macro => vector_sql!("macro", KEYS),
            Target::Fact => vector_sql!("fact", KEYS),
        };
        if limit == 0 {
            return Ok(Vec::new());
        }
        let norm = embedding
            .iter()
            .map(|x| f64::from(*x) * f64::from(*x))
            .sum::<f64>()
            .sqrt();
        if !(norm > 0.0 && norm.is_finite()) {
            return Ok(Vec::new());
        }
        let (user, visibility, since, until) = scope_binds(scope);
        let mut top: BinaryHeap<Scored> = BinaryHeap::with_capacity(limit + 1);
        for attempt in 0..3 {
            let shortlist = self
                .vectors
                .shortlist(
                    &self.pool,
                    scope,
                    target,
                    embedding,
                    vectors::shortlist(limit),
                )
                .await?;
            let Some(keys) = shortlist else {
                // Beyond the index's budget: every stored vector, streamed.
                let mut rows = sqlx::query(sql)
                    .bind(user)
                    .bind(visibility)
                    .bind(since)
                    .bind(until)
                    .fetch(&self.pool);
                while let Some(row) = rows.try_next().await? {
                    vectors::score_row(&row, embedding, norm, limit, &mut top)?;
                }
                break;
            };
            // The shortlist scored exactly, from the stored rows, within the scope.
            let rows = sqlx::query(keys_sql)
                .bind(user)
                .bind(visibility)
                .bind(since)
                .bind(until)
                .bind(json(&keys)?)
                .fetch_all(&self.pool)
                .await?;
            if rows.len() < keys.len() && attempt < 2 {
                // The shortlist names memories the store no longer has in this scope:
                // written since the index caught up (the next shortlist catches up
                // again), or, when that does not mend it, gone with a user another
                // process erased, whose log entries went with them (load anew).
                if attempt == 1 {
                    self.vectors.forget(&scope.user_id, target);
                }
                continue;
            }
            for row in &rows {
                vectors::score_row(row, embedding, norm, limit, &mut top)?;
            }
            break;
        }
        Ok(vectors::into_hits(top))
    }

    async fn text_search(
        &self,
        scope: &SearchScope,
        target: Target,
        terms: &[String],
        limit: usize,
    ) -> GraphResult<Vec<Hit>> {
        let sql: &'static str = match target {
            Target::Source => text_sql!("sources_fts", ", 2.0, 1.0, 1.5", source),
            Target::Node => text_sql!("nodes_fts", ", 3.0, 1.0", "node"),
            Target::Storyline => text_sql!("storylines_fts", "", "storyline"),
            Target::Macro => text_sql!("macros_fts", "", "macro"),
            Target::Fact => text_sql!("facts_fts", ", 1.0, 2.0", "fact"),
        };
        if limit == 0 {
            return Ok(Vec::new());
        }
        if let Some(hits) = self
            .texts
            .search(&self.pool, scope, target, terms, limit)
            .await?
        {
            return Ok(hits);
        }
        // Beyond the index's budget: FTS5's ranking (over every user's rows' statistics).
        let Some(query) = fts_query(terms) else {
            return Ok(Vec::new());
        };
        let (user, visibility, since, until) = scope_binds(scope);
        let rows = sqlx::query(sql)
            .bind(user)
            .bind(visibility)
            .bind(since)
            .bind(until)
            .bind(query)
            .bind(limit as i64)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| {
                Ok(Hit {
                    key: r.try_get("key")?,
                    score: r.try_get("score")?,
                    passage: None,
                })
            })
            .collect::<sqlx::Result<_>>()
            .map_err(Into::into)
    }

    async fn neighbours(
        &self,
        scope: &SearchScope,
        target: Target,
        seeds: &[String],
        limit: usize,
    ) -> GraphResult<Vec<Neighbour>> {
        if seeds.is_empty() {
            return Ok(Vec::new());
        }
        let sql = match target {
            Target::Source => SOURCE_NEIGHBOURS,
            Target::Node => NODE_NEIGHBOURS,
            Target::Storyline => STORYLINE_NEIGHBOURS,
            Target::Macro => MACRO_NEIGHBOURS,
            Target::Fact => FACT_NEIGHBOURS,
        };
        let (user, visibility, since, until) = scope_binds(scope);
        let rows = sqlx::query(sql)
            .bind(user)
            .bind(visibility)
            .bind(since)
            .bind(until)
            .bind(json(seeds)?)
            .bind(limit as i64)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| {
                let mut via = super::json_list(r, "via")?;
                via.sort_unstable();
                via.dedup();
                Ok(Neighbour {
                    key: r.try_get("key")?,
                    score: r.try_get("score")?,
                    via,
                })
            })
            .collect::<sqlx::Result<_>>()
            .map_err(Into::into)
    }

    async fn search_notes(
        &self,
        scope: &SearchScope,
        terms: &[String],
        at: chrono::DateTime<chrono::Utc>,
        limit: usize,
    ) -> GraphResult<Vec<crate::domain::NoteHit>> {
        self.search_notes_impl(scope, terms, at, limit).await
    }

    async fn passages(&self, source_keys: &[String]) -> GraphResult<Vec<SourcePassage>> {
        let rows = sqlx::query(
            "SELECT p.source_key, p.ordinal, p.text
             FROM json_each($1) k JOIN source_passages p ON p.source_key = k.value
             ORDER BY k.key, p.ordinal",
        )
        .bind(json(&distinct(source_keys))?)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(SourcePassage {
                    source_key: r.try_get("source_key")?,
                    ordinal: u32::try_from(r.try_get::<i64, _>("ordinal")?).unwrap_or(u32::MAX),
                    text: r.try_get("text")?,
                })
            })
            .collect::<sqlx::Result<_>>()
            .map_err(Into::into)
    }

    async fn source_metas(&self, keys: &[String]) -> GraphResult<Vec<SourceMeta>> {
        let rows = sqlx::query(source_meta!(
            "WHERE s.entity_key IN (SELECT value FROM json_each($1))"
        ))
        .bind(json(keys)?)
        .fetch_all(&self.pool)
        .await?;
        let mut metas = rows
            .iter()
            .map(meta_from_row)
            .collect::<sqlx::Result<Vec<_>>>()?;
        metas.sort_by_key(|m| keys.iter().position(|k| *k == m.entity_key));
        Ok(metas)
    }

    async fn relationships_of(
        &self,
        user_id: &str,
        node_keys: &[String],
        limit: usize,
    ) -> GraphResult<Vec<Relationship>> {
        let rows = sqlx::query(
            "SELECT * FROM relationships WHERE user_id = $1
               AND (from_key IN (SELECT value FROM json_each($2))
                    OR to_key IN (SELECT value FROM json_each($2)))
             ORDER BY strength DESC, rel_key LIMIT $3",
        )
        .bind(user_id)
        .bind(json(node_keys)?)
        .bind(limit as i64)
        .fetch_all(&self.pool)
        .await?;
        self.relationships_with_notes(rows).await
    }

    async fn node_sources(&self, entity_key: &str, limit: usize) -> GraphResult<Vec<SourceMeta>> {
        let rows = sqlx::query(source_meta!(
            "JOIN mentions m ON m.source_key = s.entity_key
             WHERE m.entity_key = $1 ORDER BY event_at DESC, s.entity_key LIMIT $2"
        ))
        .bind(entity_key)
        .bind(limit as i64)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(meta_from_row)
            .collect::<sqlx::Result<_>>()?)
    }

    async fn storylines_about(&self, anchor_key: &str) -> GraphResult<Vec<Storyline>> {
        let rows = sqlx::query(
            "SELECT * FROM storylines WHERE anchor_key = $1
             ORDER BY coalesce(last_source_at, created_at) DESC, storyline_id",
        )
        .bind(anchor_key)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(storyline_from_row)
            .collect::<sqlx::Result<_>>()?)
    }

    async fn memory_stats(&self, user_id: &str) -> GraphResult<MemoryStats> {
        self.memory_stats_impl(user_id).await
    }

    async fn memory(&self, kind: MemoryKind, key: &str) -> GraphResult<Option<MemoryLifecycle>> {
        self.memory_impl(kind, key).await
    }

    async fn update_lifecycles(
        &self,
        kind: MemoryKind,
        keys: &[String],
        update: &LifecycleUpdate<'_>,
    ) -> GraphResult<Vec<LifecycleChange>> {
        self.update_lifecycles_impl(kind, keys, update).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fts_queries_quote_every_term() {
        let terms = vec![
            "budget".to_owned(),
            "say \"hi\"".to_owned(),
            "  ".to_owned(),
            "NEAR(a b)".to_owned(),
        ];
        assert_eq!(
            fts_query(&terms).unwrap(),
            r#""budget" OR "say ""hi""" OR "NEAR(a b)""#
        );
        assert_eq!(fts_query(&[]), None);
    }

    #[test]
    fn cosine_of_stored_vectors() {
        let bytes: Vec<u8> = [1.0f32, 0.0].iter().flat_map(|x| x.to_le_bytes()).collect();
        assert!((cosine_bytes(&bytes, &[1.0, 0.0], 1.0).unwrap() - 1.0).abs() < 1e-9);
        assert!(cosine_bytes(&bytes, &[0.0, 1.0], 1.0).unwrap().abs() < 1e-9);
        assert_eq!(cosine_bytes(&bytes, &[1.0, 0.0, 0.0], 1.0), None);
        assert_eq!(cosine_bytes(&bytes, &[0.0, 0.0], 0.0), None);
    }

    #[test]
    fn the_heap_keeps_the_best() {
        let mut heap = BinaryHeap::new();
        for (s, k) in [(0.1, "a"), (0.9, "b"), (0.5, "c")] {
            heap.push(Scored(s, k.into(), None));
        }
        assert_eq!(heap.peek().unwrap().1, "a");
        let sorted: Vec<String> = heap.into_sorted_vec().into_iter().map(|s| s.1).collect();
        assert_eq!(sorted, ["b", "c", "a"]);
    }
}
