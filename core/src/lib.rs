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

pub mod clock;
pub mod domain;
pub mod graph;
pub mod ids;
pub mod jobs;
pub mod lifecycle;
