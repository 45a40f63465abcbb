//! Facts a user stated: stored, corrected, confirmed.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::domain::{Fact, FactWrite, NewFact};
use crate::graph::GraphResult;

#[async_trait]
pub trait FactStore: Send + Sync {
    /// Stores a fact. A structured fact (category and key) keeps one live value per
    /// (user, category, key): a value at least as confident supersedes the live one, a
    /// less confident one is not stored ([`FactWrite::KeptExisting`]). The same live
    /// fact again is [`FactWrite::Unchanged`].
    async fn store_fact(&self, fact: &NewFact) -> GraphResult<FactWrite>;

    /// Replaces a live fact: the new one `supersedes` it and the old one ends
    /// (`is_active = false`, `valid_to = at`). A structured fact keeps its category and
    /// key. `NotFound` for an unknown fact, `Conflict` for one already superseded.
    async fn correct_fact(&self, fact_id: &str, fact: &NewFact) -> GraphResult<Fact>;

    /// Confirms a live fact: confidence 1, protected from decay (`keep_forever`).
    async fn confirm_fact(&self, fact_id: &str, at: DateTime<Utc>) -> GraphResult<Fact>;
}
