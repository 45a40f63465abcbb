//! The three signals of hybrid retrieval on Neo4j (`cypher/search/`), one statement per
//! signal and [`Target`] (the label is fixed in the file):
//!
//! * vector: exact cosine over the caller's own candidates, found through indexed
//!   properties (`user_id`, or the `readable_by` links of the Sources a user may read),
//!   as the SQLite store scores them. Scores are the plain cosine in double precision,
//!   computed as SQLite computes it.
//! * text: the words each memory carries per searched column (`neo4j::words`), read for
//!   every memory of the user and ranked in Rust by `text_rank::rank`: the SQLite
//!   store's BM25 over the user's own memories, the same order on both stores.
//! * neighbours: graph links from the seed nodes, scored as the trait says.
//!
//! Sources of a user with many (over `graph.neo4j.exact_search_max`) are first searched
//! through a top-k of the shared vector and full-text indexes (Lucene's relevance,
//! queried with each plain word escaped and quoted, [`lucene_query`]), kept only when
//! provably complete (`over_fetch`); the statements above answer otherwise.

use async_trait::async_trait;
use cosmo_core::domain::{Hit, Neighbour, SearchScope, Target};
use cosmo_core::graph::{GraphError, GraphResult, SearchStore, text_rank};
use neo4rs::{BoltType, Row};

use super::Neo4jGraph;
use super::bolt::{
    Props, bool_column, column, embedding, int, int_column, list, opt, strings_column,
};
use super::cypher::{Bind, Statement, search as sx};
use super::distinct;
use super::hierarchy::required;
use super::lucene::lucene_query;

/// How many candidates the single-precision pre-ranking keeps beyond `limit` before the
/// exact scores decide (near-ties at the cut may order differently in single precision).
const CANDIDATE_MARGIN: usize = 16;

fn vector_statement(target: Target) -> &'static Statement {
    match target {
        Target::Source => &sx::VECTOR_SOURCE,
        Target::Node => &sx::VECTOR_NODE,
        Target::Storyline => &sx::VECTOR_STORYLINE,
        Target::Macro => &sx::VECTOR_MACRO,
        Target::Fact => &sx::VECTOR_FACT,
    }
}

fn text_statement(target: Target) -> &'static Statement {
    match target {
        Target::Source => &sx::TEXT_SOURCE,
        Target::Node => &sx::TEXT_NODE,
        Target::Storyline => &sx::TEXT_STORYLINE,
        Target::Macro => &sx::TEXT_MACRO,
        Target::Fact => &sx::TEXT_FACT,
    }
}

fn neighbours_statement(target: Target) -> &'static Statement {
    match target {
        Target::Source => &sx::NEIGHBOURS_SOURCE,
        Target::Node => &sx::NEIGHBOURS_NODE,
        Target::Storyline => &sx::NEIGHBOURS_STORYLINE,
        Target::Macro => &sx::NEIGHBOURS_MACRO,
        Target::Fact => &sx::NEIGHBOURS_FACT,
    }
}

/// Binds the scope every search statement takes.
fn scoped(b: Bind, scope: &SearchScope) -> Bind {
    b.p("user_id", scope.user_id.as_str())
        .p("include_archived", scope.include_archived)
        .p("since", opt(scope.since))
        .p("until", opt(scope.until))
}

pub(super) fn float_column(row: &Row, name: &str) -> GraphResult<f64> {
    match column(row, name)? {
        BoltType::Float(f) => Ok(f.value),
        BoltType::Integer(i) => Ok(i.value as f64),
        other => Err(GraphError::Backend(anyhow::anyhow!(
            "reading `{name}` from Neo4j: expected a number, got {other:?}"
        ))),
    }
}

fn hit(row: &Row) -> GraphResult<Hit> {
    Ok(Hit {
        key: required(row, "key")?,
        score: float_column(row, "score")?,
        passage: None,
    })
}

/// A vector hit over Sources: `ordinal` names the best passage, -1 the summary.
fn source_hit(row: &Row) -> GraphResult<Hit> {
    let ordinal = int_column(row, "ordinal")?;
    Ok(Hit {
        passage: u32::try_from(ordinal).ok(),
        ..hit(row)?
    })
}

/// A memory a text statement found: its key, length, scope and, per query word, how
/// often each searched column holds it.
fn text_candidate(row: &Row, words: usize) -> GraphResult<text_rank::Candidate> {
    let counts = match column(row, "counts")? {
        BoltType::List(per_word) => per_word
            .value
            .iter()
            .map(|columns| match columns {
                BoltType::List(c) if c.value.len() == 3 => {
                    let mut out = [0i64; 3];
                    for (o, v) in out.iter_mut().zip(&c.value) {
                        *o = match v {
                            BoltType::Integer(i) => i.value,
                            other => return Err(counts_error(other)),
                        };
                    }
                    Ok(out)
                }
                other => Err(counts_error(other)),
            })
            .collect::<GraphResult<Vec<[i64; 3]>>>()?,
        other => return Err(counts_error(&other)),
    };
    if counts.len() != words {
        return Err(counts_error(&BoltType::from(counts.len() as i64)));
    }
    Ok(text_rank::Candidate {
        key: required(row, "key")?,
        len: u32::try_from(int_column(row, "len")?.max(0)).unwrap_or(u32::MAX),
        admitted: bool_column(row, "admitted")?,
        counts,
    })
}

fn counts_error(got: &BoltType) -> GraphError {
    GraphError::Backend(anyhow::anyhow!(
        "reading `counts` of a text search from Neo4j: expected a list of [int, int, int] per word, got {got:?}"
    ))
}

impl Neo4jGraph {
    /// Full-text search of Sources ranked by Lucene alone: every match of the shared
    /// index, filtered to the scope, best first. What a user with more Sources than
    /// `graph.neo4j.exact_search_max` is ranked by, whether the over-fetched top-k
    /// proved its answer or this answers instead; public so that a test can hold the
    /// over-fetched answer to it.
    pub async fn lucene_source_search(
        &self,
        scope: &SearchScope,
        terms: &[String],
        limit: usize,
    ) -> GraphResult<Vec<Hit>> {
        let Some(lucene) = lucene_query(Target::Source, terms) else {
            return Ok(Vec::new());
        };
        let q = scoped(sx::TEXT_SOURCE_LUCENE.bind(), scope)
            .p("query", lucene)
            .p("limit", int(limit));
        self.rows(q.query()?).await?.iter().map(hit).collect()
    }
}

#[async_trait]
impl SearchStore for Neo4jGraph {
    async fn vector_search(
        &self,
        scope: &SearchScope,
        target: Target,
        query: &[f32],
        limit: usize,
    ) -> GraphResult<Vec<Hit>> {
        let norm = query
            .iter()
            .map(|x| f64::from(*x) * f64::from(*x))
            .sum::<f64>()
            .sqrt();
        // A zero (or non-finite) query vector has no cosine with anything.
        if limit == 0 || norm == 0.0 || !norm.is_finite() {
            return Ok(Vec::new());
        }
        let candidates = limit.saturating_add(CANDIDATE_MARGIN);
        // The shared indexes hold only vectors of the configured length.
        if target == Target::Source && query.len() == self.dimensions {
            let statement = |fetch: usize| {
                scoped(sx::VECTOR_SOURCE_FETCHED.bind(), scope)
                    .p("embedding", embedding(Some(query)))
                    .p("norm", norm)
                    .p("fetch", int(fetch))
                    .p("candidates", int(candidates))
                    .query()
            };
            let read = |p: &Props| -> GraphResult<(Hit, f64)> {
                let hit = Hit {
                    key: p.string("key")?,
                    score: p.float("score")?,
                    passage: u32::try_from(p.int("ordinal")?).ok(),
                };
                Ok((hit, p.float("approx")?))
            };
            if let Some(mut hits) = self
                .over_fetched(&scope.user_id, candidates, statement, read)
                .await?
            {
                hits.truncate(limit);
                return Ok(hits);
            }
        }
        let q = scoped(vector_statement(target).bind(), scope)
            .p("embedding", embedding(Some(query)))
            .p("norm", norm)
            .p("candidates", int(candidates))
            .p("limit", int(limit));
        let decode = if target == Target::Source {
            source_hit
        } else {
            hit
        };
        self.rows(q.query()?).await?.iter().map(decode).collect()
    }

    async fn text_search(
        &self,
        scope: &SearchScope,
        target: Target,
        terms: &[String],
        limit: usize,
    ) -> GraphResult<Vec<Hit>> {
        let query = text_rank::query_words(terms);
        let words = text_rank::distinct_words(&query);
        if limit == 0 || words.is_empty() {
            return Ok(Vec::new());
        }
        // A user with very many Sources: a top-k of the shared Lucene index, ranked by
        // Lucene (as the SQLite store falls back to FTS5 for a user over its budget).
        if let (Target::Source, Some(lucene)) = (target, lucene_query(target, terms)) {
            let statement = |fetch: usize| {
                scoped(sx::TEXT_SOURCE_FETCHED.bind(), scope)
                    .p("query", lucene.as_str())
                    .p("fetch", int(fetch))
                    .p("limit", int(limit))
                    .query()
            };
            let read = |p: &Props| -> GraphResult<(Hit, f64)> {
                let score = p.float("score")?;
                let hit = Hit {
                    key: p.string("key")?,
                    score,
                    passage: None,
                };
                Ok((hit, score))
            };
            if let Some(hits) = self
                .over_fetched(&scope.user_id, limit, statement, read)
                .await?
            {
                return Ok(hits);
            }
            if self.over_fetch_user(&scope.user_id, limit) {
                // Unproven: every Lucene match, filtered to the scope (one ranking for
                // such a user, whichever path answers).
                return self.lucene_source_search(scope, terms, limit).await;
            }
        }
        let q = scoped(text_statement(target).bind(), scope)
            .p("words", list(words.iter().map(String::as_str)));
        let rows = self.rows(q.query()?).await?;
        let Some(first) = rows.first() else {
            return Ok(Vec::new());
        };
        let n = int_column(first, "n")?.max(0) as usize;
        let total = int_column(first, "total")?.max(0) as u64;
        let candidates = rows
            .iter()
            .map(|row| text_candidate(row, words.len()))
            .collect::<GraphResult<Vec<_>>>()?;
        Ok(
            text_rank::rank(target, n, total, &candidates, &query, limit)
                .into_iter()
                .map(|(key, score)| Hit {
                    key,
                    score,
                    passage: None,
                })
                .collect(),
        )
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
        let q = scoped(neighbours_statement(target).bind(), scope)
            .p("seeds", list(distinct(seeds)))
            .p("limit", int(limit));
        self.rows(q.query()?)
            .await?
            .iter()
            .map(|r| {
                let mut via = strings_column(r, "via")?;
                via.sort_unstable();
                via.dedup();
                Ok(Neighbour {
                    key: required(r, "key")?,
                    score: float_column(r, "score")?,
                    via,
                })
            })
            .collect()
    }
}
