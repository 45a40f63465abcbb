//! `[graph]`: which graph store, and how to reach it.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GraphBackend {
    /// The embedded store: one SQLite file.
    Sqlite,
    /// Neo4j 5 over Bolt (production).
    Neo4j,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GraphConfig {
    pub backend: GraphBackend,
    /// The SQLite graph file. Unset: the `database.url` file when that is SQLite (one
    /// file for everything), else `cosmo-data/graph.db`.
    pub sqlite_path: Option<PathBuf>,
    /// SQLite: how much memory (MiB) each process may give to the vectors of the users it
    /// searches for (8 bits a dimension: 512 MiB hold about 1.3 million 384-d vectors of
    /// memories and passages). A user whose vectors do not fit is searched by reading the
    /// stored vectors; 0 always does that.
    pub sqlite_vector_cache_mib: usize,
    /// SQLite: how much memory (MiB) each process may give to the full-text index of the
    /// users it searches for (about 100 MiB for 10⁵ chats of 30 turns). A user whose text
    /// does not fit is searched through SQLite's FTS5 (slower at scale, ranked by every
    /// user's word statistics); 0 always does that.
    pub sqlite_text_cache_mib: usize,
    pub neo4j: Neo4jConfig,
}

/// `[graph.neo4j]`: used when `graph.backend = "neo4j"`.
#[derive(Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Neo4jConfig {
    /// `neo4j://host:7687`, `bolt://…`, `neo4j+s://…` (Aura).
    pub uri: String,
    pub user: String,
    /// Secret: never logged.
    pub password: String,
    /// The database on the server (`neo4j` on Community Edition).
    pub database: String,
    pub max_connections: usize,
    /// Connections older than this are replaced, so an exhausted pool errors instead of
    /// waiting forever on a dead connection.
    pub max_lifetime_secs: u64,
    pub connection_timeout_secs: u64,
    /// Rows fetched per round trip.
    pub fetch_size: usize,
    /// A user with at most this many Sources is searched exactly (every vector of theirs
    /// scored, every full-text match filtered to them). Above it, Source search asks the
    /// shared vector and full-text indexes for a top-k large enough to hold the user's
    /// best and keeps the result only when it provably does (else it searches exactly).
    pub exact_search_max: usize,
}

impl Default for GraphConfig {
    fn default() -> Self {
        Self {
            backend: GraphBackend::Sqlite,
            sqlite_path: None,
            sqlite_vector_cache_mib: 512,
            sqlite_text_cache_mib: 512,
            neo4j: Neo4jConfig::default(),
        }
    }
}

impl Default for Neo4jConfig {
    fn default() -> Self {
        Self {
            uri: "neo4j://127.0.0.1:7687".into(),
            user: "neo4j".into(),
            password: String::new(),
            database: "neo4j".into(),
            max_connections: 16,
            max_lifetime_secs: 300,
            connection_timeout_secs: 10,
            fetch_size: 500,
            exact_search_max: 20_000,
        }
    }
}

impl GraphConfig {
    pub fn validate(&self) -> anyhow::Result<()> {
        if self.backend == GraphBackend::Neo4j {
            let n = &self.neo4j;
            anyhow::ensure!(
                !n.uri.is_empty(),
                "graph.neo4j.uri is required with graph.backend = neo4j"
            );
            anyhow::ensure!(
                n.max_connections >= 1,
                "graph.neo4j.max_connections must be at least 1"
            );
            anyhow::ensure!(
                n.max_lifetime_secs >= 1,
                "graph.neo4j.max_lifetime_secs must be at least 1"
            );
        }
        Ok(())
    }
}

impl std::fmt::Debug for Neo4jConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Neo4jConfig")
            .field("uri", &self.uri)
            .field("user", &self.user)
            .field("password", &"***")
            .field("database", &self.database)
            .field("max_connections", &self.max_connections)
            .field("max_lifetime_secs", &self.max_lifetime_secs)
            .field("connection_timeout_secs", &self.connection_timeout_secs)
            .field("fetch_size", &self.fetch_size)
            .field("exact_search_max", &self.exact_search_max)
            .finish()
    }
}
