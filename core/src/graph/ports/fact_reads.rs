//! Facts read back: one, a user's, explained, the weak ones.

use async_trait::async_trait;

use crate::domain::{Fact, FactExplanation, FactFilter, Weakness};
use crate::graph::GraphResult;

#[async_trait]
pub trait FactReadStore: Send + Sync {
    async fn fact(&self, fact_id: &str) -> GraphResult<Option<Fact>>;

    /// A user's facts, newest first.
    async fn facts_for_user(
        &self,
        user_id: &str,
        filter: FactFilter,
        limit: usize,
    ) -> GraphResult<Vec<Fact>>;

    /// The fact, the chain it replaced, what replaced it, its Sources and entities.
    async fn explain_fact(&self, fact_id: &str) -> GraphResult<Option<FactExplanation>>;

    /// Live, unconfirmed facts under either bar, weakest (lowest salience) first.
    async fn weak_facts(
        &self,
        user_id: &str,
        weakness: Weakness,
        limit: usize,
    ) -> GraphResult<Vec<Fact>>;
}
