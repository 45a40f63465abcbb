//! `[graph]`: which graph store, and how to reach it.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

#[cfg(feature = "neo4j")]
pub use cosmo_graph_neo4j::Neo4jConfig;

/// `[graph.neo4j]` in a build without the Neo4j store (the `neo4j` cargo feature): read
/// and kept as written, so a file written for a build with it still loads; only
/// `backend = "neo4j"` is refused.
#[cfg(not(feature = "neo4j"))]
#[derive(Clone, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Neo4jConfig(serde_json::Value);

#[cfg(not(feature = "neo4j"))]
impl std::fmt::Debug for Neo4jConfig {
    // It may hold a password.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Neo4jConfig(not built in)")
    }
}

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

impl GraphConfig {
    pub fn validate(&self) -> anyhow::Result<()> {
        #[cfg(not(feature = "neo4j"))]
        anyhow::ensure!(
            self.backend != GraphBackend::Neo4j,
            "graph.backend = \"neo4j\" needs Cosmo built with the `neo4j` feature \
             (cargo build --release --features neo4j); this build has the embedded SQLite \
             store only"
        );
        #[cfg(feature = "neo4j")]
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
