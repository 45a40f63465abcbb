//! The metrics: recall@k of a question's evidence sessions among the top k retrieved
//! (averaged over questions), the mean reciprocal rank of the first evidence session
//! within the top 10 (0 when none is there), and latency percentiles.

use std::collections::BTreeMap;
use std::time::Duration;

use super::{Asked, Category};

/// The share of `evidence` found in the first `k` of `top`.
pub fn recall(evidence: &[usize], top: &[usize], k: usize) -> f64 {
    if evidence.is_empty() {
        return 0.0;
    }
    let found = evidence
        .iter()
        .filter(|e| top.iter().take(k).any(|t| t == *e))
        .count();
    found as f64 / evidence.len() as f64
}

/// 1 / rank of the first evidence session within the top 10, else 0.
pub fn reciprocal_rank(evidence: &[usize], top: &[usize]) -> f64 {
    top.iter()
        .take(10)
        .position(|t| evidence.contains(t))
        .map_or(0.0, |p| 1.0 / (p as f64 + 1.0))
}

/// Averages over a set of questions.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct CategoryScores {
    pub questions: usize,
    pub recall_at_5: f64,
    pub recall_at_10: f64,
    pub mrr: f64,
}

impl CategoryScores {
    fn add(&mut self, evidence: &[usize], top: &[usize]) {
        self.questions += 1;
        self.recall_at_5 += recall(evidence, top, 5);
        self.recall_at_10 += recall(evidence, top, 10);
        self.mrr += reciprocal_rank(evidence, top);
    }

    fn averaged(mut self) -> Self {
        let n = self.questions.max(1) as f64;
        self.recall_at_5 /= n;
        self.recall_at_10 /= n;
        self.mrr /= n;
        self
    }
}

/// One system's figures over a question set.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Scores {
    pub all: CategoryScores,
    pub by_category: BTreeMap<Category, CategoryScores>,
    /// By what the question asks for (its wording: when, why, who, what).
    pub by_asked: BTreeMap<Asked, CategoryScores>,
    /// Latency of the retrieval calls, when timed.
    pub p50_ms: Option<f64>,
    pub p95_ms: Option<f64>,
}

impl Scores {
    /// `answers`: each question's category, what it asks for, its evidence and the
    /// retrieved sessions (best first).
    pub fn of<'a>(
        answers: impl IntoIterator<Item = (Category, Asked, &'a [usize], &'a [usize])>,
        took: &[Duration],
    ) -> Self {
        let mut all = CategoryScores::default();
        let mut by_category: BTreeMap<Category, CategoryScores> = BTreeMap::new();
        let mut by_asked: BTreeMap<Asked, CategoryScores> = BTreeMap::new();
        for (category, asked, evidence, top) in answers {
            all.add(evidence, top);
            by_category.entry(category).or_default().add(evidence, top);
            by_asked.entry(asked).or_default().add(evidence, top);
        }
        let mut sorted = took.to_vec();
        sorted.sort();
        Self {
            all: all.averaged(),
            by_category: by_category
                .into_iter()
                .map(|(c, s)| (c, s.averaged()))
                .collect(),
            by_asked: by_asked
                .into_iter()
                .map(|(c, s)| (c, s.averaged()))
                .collect(),
            p50_ms: percentile_ms(&sorted, 0.5),
            p95_ms: percentile_ms(&sorted, 0.95),
        }
    }
}

/// The `p`-quantile (nearest rank) of sorted durations, in milliseconds.
fn percentile_ms(sorted: &[Duration], p: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    Some(sorted[at].as_secs_f64() * 1e3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recall_and_reciprocal_rank() {
        let top = [7, 3, 9, 1, 0, 2, 4, 5, 6, 8, 10];
        assert_eq!(recall(&[3, 8], &top, 5), 0.5);
        assert_eq!(recall(&[3, 8], &top, 10), 1.0);
        assert_eq!(reciprocal_rank(&[9, 8], &top), 1.0 / 3.0);
        assert_eq!(reciprocal_rank(&[10], &top), 0.0);
        let s = Scores::of(
            [
                (Category::SingleHop, Asked::What, &[7][..], &top[..]),
                (Category::Temporal, Asked::When, &[10][..], &top[..]),
            ],
            &[Duration::from_millis(3), Duration::from_millis(1)],
        );
        assert_eq!(s.all.recall_at_10, 0.5);
        assert_eq!(s.all.mrr, 0.5);
        assert_eq!(s.by_category[&Category::Temporal].recall_at_10, 0.0);
        assert_eq!(s.by_asked[&Asked::When].recall_at_10, 0.0);
        assert_eq!(s.by_asked[&Asked::What].recall_at_10, 1.0);
        assert_eq!(s.p50_ms, Some(3.0));
    }
}
