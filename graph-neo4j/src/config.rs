//! `[graph.neo4j]`: how to reach the server, and when a user's search stops being exact.

use serde::{Deserialize, Serialize};

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
    /// For a database that several installations (or test runs) share, each with users
    /// of its own: the ending of every user id of this installation (e.g. `@staging`).
    /// The work that scans the whole database rather than one user's memories — the
    /// reconciler's stuck and stale Sources, stuck extractions, the nightly and weekly
    /// jobs' candidates — then keeps this installation's users only, so it never runs
    /// another installation's Sources. Empty (the default): the database is this
    /// installation's alone.
    pub key_space: String,
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
            key_space: String::new(),
        }
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
            .field("key_space", &self.key_space)
            .finish()
    }
}
