//! Phase 2's write: one extraction applied to the user's graph in one transaction.

use async_trait::async_trait;

use crate::domain::{ExtractionOutcome, ExtractionWrite};
use crate::graph::GraphResult;

#[async_trait]
pub trait ExtractionStore: Send + Sync {
    /// Applies one extraction in one transaction: MERGE nodes, `mentions`, hierarchy
    /// counters once per (Source, node), notes, relationships, Storyline attachment, and
    /// the completed extraction record. A node mentioned by a second Source is confirmed
    /// (`candidate → active`, event `re_mentioned`). When the (Source, user) extraction is
    /// already complete nothing is written.
    async fn write_extraction(&self, write: &ExtractionWrite) -> GraphResult<ExtractionOutcome>;
}
