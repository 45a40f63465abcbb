//! Typed links between a user's Sources ([`crate::domain::links`]): `temporal` ones
//! written as each Source is processed, `causal` ones inferred nightly, both read back
//! by retrieval's why-route.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::domain::{CausalCandidate, NewCausalLink, SourceLink};
use crate::graph::GraphResult;

/// How far back before a Source its causes are looked for, at most.
pub const MAX_CAUSAL_WINDOW: usize = 8;

#[async_trait]
pub trait LinkStore: Send + Sync {
    /// Records the Source's thread and puts it in its place in the thread's temporal
    /// chain, by event time (its start, else when it was posted; ties by entity key):
    /// one link from the latest Source of the thread before it, one to the earliest
    /// after it, and those two no longer linked to each other. Idempotent; a Source
    /// processed late lands between the ones already linked. A Source that newly
    /// joins has its causes looked for, and so has the one right after it. Runs under
    /// the owner's lock, so Sources joining one thread at once are placed one after the
    /// other. False if the Source does not exist.
    async fn link_temporal(
        &self,
        entity_key: &str,
        thread_key: &str,
        at: DateTime<Utc>,
    ) -> GraphResult<bool>;

    /// Sources whose causes are to be looked for, by entity key after `after`, at most
    /// `limit`, each with up to `window` (at most [`MAX_CAUSAL_WINDOW`]) Sources before
    /// it in its thread, nearest first.
    async fn causal_candidates(
        &self,
        after: Option<&str>,
        window: usize,
        limit: usize,
    ) -> GraphResult<Vec<CausalCandidate>>;

    /// Writes the causal links found for `effect_key` (those naming another effect, a
    /// missing cause or a cause of another owner are skipped; one already there is
    /// kept as it is) and marks its causes looked for, in one transaction. Returns how
    /// many links are new; 0 for an unknown Source.
    async fn save_causal(
        &self,
        effect_key: &str,
        links: &[NewCausalLink],
        at: DateTime<Utc>,
    ) -> GraphResult<u64>;

    /// The temporal and causal links that touch any of `keys`, each once, by kind, then
    /// from and to key.
    async fn source_links(&self, keys: &[String]) -> GraphResult<Vec<SourceLink>>;
}
