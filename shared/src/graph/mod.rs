//! The graph store: where Sources and each user's semantic graph live.
//!
//! What a store does is in [`ports`], one trait per concern (Sources, extraction,
//! search, decay, erasure, …); [`GraphStore`] is all of them at once. Each adapter —
//! the embedded SQLite store ([`sqlite`]) and the production Neo4j one ([`neo4j`]) —
//! implements every port in the file of the same name (`ports/sources.rs`,
//! `sqlite/sources.rs`, `neo4j/sources.rs`). Every method is one operation of the
//! pipeline (one Cypher file per operation on Neo4j), takes its time from the caller
//! (the injectable clock) and is idempotent where the pipeline may repeat it. Multi-step
//! writes (Phase 2) are single methods so each backend can apply them in one
//! transaction. The contract suite in `tests/suite/graph_contract/` holds every backend
//! to the same behaviour.

pub mod neo4j;
pub mod ports;
pub mod snapshot;
pub mod sqlite;
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

impl From<sqlx::Error> for GraphError {
    fn from(e: sqlx::Error) -> Self {
        Self::Backend(e.into())
    }
}

pub type GraphResult<T> = Result<T, GraphError>;
