//! The graph store: where Sources and each user's semantic graph live.
//!
//! What a store does is in [`ports`], one trait per concern (Sources, extraction,
//! search, decay, erasure, …); [`GraphStore`] is all of them at once. Each adapter —
//! the embedded SQLite store (crate `cosmo-graph-sqlite`) and the production Neo4j one
//! (`cosmo-graph-neo4j`) — implements every port in the file of the same name
//! (`ports/sources.rs`, `graph-sqlite/src/sources.rs`, `graph-neo4j/src/sources.rs`).
//! Every method is one operation of the pipeline (one Cypher file per operation on
//! Neo4j), takes its time from the caller (the injectable clock) and is idempotent where
//! the pipeline may repeat it. Multi-step writes (Phase 2) are single methods so each
//! backend can apply them in one transaction. The contract suite in
//! `tests/suite/graph_contract/` holds every backend to the same behaviour.

pub mod ports;
pub mod snapshot;
pub mod text_rank;

pub use ports::*;
pub use snapshot::GraphSnapshot;

#[derive(Debug, thiserror::Error)]
pub enum GraphError {
    /// The write would break an identity rule (e.g. two Persons with one name).
    #[error("{0}")]
    Conflict(String),
    #[error("{0} not found")]
    NotFound(String),
    #[error(transparent)]
    Backend(#[from] anyhow::Error),
}

/// SQLite's failures are backend errors (a job retries them).
#[cfg(feature = "sqlx")]
impl From<sqlx::Error> for GraphError {
    fn from(e: sqlx::Error) -> Self {
        Self::Backend(e.into())
    }
}

/// Neo4j's failures are backend errors, as SQLite's are (a job retries them); a
/// uniqueness violation can only come from a concurrent write and passes on retry.
#[cfg(feature = "neo4rs")]
impl From<neo4rs::Error> for GraphError {
    fn from(e: neo4rs::Error) -> Self {
        Self::Backend(e.into())
    }
}

pub type GraphResult<T> = Result<T, GraphError>;
