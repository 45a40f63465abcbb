//! Decay's step, one page at a time.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::LifecycleStore;
use crate::domain::MemoryKind;
use crate::graph::GraphResult;
use crate::lifecycle::LifecycleParams;

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

#[async_trait]
pub trait DecayStore: LifecycleStore {
    /// Decay's step: the page of `limit` memories of `kind` after `after` (in key order,
    /// as [`lifecycle_page`](Self::lifecycle_page) walks them), each decayed to `as_of`
    /// as [`lifecycle::decay`] decides (pinned ones untouched; `as_of` taken to the
    /// microsecond, as times are stored: [`to_stored_precision`]), written with an event
    /// for each memory archived, in one write transaction: an access or a pin committed
    /// meanwhile is seen or waits, never lost. The same `as_of` again changes nothing.
    ///
    /// Each store does it set-based: its statements do the arithmetic of
    /// [`lifecycle::decay`] themselves (a store whose maths library rounds differently
    /// may differ in a salience's last bit), and the graph contract suite holds them to
    /// it.
    ///
    /// [`lifecycle::decay`]: crate::lifecycle::decay
    async fn decay_page(
        &self,
        kind: MemoryKind,
        after: Option<&str>,
        limit: usize,
        as_of: DateTime<Utc>,
        params: &LifecycleParams,
    ) -> GraphResult<DecayPage>;
}
