//! Fusion and re-ranking, as pure functions.
//!
//! **Fusion is score-aware.** Each signal list (one signal, one query) is normalised to
//! [0, 1] by its own scores: `(score − floor) / (best − floor)`, where the floor is what
//! a memory the list does not show could score — the list's last score when the list
//! may have been cut (it holds as many hits as were asked for), else the signal's "no
//! match" score: 0 for full text and graph links, the query's threshold for the vector
//! signal. So a list whose hits all score alike (every Source mentions the user's
//! partner) adds nothing, a list of a few matches lifts exactly those, and a memory
//! missing from a list counts as that list's weakest candidate, never below. A memory
//! no list lifts above its floor has no relevance and is not returned. A memory's relevance is the weighted mean of
//! its normalised scores (`retrieval.{vector,text,graph}_weight`), averaged over the
//! queries. Reciprocal rank fusion was measured worse: it ignores how far apart the
//! scores are, and with `k = 60` a memory ranked first by one signal but missing from
//! the others lost to memories found weakly by all.
//!
//! **Importance re-ranks within relevance.** The final score is
//! `(1 − w) × relevance + w × importance` with `w = retrieval.importance_weight` (0.02)
//! and importance = salience, or 1 for what the user pinned or confirmed. Retrieving a
//! memory raises its salience (its access update), so importance must stay small to keep the
//! order of questions from deciding their answers: relevance near-ties are common
//! (many chats share most of their words), and with `w` = 0.05–0.1 asking the same 40
//! questions in reverse order changed the top 10 of a quarter of them. At 0.02 it
//! orders near-equals — a pinned or fresh memory before a faded one — and never lets a
//! popular memory beat a clearly more relevant one.

use std::collections::BTreeMap;

use serde::Serialize;

use cosmo_shared::domain::Lifecycle;

/// Which signal found a candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Signal {
    /// Embedding similarity (cosine) to a Source's summary or passages, or a memory's
    /// description.
    Vector,
    /// Full-text match.
    Text,
    /// Linked to the query's best-matching nodes.
    Graph,
    /// A Source linked by cause and effect to one of the query's best matches (the
    /// why-route, `chain.rs`): it adds to a memory's relevance, it is not averaged in.
    Chain,
}

/// The weight of each signal in a memory's relevance.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    pub vector: f64,
    pub text: f64,
    pub graph: f64,
    pub chain: f64,
}

impl Weights {
    /// The weights `[retrieval]` configures.
    pub fn configured(config: &cosmo_shared::config::RetrievalConfig) -> Self {
        Self {
            vector: config.vector_weight,
            text: config.text_weight,
            graph: config.graph_weight,
            chain: config.chain_weight,
        }
    }

    fn of(&self, signal: Signal) -> f64 {
        match signal {
            Signal::Vector => self.vector,
            Signal::Text => self.text,
            Signal::Graph => self.graph,
            Signal::Chain => self.chain,
        }
    }

    /// What the weighted mean divides by; the chain's weight is a bonus, not a part.
    fn total(&self) -> f64 {
        self.vector + self.text + self.graph
    }
}

/// One candidate in a signal list.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub key: String,
    /// The signal's own score (cosine, text relevance, link weight).
    pub score: f64,
    /// Graph signal: the seed nodes it is linked to.
    pub via: Vec<String>,
    /// Vector signal over Sources: the passage that scored it.
    pub passage: Option<u32>,
}

impl Candidate {
    pub fn new(key: impl Into<String>, score: f64) -> Self {
        Self {
            key: key.into(),
            score,
            via: Vec::new(),
            passage: None,
        }
    }
}

/// A ranked list from one signal for one query, best first.
#[derive(Debug, Clone, PartialEq)]
pub struct SignalList {
    pub signal: Signal,
    pub query: usize,
    pub hits: Vec<Candidate>,
    /// When the list holds every match (it came back shorter than asked for): the most
    /// a memory it does not list could score — 0 for full text and graph links (no
    /// match), the query's threshold for the vector signal. `None` when the list was
    /// cut: an unlisted memory could score up to its last hit.
    pub floor: Option<f64>,
    /// The list searched only the period the query named (see `route`): a second pass
    /// of the query that what happened then is found by again.
    pub in_period: bool,
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
    /// The score normalised within its list, 0–1 (see the fusion rule).
    pub normalised: f64,
    /// Graph signal: the seed nodes it is linked to.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub via: Vec<String>,
    /// Vector signal over Sources: the passage (from 0) that matched; absent when the
    /// summary did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub passage: Option<u32>,
    /// Found by the search of only the period the query named ("last week", "in May").
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub in_period: bool,
}

/// A candidate after fusion.
#[derive(Debug, Clone, PartialEq)]
pub struct Fused {
    pub key: String,
    /// Weighted mean of its normalised scores over signals and queries, 0–1.
    pub relevance: f64,
    pub hits: Vec<SignalHit>,
}

/// Each hit's score normalised within its list (see the module comment).
pub fn normalise(list: &SignalList) -> Vec<f64> {
    let Some(best) = list.hits.iter().map(|h| h.score).reduce(f64::max) else {
        return Vec::new();
    };
    let last = list.hits.iter().map(|h| h.score).fold(best, f64::min);
    let floor = list.floor.map_or(last, |f| f.min(last));
    list.hits
        .iter()
        .map(|h| {
            if best > floor {
                ((h.score - floor) / (best - floor)).clamp(0.0, 1.0)
            } else {
                0.0
            }
        })
        .collect()
}

/// Fuses the lists of `passes` searches (a query, or a query again within the period
/// it named): every candidate with its relevance (best first, ties by key) and its hits.
pub fn fuse(lists: &[SignalList], passes: usize, weights: &Weights) -> Vec<Fused> {
    let total = weights.total() * passes.max(1) as f64;
    let mut by_key: BTreeMap<&str, Fused> = BTreeMap::new();
    for list in lists {
        let weight = weights.of(list.signal);
        for (i, (hit, normalised)) in list.hits.iter().zip(normalise(list)).enumerate() {
            let f = by_key.entry(&hit.key).or_insert_with(|| Fused {
                key: hit.key.clone(),
                relevance: 0.0,
                hits: Vec::new(),
            });
            if total > 0.0 {
                f.relevance += weight * normalised / total;
            }
            f.hits.push(SignalHit {
                signal: list.signal,
                query: list.query,
                rank: i + 1,
                score: hit.score,
                normalised,
                via: hit.via.clone(),
                passage: hit.passage,
                in_period: list.in_period,
            });
        }
    }
    let mut fused: Vec<Fused> = by_key.into_values().collect();
    by_relevance(&mut fused);
    fused
}

/// Best first, ties by key.
pub fn by_relevance(fused: &mut [Fused]) {
    fused.sort_by(|a, b| {
        b.relevance
            .total_cmp(&a.relevance)
            .then_with(|| a.key.cmp(&b.key))
    });
}

/// A memory's importance, 0–1: its salience, or 1 when the user pinned or confirmed it.
pub fn importance(l: &Lifecycle, user_marked: bool) -> f64 {
    if user_marked || l.pinned {
        1.0
    } else {
        l.salience.clamp(0.0, 1.0)
    }
}

/// `(1 − w) × relevance + w × importance`.
pub fn final_score(relevance: f64, importance: f64, importance_weight: f64) -> f64 {
    let w = importance_weight.clamp(0.0, 1.0);
    (1.0 - w) * relevance + w * importance
}

#[cfg(test)]
mod tests;
