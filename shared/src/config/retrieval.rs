//! `[retrieval]`: hybrid retrieval and context building (SPEC §5, seed 000).

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RetrievalConfig {
    /// Cosine similarity under which the vector signal ignores a candidate, when a query
    /// gives no `threshold`. The other signals still see it.
    pub default_threshold: f64,
    /// Candidates each signal contributes per query, before fusion.
    pub candidates_per_signal: usize,
    /// Reciprocal rank fusion's constant: `Σ 1 / (k + rank)`.
    pub rrf_k: f64,
    /// Final score = `rrf_weight` × normalised RRF + `importance_weight` × importance.
    pub rrf_weight: f64,
    pub importance_weight: f64,
    /// Best-matching nodes a query's graph signal starts from.
    pub seed_nodes: usize,
    /// Token budget of `POST /api/context` when the request names none.
    pub context_budget_tokens: u64,
}

impl Default for RetrievalConfig {
    fn default() -> Self {
        Self {
            default_threshold: 0.1,
            candidates_per_signal: 50,
            rrf_k: 60.0,
            rrf_weight: 0.6,
            importance_weight: 0.4,
            seed_nodes: 5,
            context_budget_tokens: 500,
        }
    }
}

impl RetrievalConfig {
    pub fn validate(&self) -> anyhow::Result<()> {
        anyhow::ensure!(
            (-1.0..=1.0).contains(&self.default_threshold),
            "retrieval.default_threshold must be in [-1, 1]"
        );
        anyhow::ensure!(
            (1..=1000).contains(&self.candidates_per_signal),
            "retrieval.candidates_per_signal must be from 1 to 1000"
        );
        anyhow::ensure!(self.rrf_k > 0.0, "retrieval.rrf_k must be positive");
        anyhow::ensure!(
            self.rrf_weight >= 0.0
                && self.importance_weight >= 0.0
                && self.rrf_weight + self.importance_weight > 0.0,
            "retrieval.rrf_weight and retrieval.importance_weight must be non-negative, not both 0"
        );
        anyhow::ensure!(
            self.seed_nodes <= 100,
            "retrieval.seed_nodes must be at most 100"
        );
        anyhow::ensure!(
            (1..=16_000).contains(&self.context_budget_tokens),
            "retrieval.context_budget_tokens must be from 1 to 16000"
        );
        Ok(())
    }
}
