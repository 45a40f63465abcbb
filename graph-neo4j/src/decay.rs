//! Decay on Neo4j: the port's default, [`decay_page_by_parts`] — a page read, then each
//! memory decided again under its lock by the atomic lifecycle update
//! (`lifecycle.rs`).
//!
//! [`decay_page_by_parts`]: cosmo_core::graph::decay_page_by_parts

use cosmo_core::graph::DecayStore;

use super::Neo4jGraph;

impl DecayStore for Neo4jGraph {}
