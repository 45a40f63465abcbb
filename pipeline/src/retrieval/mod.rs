//! The read side: hybrid retrieval at three granularities (`explore.rs`), context for
//! prompts (`context/`), the same for every graph backend.
//!
//! A query runs three signals per kind of memory — vector similarity (for a Source, the
//! best of its summary and its content passages), full-text match, graph neighbours of
//! the query's best-matching nodes — each a ranked candidate list from the store
//! ([`cosmo_shared::graph::SearchStore`]; `search.rs`, which also narrows a query's scope to the
//! period it names). [`rank`] fuses them by their normalised scores into a
//! relevance and lets importance (salience) order near-equals ([`rank_target`]); every
//! result carries why it was returned, and a returned Source the passage that best
//! matches (its evidence, `evidence.rs`). Granularity 1 also returns the notes that
//! match the queries (`notes.rs`). What the results look like is in `views.rs`.
//! Returned memories get the access update ([`record_access`]: counts, salience, state),
//! in one atomic store call per kind, and a team Source returned to a participant starts
//! that participant's lazy extraction.

use serde::Serialize;

use cosmo_shared::domain::{Macro, SearchScope, SemanticNode, Source, Storyline, Target};
use cosmo_shared::graph::GraphError;
use cosmo_shared::llm::LlmError;
use cosmo_shared::telemetry::metrics::{self, Degraded};

mod access;
pub mod anchor;
mod archived;
mod chain;
pub mod context;
mod evidence;
mod explore;
pub mod intent;
pub(crate) mod notes;
pub mod period;
pub mod rank;
mod recall;
pub mod route;
mod search;
pub mod tense;
pub mod terms;
mod views;

pub(crate) use access::extract_for_participant;
pub use access::{by_kind, record_access};
pub use explore::explore;
pub use recall::{Reads, Recall};
pub use views::*;

use rank::{Fused, SignalHit};
use search::{signal_lists, within};

#[derive(Debug, thiserror::Error)]
pub enum RetrievalError {
    #[error(transparent)]
    Graph(#[from] GraphError),
    #[error("embedding the query: {0}")]
    Model(#[from] LlmError),
    #[error(transparent)]
    Other(#[from] anyhow::Error),
}

pub type RetrievalResult<T> = Result<T, RetrievalError>;

/// Why a memory was returned.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Why {
    /// Every signal list it appeared in.
    pub signals: Vec<SignalHit>,
    /// Weighted mean of its normalised signal scores over the queries, 0–1.
    pub relevance: f64,
    /// Its salience before this call (1 when pinned or confirmed), 0–1.
    pub importance: f64,
}

/// A candidate memory loaded for ranking.
pub(crate) enum Loaded {
    Source(Box<Source>),
    Node(Box<SemanticNode>),
    Storyline(Box<Storyline>),
    Macro(Box<Macro>),
    Fact(Box<cosmo_shared::domain::Fact>),
}

impl Loaded {
    pub(crate) fn lifecycle(&self) -> &cosmo_shared::domain::Lifecycle {
        match self {
            Self::Source(s) => &s.lifecycle,
            Self::Node(n) => &n.lifecycle,
            Self::Storyline(s) => &s.lifecycle,
            Self::Macro(m) => &m.lifecycle,
            Self::Fact(f) => &f.lifecycle,
        }
    }

    /// Can `user_id` see it? (A second guard behind the store's scoping.)
    fn visible_to(&self, scope: &SearchScope) -> bool {
        let user = scope.user_id.as_str();
        let owner_ok = match self {
            Self::Source(s) => s.is_participant(user),
            Self::Node(n) => n.user_id == user,
            Self::Storyline(s) => s.user_id == user,
            Self::Macro(m) => m.user_id == user,
            Self::Fact(f) => f.user_id == user && f.is_active,
        };
        // A Source reached by a link, not a search, is held to the period here.
        let in_period = match self {
            Self::Source(s) => {
                let at = s.started_at.unwrap_or(s.lifecycle.created_at);
                scope.since.is_none_or(|t| at >= t) && scope.until.is_none_or(|t| at < t)
            }
            _ => true,
        };
        owner_ok
            && in_period
            && (scope.include_archived
                || self.lifecycle().state != cosmo_shared::domain::MemoryState::Archived)
    }

    fn user_marked(&self) -> bool {
        matches!(self, Self::Fact(f) if f.confirmed)
    }
}

async fn load(r: &Recall<'_>, target: Target, key: &str) -> RetrievalResult<Option<Loaded>> {
    let g = &r.graph;
    Ok(match target {
        Target::Source => g
            .sources
            .source(key)
            .await?
            .map(|s| Loaded::Source(Box::new(s))),
        Target::Node => g
            .semantic
            .node(key)
            .await?
            .map(|n| Loaded::Node(Box::new(n))),
        Target::Storyline => g
            .storylines
            .storyline(key)
            .await?
            .map(|s| Loaded::Storyline(Box::new(s))),
        Target::Macro => g
            .storylines
            .macro_by_id(key)
            .await?
            .map(|m| Loaded::Macro(Box::new(m))),
        Target::Fact => g.facts.fact(key).await?.map(|f| Loaded::Fact(Box::new(f))),
    })
}

/// A query, embedded once, for one request (one scope).
pub(crate) struct Query {
    pub threshold: f64,
    pub embedding: Vec<f32>,
    /// Its words (`terms.rs`).
    pub terms: Vec<String>,
    /// What full-text search looks for: its words and, routed, the past forms of its
    /// irregular verbs when it asks in the past (`tense.rs`).
    pub text_terms: Vec<String>,
    /// What it asks for and the period it names (`None`: routing is off).
    pub route: Option<route::QueryRoute>,
    /// The embedding of the event the query names as its anchor (`route.anchor`).
    anchor_embedding: Option<Vec<f32>>,
    /// The period the anchor bounds, once resolved against the user's Sources.
    pub(crate) anchored: tokio::sync::OnceCell<Option<period::Period>>,
    /// Where the graph signal of every kind but nodes starts: the same best-matching
    /// nodes for each kind, so searched once a request.
    seeds: tokio::sync::OnceCell<Vec<String>>,
}

impl Query {
    /// A query of no words and no route (for a search by embedding alone).
    fn bare(threshold: f64) -> Self {
        Self {
            threshold,
            embedding: Vec::new(),
            terms: Vec::new(),
            text_terms: Vec::new(),
            route: None,
            anchor_embedding: None,
            anchored: tokio::sync::OnceCell::new(),
            seeds: tokio::sync::OnceCell::new(),
        }
    }
}

/// The queries of one request, embedded.
pub(crate) struct Embedded {
    pub queries: Vec<Query>,
    /// Why the queries have no embeddings, when the embedding model was unavailable
    /// (an outage, a rate limit, a timeout): the request is answered from full text and
    /// graph links alone, and says so.
    pub degraded: Option<String>,
}

/// Embeds the queries in one call and records its usage under `activity`. An embedding
/// model that is unavailable (a retryable error: rate limit, timeout, 5xx, no connection,
/// a key or model the provider does not accept; or no answer within
/// `retrieval.embedding_timeout_ms`) does not fail the request: the queries go without
/// embeddings, so the vector signal finds nothing and the words and graph links answer
/// alone. A refusal (embeddings of the wrong size, a request the provider rejects) fails
/// it.
pub(crate) async fn embed_queries(
    r: &Recall<'_>,
    user_id: &str,
    activity: &'static str,
    queries: Vec<(String, f64)>,
) -> RetrievalResult<Embedded> {
    let routing = r.retrieval.intent_routing;
    // The events queries are anchored to are embedded in the same call.
    let anchors: Vec<Option<anchor::Anchor>> = queries
        .iter()
        .map(|(q, _)| {
            (routing && period::find(q, r.clock.now()).is_none())
                .then(|| anchor::find(q))
                .flatten()
        })
        .collect();
    let mut texts: Vec<String> = queries.iter().map(|(q, _)| q.clone()).collect();
    texts.extend(anchors.iter().flatten().map(|a| a.event.clone()));
    let limit = std::time::Duration::from_millis(r.retrieval.embedding_timeout_ms);
    let (vectors, unavailable) = match tokio::time::timeout(limit, r.embedder.embed(&texts)).await {
        Ok(Ok(embedded)) => {
            if let Err(e) = r.metering.record(activity, user_id, &embedded.usage).await {
                let error = format!("{e:#}");
                if let Some(repeated) =
                    cosmo_shared::telemetry::repeats::admit("query usage", &error)
                {
                    tracing::warn!(%error, repeated, "recording the query embedding's usage failed");
                }
            }
            (embedded.value, None)
        }
        Ok(Err(e)) if e.is_retryable() => {
            (Vec::new(), Some((Degraded::Unavailable, e.to_string())))
        }
        Ok(Err(e)) => return Err(e.into()),
        Err(_) => (
            Vec::new(),
            Some((
                Degraded::Timeout,
                format!("no answer within {} ms", limit.as_millis()),
            )),
        ),
    };
    let degraded = unavailable.map(|(reason, why)| {
        metrics::retrieval_degraded(activity, reason);
        tracing::warn!(%why, activity, "the embedding model is unavailable: answering from full text and graph links alone");
        format!(
            "the embedding model is unavailable ({why}): answered from full text and graph \
             links alone"
        )
    });
    let mut vectors = vectors.into_iter();
    let embeddings: Vec<Vec<f32>> = (0..queries.len())
        .map(|_| vectors.next().unwrap_or_default())
        .collect();
    let mut out = Vec::with_capacity(queries.len());
    for (((text, threshold), embedding), anchor) in queries.into_iter().zip(embeddings).zip(anchors)
    {
        let terms = terms::terms(&text);
        let route = if routing {
            Some(route::QueryRoute::read(r, &text, &embedding, &terms, anchor.clone()).await)
        } else {
            None
        };
        let mut text_terms = terms.clone();
        text_terms.extend(
            route
                .iter()
                .flat_map(|route| route.past_forms.iter().cloned()),
        );
        out.push(Query {
            terms,
            text_terms,
            threshold,
            embedding,
            route,
            // Not embedded, an anchor's event is still found by its words.
            anchor_embedding: anchor
                .and_then(|_| vectors.next().or_else(|| degraded.is_some().then(Vec::new))),
            anchored: tokio::sync::OnceCell::new(),
            seeds: tokio::sync::OnceCell::new(),
        });
    }
    Ok(Embedded {
        queries: out,
        degraded,
    })
}

/// Ranks one kind of memory for the queries: the three signals per query, fused,
/// loaded, scoped and re-ranked; best first, at most `limit`.
pub(crate) async fn rank_target(
    r: &Recall<'_>,
    scope: &SearchScope,
    target: Target,
    queries: &[Query],
    limit: usize,
) -> RetrievalResult<Vec<(f64, Why, Loaded)>> {
    let cfg = r.retrieval;
    let n = cfg.candidates_per_signal.max(limit);
    let mut lists = Vec::new();
    let mut passes = 0;
    for (qi, q) in queries.iter().enumerate() {
        lists.extend(signal_lists(r, scope, target, q, qi, n, false).await?);
        passes += 1;
        // What happened in the period the query names is searched again, alone: found
        // by both passes, it outranks what only the whole search finds.
        // A period without memories of this kind adds nothing.
        if let Some(within) = within(r, scope, q).await? {
            let found = signal_lists(r, &within, target, q, qi, n, true).await?;
            if found.iter().any(|l| !l.hits.is_empty()) {
                lists.extend(found);
                passes += 1;
            }
        }
    }
    let mut fused = rank::fuse(&lists, passes, &rank::Weights::configured(cfg));
    if target == Target::Source
        && cfg.chain_weight > 0.0
        && let Some(chain) = chain::list(r, queries, &fused).await?
    {
        lists.push(chain);
        let unchained = std::mem::take(&mut fused);
        fused = rank::fuse(&lists, passes, &rank::Weights::configured(cfg));
        chain::below_seeds(&mut fused, &unchained);
    }
    let mut ranked: Vec<(f64, Why, Loaded)> = Vec::new();
    // The `limit`-th best final score so far: a candidate whose relevance cannot reach
    // it even at full importance is not loaded (candidates come by relevance).
    let mut bar = f64::NEG_INFINITY;
    for Fused {
        key,
        relevance,
        hits,
    } in fused
    {
        // Nothing lifted it above a list's floor (fused candidates come by relevance).
        if relevance <= 0.0 || rank::final_score(relevance, 1.0, cfg.importance_weight) < bar {
            break;
        }
        let Some(item) = load(r, target, &key).await? else {
            continue; // erased since the search
        };
        if !item.visible_to(scope) {
            continue;
        }
        let importance = rank::importance(item.lifecycle(), item.user_marked());
        let score = rank::final_score(relevance, importance, cfg.importance_weight);
        let why = Why {
            signals: hits,
            relevance,
            importance,
        };
        ranked.push((score, why, item));
        if limit > 0 && ranked.len() >= limit {
            let mut scores: Vec<f64> = ranked.iter().map(|(score, _, _)| *score).collect();
            scores.sort_by(|a, b| b.total_cmp(a));
            bar = scores[limit - 1];
        }
    }
    ranked.sort_by(|a, b| {
        b.0.total_cmp(&a.0)
            .then_with(|| key_of(&a.2).cmp(&key_of(&b.2)))
    });
    ranked.truncate(limit);
    Ok(ranked)
}

pub(crate) fn key_of(l: &Loaded) -> String {
    match l {
        Loaded::Source(s) => s.entity_key.clone(),
        Loaded::Node(n) => n.entity_key.clone(),
        Loaded::Storyline(s) => s.storyline_id.clone(),
        Loaded::Macro(m) => m.macro_id.clone(),
        Loaded::Fact(f) => f.fact_id.clone(),
    }
}
