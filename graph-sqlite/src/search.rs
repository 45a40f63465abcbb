//! [`SearchStore`] on SQLite: vector search over `search_docs` (a shortlist from the
//! user's vectors held in memory, `search/vectors/`, scored exactly from the stored
//! rows; or, for a user whose vectors do not fit the memory budget, every stored vector
//! streamed and scored here, top-k kept in a bounded heap), full-text search (BM25 over
//! the user's text held in memory, `search/texts/`; FTS5 for a user whose text does
//! not fit the memory budget), and graph neighbours in SQL. Table and column
//! names come from the closed [`Target`] enum through `per_target!`: SQL text is never
//! built from input.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use async_trait::async_trait;
use futures::TryStreamExt;
use sqlx::Row;

use super::{SqliteGraph, json, micros};

#[macro_use]
mod sql;
mod cache;
mod texts;
mod vectors;

pub(crate) use texts::TextIndex;
pub(crate) use vectors::VectorIndex;

use cosmo_core::domain::{Hit, Neighbour, SearchScope, Target};
use cosmo_core::graph::{GraphResult, SearchStore};
use sql::{
    FACT_NEIGHBOURS, MACRO_NEIGHBOURS, NODE_NEIGHBOURS, SOURCE_NEIGHBOURS, STORYLINE_NEIGHBOURS,
};

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

#[async_trait]
impl SearchStore for SqliteGraph {
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

    /// A user's Sources are read from their participations, each then looked up by key:
    /// led by `search_docs`, SQLite walks every user's Sources (in a file of 10⁶ Sources
    /// over 100 users, minutes for a user's first question).
    #[tokio::test]
    async fn a_users_sources_are_read_from_their_participations() {
        for sql in [
            vector_sql!(source),
            vector_sql!(source, KEYS),
            vectors::docs_sql(Target::Source, false),
            vectors::docs_sql(Target::Source, true),
            texts::rows_sql(Target::Source, false),
            texts::rows_sql(Target::Source, true),
        ] {
            let params = (1..=6).filter(|n| sql.contains(&format!("${n}"))).count();
            let plan = crate::query_plan(sql, &vec!["[]"; params]).await;
            let steps: Vec<&String> = plan
                .iter()
                .filter(|d| d.starts_with("SEARCH") || d.starts_with("SCAN"))
                .collect();
            assert!(
                steps[0].starts_with("SEARCH p USING COVERING INDEX"),
                "{sql}\n{plan:#?}"
            );
            assert!(
                plan.iter()
                    .any(|d| d.ends_with("search_docs_1 (target=? AND key=?)")),
                "{sql}\n{plan:#?}"
            );
        }
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
