//! `[retrieval]`: hybrid retrieval and context building.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RetrievalConfig {
    /// Cosine similarity under which the vector signal ignores a candidate, when a query
    /// gives no `threshold`. The other signals still see it.
    pub default_threshold: f64,
    /// Candidates each signal contributes per query, before fusion.
    pub candidates_per_signal: usize,
    /// The weight of each signal in a memory's relevance (fusion: the weighted mean of
    /// its scores normalised within each signal's list). The defaults are measured with
    /// `cosmo-bench retrieval` (BENCHMARKS.md): words and meaning count alike — raising
    /// the vector weight from 0.3 to 1.0 found more evidence for every kind of question,
    /// with the offline embedder and with all-MiniLM-L6-v2, and beyond 1.0 recall@10
    /// barely moves while recall@5 and MRR begin to fall — and the graph signal mostly
    /// repeats the others, so it only breaks ties.
    pub vector_weight: f64,
    pub text_weight: f64,
    pub graph_weight: f64,
    /// Final score = `(1 − importance_weight) × relevance + importance_weight ×
    /// importance` (salience; 1 when pinned or confirmed). Small on purpose: retrieval
    /// raises salience, and a larger weight lets the order of questions change their
    /// answers (see `retrieval::rank`).
    pub importance_weight: f64,
    /// Best-matching nodes a query's graph signal starts from.
    pub seed_nodes: usize,
    /// Token budget of `POST /api/context` when the request names none.
    pub context_budget_tokens: u64,
    /// The most each part of `POST /api/context` takes at first of the budget left after
    /// the user's profile, recent turns and confirmed facts, while every part is filled
    /// by relevance: relevant facts, people and topics, temporal context (Storylines and
    /// episode summaries) and evidence (what was said: lines, notes, insights). What is
    /// then left, whoever left it, goes to what was left out, best first.
    pub context_shares: ContextShares,
    /// Read what each query asks for (why, when, who, what) and the period it names,
    /// and search accordingly (`retrieval::route`); `false` ranks every query alike.
    pub intent_routing: bool,
    /// The why-route (`retrieval::chain`): the Sources linked by cause and effect to a
    /// why-question's best `chain_seeds` matches are lifted by up to `chain_weight`
    /// (added to the weighted mean of the other signals; 0 turns the route off), to
    /// just below the match they are linked to at most.
    pub chain_seeds: usize,
    pub chain_weight: f64,
    /// How long explore and context wait for their queries' embeddings; past it, they
    /// answer from full text and graph links alone and say so (`degraded`), as when the
    /// embedding model is unavailable. Well below `server.request_timeout_secs`.
    pub embedding_timeout_ms: u64,
}

impl Default for RetrievalConfig {
    fn default() -> Self {
        Self {
            default_threshold: 0.1,
            candidates_per_signal: 50,
            vector_weight: 1.0,
            text_weight: 1.0,
            graph_weight: 0.1,
            importance_weight: 0.02,
            seed_nodes: 5,
            context_budget_tokens: 500,
            context_shares: ContextShares::default(),
            intent_routing: true,
            chain_seeds: 1,
            chain_weight: 0.5,
            embedding_timeout_ms: 5000,
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
        let weights = [self.vector_weight, self.text_weight, self.graph_weight];
        anyhow::ensure!(
            weights.iter().all(|w| w.is_finite() && *w >= 0.0) && weights.iter().sum::<f64>() > 0.0,
            "retrieval.vector_weight, text_weight and graph_weight must be non-negative, \
             not all 0"
        );
        anyhow::ensure!(
            (0.0..=0.5).contains(&self.importance_weight),
            "retrieval.importance_weight must be from 0 to 0.5: importance re-ranks within \
             relevance, it does not override it"
        );
        anyhow::ensure!(
            self.seed_nodes <= 100,
            "retrieval.seed_nodes must be at most 100"
        );
        anyhow::ensure!(
            self.chain_seeds <= 100,
            "retrieval.chain_seeds must be at most 100"
        );
        anyhow::ensure!(
            self.chain_weight.is_finite() && (0.0..=10.0).contains(&self.chain_weight),
            "retrieval.chain_weight must be from 0 to 10"
        );
        anyhow::ensure!(
            (1..=600_000).contains(&self.embedding_timeout_ms),
            "retrieval.embedding_timeout_ms must be from 1 to 600000"
        );
        anyhow::ensure!(
            (1..=16_000).contains(&self.context_budget_tokens),
            "retrieval.context_budget_tokens must be from 1 to 16000"
        );
        let c = &self.context_shares;
        let shares = [c.facts, c.entities, c.temporal, c.evidence];
        anyhow::ensure!(
            shares.iter().all(|s| (0.0..=1.0).contains(s)),
            "retrieval.context_shares: facts, entities, temporal and evidence must each be \
             from 0 to 1"
        );
        Ok(())
    }
}

/// The most of the context budget each part takes at first (see
/// [`RetrievalConfig::context_shares`]), each from 0 to 1.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ContextShares {
    /// Relevant facts (confirmed ones come before any part).
    pub facts: f64,
    /// People and topics.
    pub entities: f64,
    /// Storylines and episode summaries.
    pub temporal: f64,
    /// What was said: the lines of Sources, notes, insights.
    pub evidence: f64,
}

impl Default for ContextShares {
    fn default() -> Self {
        Self {
            facts: 0.30,
            entities: 0.10,
            temporal: 0.15,
            evidence: 1.0,
        }
    }
}
