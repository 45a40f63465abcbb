//! Source search for users with many Sources: ask the shared vector and full-text
//! indexes for a top-k large enough to hold the user's best, keep the answer only when
//! it provably does, and search exactly otherwise.
//!
//! The indexes are shared by every user, and Neo4j 5.26 cannot filter inside them: a
//! top-k filtered to one user afterwards could miss their best matches whenever other
//! users' fill it. Two rules make the filtered answer exact (up to the approximation of
//! the vector index itself, measured by `cosmo-bench explore`):
//!
//! * the index returned fewer than it was asked for (it holds no more), or
//! * every hit kept is scored above the lowest score the index returned (the cut), and
//!   there are as many as wanted: any memory of the user scoring above the cut was
//!   among the fetched ones, so nothing better was left behind.
//!
//! How much to fetch: the user's share of all Sources says how many of a top-k are
//! theirs on average; the fetch is twice what that share needs, tried again at four
//! times that when the first is not proven, and never more than [`MAX_FETCH`]. A user
//! with at most `graph.neo4j.exact_search_max` Sources is always searched exactly (for
//! them that is the faster path); so is one whose share would need more than
//! [`MAX_FETCH`].

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use cosmo_core::domain::Hit;
use cosmo_core::graph::{GraphError, GraphResult};
use neo4rs::Query;

use super::Neo4jGraph;
use super::bolt::{Props, int_column};
use super::cypher::search as sx;
use super::search::float_column;

/// The largest top-k asked of a shared index.
pub const MAX_FETCH: usize = 10_000;

/// How long a user's Source count is trusted for sizing the fetch (a stale count only
/// makes a fetch too small, which the proof catches, or larger than needed).
const COUNTS_FOR: Duration = Duration::from_secs(60);

/// Counts kept at most (the oldest half is dropped beyond it).
const COUNTS_KEPT: usize = 10_000;

/// How a search went, for `cosmo-bench explore` and the tests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchPaths {
    /// Searched exactly because the user has few Sources (or the fetch would be too big).
    pub exact: u64,
    /// Answered from the shared indexes, proven complete.
    pub fetched: u64,
    /// Fetched, not proven, then searched exactly.
    pub fell_back: u64,
}

#[derive(Debug)]
pub struct OverFetch {
    exact_max: usize,
    /// Errors of the over-fetched statements are returned (tests), not answered by the
    /// exact search with a warning (a server whose new index is still being built).
    strict: bool,
    counts: Mutex<HashMap<String, (Instant, u64, u64)>>,
    exact: AtomicU64,
    fetched: AtomicU64,
    fell_back: AtomicU64,
}

impl OverFetch {
    pub fn new(exact_max: usize, strict: bool) -> Self {
        Self {
            exact_max,
            strict,
            counts: Mutex::new(HashMap::new()),
            exact: AtomicU64::new(0),
            fetched: AtomicU64::new(0),
            fell_back: AtomicU64::new(0),
        }
    }

    pub fn strict(&self) -> bool {
        self.strict
    }

    pub fn exact_max(&self) -> usize {
        self.exact_max
    }

    /// The user's readable Sources and all Sources, when counted less than a minute ago.
    pub fn cached_counts(&self, user_id: &str) -> Option<(u64, u64)> {
        let counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        counts
            .get(user_id)
            .filter(|(at, _, _)| at.elapsed() < COUNTS_FOR)
            .map(|(_, mine, all)| (*mine, *all))
    }

    pub fn remember_counts(&self, user_id: &str, mine: u64, all: u64) {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        if counts.len() >= COUNTS_KEPT {
            let mut ages: Vec<Instant> = counts.values().map(|(at, _, _)| *at).collect();
            ages.sort_unstable();
            let keep_from = ages[ages.len() / 2];
            counts.retain(|_, (at, _, _)| *at >= keep_from);
        }
        counts.insert(user_id.to_owned(), (Instant::now(), mine, all));
    }

    /// The top-k to ask each index for, or `None` to search exactly.
    pub fn fetch(&self, mine: u64, all: u64, want: usize) -> Option<usize> {
        fetch_size(mine, all, want, self.exact_max)
    }

    pub fn count_exact(&self) {
        self.exact.fetch_add(1, Ordering::Relaxed);
    }

    pub fn count_fetched(&self) {
        self.fetched.fetch_add(1, Ordering::Relaxed);
    }

    pub fn count_fell_back(&self) {
        self.fell_back.fetch_add(1, Ordering::Relaxed);
    }

    pub fn paths(&self) -> SearchPaths {
        SearchPaths {
            exact: self.exact.load(Ordering::Relaxed),
            fetched: self.fetched.load(Ordering::Relaxed),
            fell_back: self.fell_back.load(Ordering::Relaxed),
        }
    }
}

/// See the module documentation. `want`: how many hits the answer needs.
pub fn fetch_size(mine: u64, all: u64, want: usize, exact_max: usize) -> Option<usize> {
    if mine == 0 || mine <= exact_max as u64 || want == 0 {
        return None;
    }
    let share = all.max(mine) as f64 / mine as f64;
    let fetch = (2.0 * want as f64 * share).ceil() as usize;
    if fetch <= MAX_FETCH {
        Some(fetch.max(want))
    } else if all <= MAX_FETCH as u64 {
        // Every Source fits in one fetch.
        Some(MAX_FETCH)
    } else {
        None
    }
}

/// The larger fetch tried when the first was not proven, if any.
pub fn second_fetch(first: usize) -> Option<usize> {
    (first < MAX_FETCH).then(|| (first * 4).min(MAX_FETCH))
}

/// Whether hits filtered from a fetch are the exact answer (module documentation):
/// `scores` are the kept hits' index scores, `cut` the lowest score fetched (negative:
/// the index returned everything it had).
pub fn proven(scores: &[f64], cut: f64, want: usize) -> bool {
    cut < 0.0 || (scores.len() >= want && scores.iter().all(|s| *s > cut))
}

impl Neo4jGraph {
    /// Whether `user_id` has so many Sources that their search goes through the shared
    /// indexes (the counts [`Self::over_fetched`] just cached).
    pub(super) fn over_fetch_user(&self, user_id: &str, want: usize) -> bool {
        let plan = &self.over_fetch;
        plan.cached_counts(user_id)
            .is_some_and(|(mine, all)| plan.fetch(mine, all, want).is_some())
    }

    /// A Source search answered from a top-k of the shared indexes (`over_fetch`), best
    /// first (ties by key), or `None` when the user is searched exactly.
    /// `statement(fetch)` returns one row of `hits` and `cut`; `read` decodes a hit and
    /// its index score; `want` hits prove the answer complete.
    pub(super) async fn over_fetched(
        &self,
        user_id: &str,
        want: usize,
        statement: impl Fn(usize) -> GraphResult<Query>,
        read: impl Fn(&Props) -> GraphResult<(Hit, f64)>,
    ) -> GraphResult<Option<Vec<Hit>>> {
        let plan = &self.over_fetch;
        let counts = match plan.cached_counts(user_id) {
            Some(c) => c,
            None => {
                let q = sx::SOURCE_COUNTS.bind().p("user_id", user_id).query()?;
                let rows = self.rows(q).await?;
                let row = rows.first().ok_or_else(|| {
                    GraphError::Backend(anyhow::anyhow!("search/source_counts returned no row"))
                })?;
                let (mine, all) = (int_column(row, "mine")?, int_column(row, "sources")?);
                let c = (mine.max(0) as u64, all.max(0) as u64);
                plan.remember_counts(user_id, c.0, c.1);
                c
            }
        };
        let Some(first) = plan.fetch(counts.0, counts.1, want) else {
            plan.count_exact();
            return Ok(None);
        };
        for fetch in std::iter::once(first).chain(second_fetch(first)) {
            let attempt = async {
                let rows = self.rows(statement(fetch)?).await?;
                let row = rows.first().ok_or_else(|| {
                    GraphError::Backend(anyhow::anyhow!("an over-fetched search returned no row"))
                })?;
                let cut = float_column(row, "cut")?;
                let (hits, scores): (Vec<Hit>, Vec<f64>) = Props::list_from_row(row, "hits")?
                    .iter()
                    .map(&read)
                    .collect::<GraphResult<Vec<_>>>()?
                    .into_iter()
                    .unzip();
                GraphResult::Ok(proven(&scores, cut, want).then_some(hits))
            };
            match attempt.await {
                Ok(Some(mut hits)) => {
                    plan.count_fetched();
                    hits.sort_by(|a, b| {
                        b.score.total_cmp(&a.score).then_with(|| a.key.cmp(&b.key))
                    });
                    return Ok(Some(hits));
                }
                Ok(None) => {}
                Err(e) if plan.strict() => return Err(e),
                Err(e) => {
                    tracing::warn!(error = %e, "over-fetched Source search failed; searching exactly");
                    break;
                }
            }
        }
        plan.count_fell_back();
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn few_sources_are_searched_exactly() {
        assert_eq!(fetch_size(0, 1_000_000, 66, 0), None);
        assert_eq!(fetch_size(20_000, 1_000_000, 66, 20_000), None);
        assert_eq!(fetch_size(5, 10, 66, 20_000), None);
    }

    #[test]
    fn the_fetch_is_twice_the_users_share() {
        // A tenth of all Sources: 66 wanted, 1,320 fetched.
        assert_eq!(fetch_size(100_000, 1_000_000, 66, 20_000), Some(1_320));
        // All of them: twice what is wanted.
        assert_eq!(fetch_size(50_000, 50_000, 66, 20_000), Some(132));
        // Too small a share for one fetch of a big database: exact.
        assert_eq!(fetch_size(25_000, 10_000_000, 66, 20_000), None);
        // Too small a share, but the whole index fits in one fetch.
        assert_eq!(fetch_size(3, 9_000, 66, 0), Some(MAX_FETCH));
        assert_eq!(second_fetch(1_320), Some(5_280));
        assert_eq!(second_fetch(4_000), Some(MAX_FETCH));
        assert_eq!(second_fetch(MAX_FETCH), None);
    }

    #[test]
    fn only_hits_above_the_cut_prove_the_answer() {
        // The index returned all it had: whatever survived is the answer.
        assert!(proven(&[], -1.0, 10));
        assert!(proven(&[0.2], -1.0, 10));
        // Enough hits, all above the lowest fetched score.
        assert!(proven(&[0.9, 0.8, 0.7], 0.6, 3));
        // One at the cut: a tie left behind could belong before it.
        assert!(!proven(&[0.9, 0.8, 0.6], 0.6, 3));
        // Too few: the user's next best may be below the cut.
        assert!(!proven(&[0.9, 0.8], 0.6, 3));
    }

    #[test]
    fn counts_are_remembered_for_a_while_and_bounded() {
        let o = OverFetch::new(0, false);
        assert_eq!(o.cached_counts("u"), None);
        o.remember_counts("u", 5, 50);
        assert_eq!(o.cached_counts("u"), Some((5, 50)));
        for i in 0..COUNTS_KEPT + 10 {
            o.remember_counts(&format!("v{i}"), 1, 2);
        }
        assert!(o.counts.lock().unwrap().len() <= COUNTS_KEPT);
        assert_eq!(
            o.cached_counts(&format!("v{}", COUNTS_KEPT + 9)),
            Some((1, 2))
        );
    }
}
