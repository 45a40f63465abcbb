//! What both indexes apply when they answer a search: which memories it may see
//! ([`Filter`]) and the best `limit` of what they scored ([`best_first`]).

use cosmo_core::domain::SearchScope;

/// Which memories a search may see: at most this visibility, in this time range.
#[derive(Clone, Copy)]
pub(in crate::search) struct Filter {
    pub(in crate::search) visibility: i64,
    pub(in crate::search) since: i64,
    pub(in crate::search) until: i64,
}

impl Filter {
    pub(in crate::search) fn of(scope: &SearchScope) -> Self {
        Self {
            visibility: i64::from(scope.include_archived),
            since: scope.since.map_or(i64::MIN, crate::micros),
            until: scope.until.map_or(i64::MAX, crate::micros),
        }
    }

    pub(in crate::search) fn admits(&self, visibility: i64, at: i64) -> bool {
        visibility <= self.visibility && at >= self.since && at < self.until
    }
}

/// Keeps the best `limit` of `found` (by score; ties by key), best first. Keys are
/// compared only among those tied at the cut: a list of thousands where many share a
/// score would otherwise spend more time comparing keys than scoring.
pub(in crate::search) fn best_first<'k, I: Copy, K: Ord + ?Sized + 'k>(
    found: &mut Vec<(f32, I)>,
    limit: usize,
    key: impl Fn(I) -> &'k K,
) {
    let by_score_then_key =
        |a: &(f32, I), b: &(f32, I)| b.0.total_cmp(&a.0).then_with(|| key(a.1).cmp(key(b.1)));
    if limit == 0 {
        found.clear();
        return;
    }
    if found.len() > limit {
        found.select_nth_unstable_by(limit - 1, |a, b| b.0.total_cmp(&a.0));
        let cut = found[limit - 1].0;
        // Those before the cut score at least `cut`, those after at most: of the ones
        // tied at `cut` (on either side) only the lowest keys fill the places left.
        let mut tied: Vec<(f32, I)> = Vec::new();
        found.retain(|f| match f.0.total_cmp(&cut) {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Equal => {
                tied.push(*f);
                false
            }
            std::cmp::Ordering::Less => false,
        });
        let places = limit - found.len();
        if tied.len() > places {
            tied.select_nth_unstable_by(places - 1, |a, b| key(a.1).cmp(key(b.1)));
            tied.truncate(places);
        }
        found.extend(tied);
    }
    found.sort_by(by_score_then_key);
}
