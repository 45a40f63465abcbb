//! Decay's step, one page at a time.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::LifecycleStore;
use crate::domain::MemoryKind;
use crate::graph::GraphResult;
use crate::lifecycle::{self, LifecycleParams};

/// What one [`DecayStore::decay_page`] call read and wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DecayPage {
    /// How many memories the page held: at most the `limit` asked for; fewer means the
    /// walk has reached the last key.
    pub examined: usize,
    /// The page's last key, where the next page starts (`None`: the page was empty).
    pub last_key: Option<String>,
    /// Memories whose lifecycle changed.
    pub changed: usize,
    /// Of those, memories archived (each with its event).
    pub archived: usize,
}

/// A time as the stores keep it: to the microsecond. Decay compares its as-of time with
/// stored ones, so a finer one (an operator's manual run may name one) is cut to the
/// same precision first; otherwise a repeated run would find every memory a fraction of
/// a microsecond older and write it again.
pub fn to_stored_precision(at: DateTime<Utc>) -> DateTime<Utc> {
    use chrono::SubsecRound;
    at.trunc_subsecs(6)
}

/// [`DecayStore::decay_page`] from two generic operations, for a store without a
/// set-based statement: the page read, then every memory of it decided again by
/// [`lifecycle::decay`] under the store's lock ([`LifecycleStore::update_lifecycles`]), so an
/// access or a pin since the read is not lost; the changes are written in bulk.
pub async fn decay_page_by_parts<G: LifecycleStore + ?Sized>(
    g: &G,
    kind: MemoryKind,
    after: Option<&str>,
    limit: usize,
    as_of: DateTime<Utc>,
    params: &LifecycleParams,
) -> GraphResult<DecayPage> {
    let as_of = to_stored_precision(as_of);
    let page = g.lifecycle_page(kind, after, limit).await?;
    let keys: Vec<String> = page.iter().map(|m| m.key.clone()).collect();
    let changes = g
        .update_lifecycles(kind, &keys, &|m| lifecycle::decay_change(m, as_of, params))
        .await?;
    Ok(DecayPage {
        examined: page.len(),
        last_key: page.last().map(|m| m.key.clone()),
        changed: changes.len(),
        archived: changes.iter().filter(|c| c.event.is_some()).count(),
    })
}

#[async_trait]
pub trait DecayStore: LifecycleStore {
    /// Decay's step: the page of `limit` memories of `kind` after `after` (in key order,
    /// as [`lifecycle_page`](Self::lifecycle_page) walks them), each decayed to `as_of`
    /// exactly as [`lifecycle::decay`] decides (pinned ones untouched; `as_of` taken to
    /// the microsecond, as times are stored: [`to_stored_precision`]), written with an
    /// event for each memory archived, in one write transaction: an access or a pin
    /// committed meanwhile is seen or waits, never lost. The same `as_of` again changes
    /// nothing.
    ///
    /// By default [`decay_page_by_parts`]; a store that can decay a page in one
    /// set-based statement provides its own.
    async fn decay_page(
        &self,
        kind: MemoryKind,
        after: Option<&str>,
        limit: usize,
        as_of: DateTime<Utc>,
        params: &LifecycleParams,
    ) -> GraphResult<DecayPage> {
        decay_page_by_parts(self, kind, after, limit, as_of, params).await
    }
}
