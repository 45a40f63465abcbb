//! # cosmo-core
//!
//! What every other Cosmo crate speaks: no storage, no network, no models.
//!
//! * [`domain`] — the vocabulary: Sources, semantic nodes, notes, extraction writes, and
//!   the checked input values the API turns request bodies into.
//! * [`graph`] — what a graph store does: [`graph::ports`], one trait per concern, and
//!   [`graph::GraphStore`], all of them at once. The adapters (`cosmo-graph-sqlite`,
//!   `cosmo-graph-neo4j`) implement them; the contract suite holds both to the same
//!   behaviour.
//! * [`jobs`] — job kinds, their policies and payloads, and a job to enqueue.
//! * [`lifecycle`] — how memories decay, are reinforced and fade (pure functions of time).
//! * [`clock`], [`ids`] — time (injectable) and identifiers.
//! * [`query_file!`] — a SQL statement kept in its crate's `queries/` folder.

pub mod clock;
pub mod domain;
pub mod graph;
pub mod ids;
pub mod jobs;
pub mod lifecycle;

/// The text of a SQL statement kept, one statement per file, in the `queries/` folder of
/// the crate that runs it (`queries/<module>/<verb>.sql`), loaded at compile time:
/// `sqlx::query(query_file!("links/join.sql"))`. Values are bound as parameters, never
/// written into the text. The test suite checks that every file is loaded exactly once.
#[macro_export]
macro_rules! query_file {
    ($file:literal) => {
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/queries/", $file))
    };
}
