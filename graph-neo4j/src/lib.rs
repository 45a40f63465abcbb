//! The production graph store: Neo4j 5 over Bolt, written for Neo4j 5.26 (Community or
//! Enterprise; no plugins). Every port of `cosmo_core::graph::ports` is implemented in
//! the file of its name (`ports/sources.rs` → `sources.rs`), as in `cosmo-graph-sqlite`.
//!
//! Every statement is a file under `cypher/` (see `cypher/README.md` for the stored
//! model), loaded by [`cypher`]. Values only ever travel as parameters; the labels of
//! the three semantic kinds are chosen by picking one of three statements. Writes that
//! belong together run in one explicit transaction, rolled back on any error, and are
//! retried as a whole when Neo4j reports a transient failure (e.g. a deadlock).

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use neo4rs::{ConfigBuilder, Graph, Neo4jErrorKind, Query, Row, Txn};

use cypher::Bind;

pub use config::Neo4jConfig;

mod bolt;
mod config;
mod consolidation;
pub mod cypher;
mod decay;
mod decode;
mod deletions;
mod episodic;
mod erase_user;
mod erasure;
mod extraction;
mod extraction_records;
mod fact_reads;
pub(crate) mod facts;
mod hierarchy;
mod lifecycle;
mod links;
mod lucene;
mod note_search;
pub(crate) mod over_fetch;
mod porter;
mod rows;
mod schema;
mod search;
mod semantic;
mod sources;
mod stats;
mod storylines;
#[cfg(test)]
mod tests;
mod views;
pub(crate) mod words;

use cosmo_core::graph::{GraphError, GraphResult, StoreAdmin};
use over_fetch::OverFetch;
pub use over_fetch::SearchPaths;

/// Distinct keys, sorted (`UNWIND` rows never repeat a key; locks taken in key order
/// cannot deadlock each other).
pub(crate) fn distinct(keys: &[String]) -> Vec<&str> {
    let mut out: Vec<&str> = keys.iter().map(String::as_str).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Distinct keys in the given order, each where it first comes.
pub(crate) fn first_occurrences(keys: &[String]) -> Vec<&str> {
    let mut seen = std::collections::HashSet::new();
    keys.iter()
        .map(String::as_str)
        .filter(|k| seen.insert(*k))
        .collect()
}

/// How many rows a global scan reads when the store is confined to a key space: every
/// row a test server holds.
const KEY_SPACE_SCAN: usize = 100_000;

/// The rows whose user id ends with `suffix`, in order, at most `limit`; all of them
/// without a suffix.
fn in_key_space<T>(
    suffix: Option<&str>,
    rows: Vec<T>,
    user: impl Fn(&T) -> &str,
    limit: usize,
) -> Vec<T> {
    match suffix {
        Some(suffix) => rows
            .into_iter()
            .filter(|r| user(r).ends_with(suffix))
            .take(limit)
            .collect(),
        None => rows,
    }
}

/// How many times a transactional write is attempted when Neo4j says "try again".
const ATTEMPTS: usize = 3;

/// The Neo4j graph store.
#[derive(Clone)]
pub struct Neo4jGraph {
    graph: Graph,
    /// The vector indexes' dimension (`models.embedding_dimensions`).
    dimensions: usize,
    /// How Source search of users with many Sources uses the shared indexes.
    over_fetch: Arc<OverFetch>,
    /// Set when this store sees only the users whose id ends with this suffix
    /// ([`Self::in_key_space`]); `None` in a deployment.
    key_space: Option<Arc<str>>,
}

impl std::fmt::Debug for Neo4jGraph {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Neo4jGraph")
            .field("dimensions", &self.dimensions)
            .finish_non_exhaustive()
    }
}

impl Neo4jGraph {
    /// Opens a connection pool to the configured server and checks it answers.
    pub async fn connect(
        config: &Neo4jConfig,
        embedding_dimensions: usize,
    ) -> anyhow::Result<Self> {
        schema::check_dimensions(embedding_dimensions)?;
        let mut builder = ConfigBuilder::default()
            .uri(config.uri.as_str())
            .user(config.user.as_str())
            .password(config.password.as_str())
            .max_connections(config.max_connections.max(1))
            .fetch_size(config.fetch_size.max(1))
            .connection_timeout(Duration::from_secs(config.connection_timeout_secs.max(1)))
            // neo4rs bounds the wait for a pooled connection with this: without it an
            // exhausted pool waits forever.
            .max_lifetime(Duration::from_secs(config.max_lifetime_secs.max(1)));
        if !config.database.is_empty() {
            builder = builder.db(config.database.as_str());
        }
        let graph = Graph::connect(builder.build().context("Neo4j configuration")?)
            .with_context(|| format!("connecting to Neo4j at {}", config.uri))?;
        let store = Self {
            graph,
            dimensions: embedding_dimensions,
            over_fetch: Arc::new(OverFetch::new(config.exact_search_max, false)),
            key_space: (!config.key_space.is_empty()).then(|| Arc::from(config.key_space.as_str())),
        };
        store
            .ping()
            .await
            .with_context(|| format!("Neo4j at {} does not answer", config.uri))?;
        Ok(store)
    }

    /// The same store, returning the errors of over-fetched Source search instead of
    /// searching exactly after them (tests: a broken statement must fail, not hide).
    pub fn with_strict_over_fetch(mut self) -> Self {
        self.over_fetch = Arc::new(OverFetch::new(self.over_fetch.exact_max(), true));
        self
    }

    /// The same store confined to one key space: the users whose id ends with `suffix`.
    /// Every operation but the global scans names its user or key already; the global
    /// scans (stuck and stale Sources, stuck extractions, promotion candidates, dirty
    /// memories, faded Sources and clusters, causal candidates) keep only the key
    /// space's rows, and the walks in key order (lifecycle pages, decay's pages) read on
    /// until they hold a page of the key space's memories. For tests that share one server, each with users of its own suffix:
    /// each sees what it would on a server of its own.
    pub fn in_key_space(mut self, suffix: impl Into<String>) -> Self {
        self.key_space = Some(Arc::from(suffix.into()));
        self
    }

    /// Whether `user_id` is one of this store's users: every user outside a key space.
    fn in_space(&self, user_id: &str) -> bool {
        self.key_space
            .as_deref()
            .is_none_or(|suffix| user_id.ends_with(suffix))
    }

    /// A global scan — a statement over every user's memories, not one user's or one
    /// key's — bound with the number of rows to return (`$limit`), its rows decoded.
    /// In a key space it asks for every row ([`KEY_SPACE_SCAN`]) and keeps `limit` of
    /// the key space's, in the server's order.
    async fn scan<T>(
        &self,
        statement: Bind,
        limit: usize,
        decode: impl Fn(&Row) -> GraphResult<T>,
        user: impl Fn(&T) -> &str,
    ) -> GraphResult<Vec<T>> {
        let fetch = match self.key_space {
            Some(_) => KEY_SPACE_SCAN.max(limit),
            None => limit,
        };
        let q = statement.p("limit", bolt::int(fetch)).query()?;
        let rows = self.rows(q).await?;
        let all = rows.iter().map(decode).collect::<GraphResult<Vec<_>>>()?;
        Ok(in_key_space(self.key_space.as_deref(), all, user, limit))
    }

    /// How this store's Source searches went so far (exact, over-fetched, fell back).
    pub fn search_paths(&self) -> SearchPaths {
        self.over_fetch.paths()
    }

    /// Runs one auto-commit statement and reads all its rows (the stream, and with it
    /// the pooled connection, is released before this returns).
    async fn rows(&self, q: Query) -> GraphResult<Vec<Row>> {
        let mut stream = self.graph.execute(q).await?;
        let mut rows = Vec::new();
        while let Some(row) = stream.next().await? {
            rows.push(row);
        }
        Ok(rows)
    }

    /// Runs one auto-commit statement that returns nothing.
    async fn run(&self, q: Query) -> GraphResult<()> {
        self.graph.run(q).await?;
        Ok(())
    }

    async fn begin(&self) -> GraphResult<Txn> {
        Ok(self.graph.start_txn().await?)
    }

    /// Runs `attempt` (one whole transaction) again while it fails transiently.
    async fn retrying<T, F, Fut>(&self, attempt: F) -> GraphResult<T>
    where
        F: Fn() -> Fut,
        Fut: Future<Output = GraphResult<T>>,
    {
        let mut tries = 0;
        loop {
            tries += 1;
            match attempt().await {
                Err(e) if tries < ATTEMPTS && is_transient(&e) => {
                    tracing::debug!(error = %e, "retrying a Neo4j transaction");
                    tokio::time::sleep(Duration::from_millis(50 * tries as u64)).await;
                }
                other => return other,
            }
        }
    }
}

/// Reads all rows of a statement run inside `txn`.
async fn txn_rows(txn: &mut Txn, q: Query) -> GraphResult<Vec<Row>> {
    let mut stream = txn.execute(q).await?;
    let mut rows = Vec::new();
    while let Some(row) = stream.next(&mut *txn).await? {
        rows.push(row);
    }
    Ok(rows)
}

/// Commits `txn` if `result` is a success, else rolls it back; returns `result`.
async fn finish<T>(txn: Txn, result: GraphResult<T>) -> GraphResult<T> {
    match result {
        Ok(value) => {
            txn.commit().await?;
            Ok(value)
        }
        Err(e) => {
            // After a failed statement the server has already rolled back; the pool
            // resets the connection either way.
            if let Err(rollback) = txn.rollback().await {
                tracing::debug!(error = %rollback, "rolling back a failed Neo4j transaction");
            }
            Err(e)
        }
    }
}

fn is_transient(e: &GraphError) -> bool {
    match e {
        GraphError::Backend(e) => matches!(
            e.downcast_ref::<neo4rs::Error>(),
            Some(neo4rs::Error::Neo4j(n)) if matches!(n.kind(), Neo4jErrorKind::Transient)
        ),
        _ => false,
    }
}
