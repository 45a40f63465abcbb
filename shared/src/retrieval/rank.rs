//! Fusion and re-ranking, as pure functions (seed 000 "Hybrid Retrieval Algorithm" and
//! "Importance Scoring Algorithm"): reciprocal rank fusion over every signal list, then
//! `rrf_weight × normalised RRF + importance_weight × importance`.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::config::RetrievalConfig;
use crate::domain::{Lifecycle, MemoryState};

/// Which signal found a candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Signal {
    /// Embedding similarity (cosine).
    Vector,
    /// Full-text match.
    Text,
    /// Linked to the query's best-matching nodes.
    Graph,
}

/// One signal's verdict on one candidate, for the explanation.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct SignalHit {
    pub signal: Signal,
    /// Which query (index into `queries`).
    pub query: usize,
    /// 1-based rank in that signal's list.
    pub rank: usize,
    /// The signal's own score (cosine, text relevance, link weight).
    pub score: f64,
    /// Graph signal: the seed nodes it is linked to.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub via: Vec<String>,
}

/// A ranked list from one signal for one query.
#[derive(Debug, Clone, PartialEq)]
pub struct SignalList {
    pub signal: Signal,
    pub query: usize,
    /// Best first: `(key, score, via)`.
    pub hits: Vec<(String, f64, Vec<String>)>,
}

/// A candidate after fusion.
#[derive(Debug, Clone, PartialEq)]
pub struct Fused {
    pub key: String,
    /// `Σ 1 / (k + rank)`.
    pub rrf: f64,
    pub hits: Vec<SignalHit>,
}

/// Reciprocal rank fusion. Returns the candidates (best RRF first, ties by key) and the
/// largest RRF any candidate could reach (first in every list), to normalise by.
pub fn fuse(lists: &[SignalList], k: f64) -> (Vec<Fused>, f64) {
    let mut by_key: BTreeMap<&str, Fused> = BTreeMap::new();
    let mut max = 0.0;
    for list in lists {
        if list.hits.is_empty() {
            continue;
        }
        max += 1.0 / (k + 1.0);
        for (i, (key, score, via)) in list.hits.iter().enumerate() {
            let rank = i + 1;
            let f = by_key.entry(key).or_insert_with(|| Fused {
                key: key.clone(),
                rrf: 0.0,
                hits: Vec::new(),
            });
            f.rrf += 1.0 / (k + rank as f64);
            f.hits.push(SignalHit {
                signal: list.signal,
                query: list.query,
                rank,
                score: *score,
                via: via.clone(),
            });
        }
    }
    let mut fused: Vec<Fused> = by_key.into_values().collect();
    fused.sort_by(|a, b| b.rrf.total_cmp(&a.rrf).then_with(|| a.key.cmp(&b.key)));
    (fused, max)
}

/// The parts of seed 000's importance score, for the explanation.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Importance {
    pub recency: f64,
    pub frequency: f64,
    pub relevance: f64,
    pub type_boost: f64,
    pub user_boost: f64,
    pub salience: f64,
    /// `min(1, (0.3·recency + 0.3·frequency + 0.4·relevance) × type × user) × salience`.
    pub score: f64,
}

/// Seed 000's `ComputeImportanceScore` (recency `exp(−days / 30)` since the last access,
/// a 30-day time constant, so it halves in about 21 days;
/// log-scaled frequency capped at 100 accesses, relevance = the query's cosine or 0.5,
/// ×1.1 for semantic memories, ×1.5 for what the user marked — pinned, confirmed or
/// core), weighted by the memory's salience so faded memories sink.
pub fn importance(
    l: &Lifecycle,
    now: DateTime<Utc>,
    relevance: Option<f64>,
    semantic: bool,
    user_marked: bool,
) -> Importance {
    const MAX_ACCESS: f64 = 100.0;
    let since = l.last_accessed_at.unwrap_or(l.created_at);
    let age_days = ((now - since).num_seconds().max(0) as f64) / 86_400.0;
    let mut recency = (-age_days / 30.0).exp();
    if age_days < 1.0 {
        recency = (recency * 1.2).min(1.0);
    }
    let frequency = ((1.0 + l.access_count.max(0) as f64).ln() / (1.0 + MAX_ACCESS).ln()).min(1.0);
    let relevance = relevance.unwrap_or(0.5).clamp(0.0, 1.0);
    let type_boost = if semantic { 1.1 } else { 1.0 };
    let user_boost = if user_marked || l.pinned || l.state == MemoryState::Core {
        1.5
    } else {
        1.0
    };
    let base = 0.3 * recency + 0.3 * frequency + 0.4 * relevance;
    let salience = l.salience.clamp(0.0, 1.0);
    Importance {
        recency,
        frequency,
        relevance,
        type_boost,
        user_boost,
        salience,
        score: (base * type_boost * user_boost).min(1.0) * salience,
    }
}

/// The final score: normalised RRF and importance, weighted.
pub fn final_score(rrf: f64, max_rrf: f64, importance: f64, cfg: &RetrievalConfig) -> f64 {
    let rrf_norm = if max_rrf > 0.0 { rrf / max_rrf } else { 0.0 };
    let total = cfg.rrf_weight + cfg.importance_weight;
    (cfg.rrf_weight * rrf_norm + cfg.importance_weight * importance) / total
}

#[cfg(test)]
mod tests {
    use chrono::Duration;

    use super::*;
    use crate::domain::TtlPolicy;

    fn list(signal: Signal, keys: &[&str]) -> SignalList {
        SignalList {
            signal,
            query: 0,
            hits: keys.iter().map(|k| (k.to_string(), 1.0, vec![])).collect(),
        }
    }

    #[test]
    fn found_by_more_signals_ranks_higher() {
        let (fused, max) = fuse(
            &[
                list(Signal::Vector, &["a", "b", "c"]),
                list(Signal::Text, &["b", "c"]),
                list(Signal::Graph, &[]),
            ],
            60.0,
        );
        assert_eq!(max, 2.0 / 61.0, "empty lists add nothing attainable");
        let order: Vec<&str> = fused.iter().map(|f| f.key.as_str()).collect();
        assert_eq!(order, ["b", "c", "a"]);
        assert!((fused[0].rrf - (1.0 / 62.0 + 1.0 / 61.0)).abs() < 1e-12);
        assert_eq!(fused[0].hits.len(), 2);
    }

    #[test]
    fn importance_follows_seed_000() {
        let now = Utc::now();
        let mut l = Lifecycle::new(0.9, TtlPolicy::Decay, now - Duration::days(30));
        l.salience = 1.0;
        let old = importance(&l, now, Some(0.5), false, false);
        assert!((old.recency - (-1.0f64).exp()).abs() < 1e-9);
        assert_eq!(old.frequency, 0.0);
        l.last_accessed_at = Some(now);
        l.access_count = 100;
        let fresh = importance(&l, now, Some(0.5), true, false);
        assert_eq!(fresh.recency, 1.0);
        assert!((fresh.frequency - 1.0).abs() < 1e-12);
        assert!(fresh.score > old.score);
        let marked = importance(&l, now, Some(0.5), true, true);
        assert_eq!(marked.score, 1.0, "capped at 1");
        l.salience = 0.1;
        let faded = importance(&l, now, Some(0.5), true, true);
        assert!((faded.score - 0.1).abs() < 1e-12, "salience scales it");
    }

    #[test]
    fn final_score_is_bounded() {
        let cfg = RetrievalConfig::default();
        assert!((final_score(2.0 / 61.0, 2.0 / 61.0, 1.0, &cfg) - 1.0).abs() < 1e-12);
        assert_eq!(final_score(0.0, 0.0, 0.0, &cfg), 0.0);
    }
}
