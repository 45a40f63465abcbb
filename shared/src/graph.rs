//! The graph store, as the rest of this crate names it: the ports (in `cosmo-core`) and
//! the two adapters, each its own crate — the embedded SQLite store
//! (`cosmo-graph-sqlite`) and the production Neo4j one (`cosmo-graph-neo4j`).

pub use cosmo_core::graph::*;
#[cfg(feature = "neo4j")]
pub use cosmo_graph_neo4j as neo4j;
pub use cosmo_graph_sqlite as sqlite;
