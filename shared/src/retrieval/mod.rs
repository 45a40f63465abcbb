//! The read side (SPEC §5, §6): hybrid retrieval at three granularities and context for
//! prompts, the same for every graph backend.
//!
//! A query runs three signals per kind of memory — vector similarity (for a Source, the
//! best of its summary and its content passages), full-text match, graph neighbours of
//! the query's best-matching nodes — each a ranked candidate list from the store
//! ([`crate::graph::ReadStore`]). [`rank`] fuses them by their normalised scores into a
//! relevance and lets importance (salience) order near-equals; every result carries why
//! it was returned, and a returned Source the passage that best matches (its evidence).
//! Granularity 1 also returns the notes that match the queries (`notes.rs`). Returned
//! memories get the access update of SPEC §4.2, in one atomic store call per kind, and a
//! team Source returned to a participant starts that participant's lazy extraction.

use std::collections::{BTreeMap, HashMap};

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::domain::input::read::{ExploreInput, Granularity};
use crate::domain::{
    ExtractionStatus, LifecycleChange, LifecycleEvent, Macro, MemoryKind, Relationship,
    SearchScope, SemanticNode, Source, SourceMeta, Storyline, Target,
};
use crate::graph::GraphError;
use crate::llm::LlmError;
use crate::services::Services;

pub mod context;
mod evidence;
pub(crate) mod notes;
pub mod rank;
pub mod terms;

use rank::{Candidate, Fused, Signal, SignalHit, SignalList};

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

/// One ranked memory.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Ranked<T> {
    pub score: f64,
    pub why: Why,
    #[serde(flatten)]
    pub item: T,
}

/// What explore returns, by granularity.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Exploration {
    pub granularity: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sources: Option<Vec<Ranked<SourceView>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<Vec<Ranked<NodeView>>>,
    /// Granularity 1: the notes on nodes and relationships that match the queries,
    /// consolidation insights among them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes: Option<Vec<NoteView>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub storylines: Option<Vec<Ranked<StorylineView>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub macros: Option<Vec<Ranked<MacroView>>>,
}

/// A Source as retrieval shows it (granularity 1).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[schema(as = ExploredSource)]
pub struct SourceView {
    pub entity_key: String,
    /// The owner; a team Source may belong to another user the caller takes part with.
    pub user_id: String,
    pub source_type: String,
    pub context_type: Option<String>,
    pub event_time: DateTime<Utc>,
    pub summary: String,
    pub keywords: Vec<String>,
    pub tags: Vec<String>,
    pub state: String,
    pub salience: f64,
    /// The passage of the content that best matches the queries: the evidence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub passage: Option<PassageView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
}

/// A note on a node or relationship (granularity 1).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct NoteView {
    /// Best first: 1 and more for notes on the nodes explore returns, then by how well
    /// the note's words and its node match.
    pub score: f64,
    pub note_id: String,
    pub text: String,
    /// `node` or `relationship`.
    pub owner_kind: MemoryKind,
    /// The node's entity key or the relationship's key.
    pub owner_key: String,
    /// The node's name, or `From —type→ To`.
    pub owner: String,
    pub date_added: DateTime<Utc>,
    /// The Source the note was taken from; absent for a consolidation insight.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_id: Option<String>,
    /// A consolidation insight: the Sources it was consolidated from, archived ones
    /// too, so what they held stays reachable.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub derived_from: Vec<SourceMeta>,
}

/// A passage of a Source's content.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct PassageView {
    /// Its place in the content, from 0.
    pub ordinal: u32,
    pub text: String,
}

/// A semantic node with its relationships (granularity 1).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct NodeView {
    pub entity_key: String,
    pub kind: String,
    pub name: String,
    pub entity_type: Option<String>,
    pub description: String,
    pub state: String,
    pub salience: f64,
    pub last_mentioned_at: Option<DateTime<Utc>>,
    pub relationships: Vec<RelationshipView>,
}

#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct RelationshipView {
    pub rel_key: String,
    pub from_key: String,
    pub to_key: String,
    pub relationship_type: String,
    pub description: String,
    pub attitude: String,
    pub strength: f64,
}

impl From<Relationship> for RelationshipView {
    fn from(r: Relationship) -> Self {
        Self {
            rel_key: r.rel_key,
            from_key: r.from_key,
            to_key: r.to_key,
            relationship_type: r.relationship_type,
            description: r.description,
            attitude: r.attitude,
            strength: r.strength,
        }
    }
}

/// A Storyline with its Sources' metadata (granularity 2).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct StorylineView {
    pub storyline_id: String,
    pub anchor_key: String,
    pub description: String,
    pub source_count: i64,
    pub first_source_at: Option<DateTime<Utc>>,
    pub last_source_at: Option<DateTime<Utc>>,
    pub state: String,
    pub salience: f64,
    pub sources: Vec<SourceMeta>,
}

/// A Storyline as a Macro lists it: one line, dates, size.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct StorylineMeta {
    pub storyline_id: String,
    pub one_liner: String,
    pub first_source_at: Option<DateTime<Utc>>,
    pub last_source_at: Option<DateTime<Utc>>,
    pub source_count: i64,
}

impl From<&Storyline> for StorylineMeta {
    fn from(s: &Storyline) -> Self {
        Self {
            storyline_id: s.storyline_id.clone(),
            one_liner: one_line(&s.description),
            first_source_at: s.first_source_at,
            last_source_at: s.last_source_at,
            source_count: s.source_count,
        }
    }
}

/// A Macro with its Storylines' metadata (granularity 3).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct MacroView {
    pub macro_id: String,
    pub anchor_key: String,
    pub description: String,
    pub storyline_count: i64,
    pub total_source_count: i64,
    pub first_event_at: Option<DateTime<Utc>>,
    pub last_event_at: Option<DateTime<Utc>>,
    pub state: String,
    pub salience: f64,
    pub storylines: Vec<StorylineMeta>,
}

/// The first sentence of a description (at most 200 characters).
pub fn one_line(description: &str) -> String {
    let first = description
        .split_inclusive(['.', '!', '?'])
        .next()
        .unwrap_or("")
        .trim();
    let mut s: String = first.chars().take(200).collect();
    if first.chars().count() > 200 {
        s.push('…');
    }
    s
}

/// Most Sources a Storyline lists, and relationships a node lists, in results.
const NESTED: usize = 20;

/// A candidate memory loaded for ranking.
pub(crate) enum Loaded {
    Source(Box<Source>),
    Node(Box<SemanticNode>),
    Storyline(Box<Storyline>),
    Macro(Box<Macro>),
    Fact(Box<crate::domain::Fact>),
}

impl Loaded {
    pub(crate) fn lifecycle(&self) -> &crate::domain::Lifecycle {
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
        owner_ok
            && (scope.include_archived
                || self.lifecycle().state != crate::domain::MemoryState::Archived)
    }

    fn user_marked(&self) -> bool {
        matches!(self, Self::Fact(f) if f.confirmed)
    }
}

async fn load(svc: &Services, target: Target, key: &str) -> RetrievalResult<Option<Loaded>> {
    let g = &svc.graph;
    Ok(match target {
        Target::Source => g.source(key).await?.map(|s| Loaded::Source(Box::new(s))),
        Target::Node => g.node(key).await?.map(|n| Loaded::Node(Box::new(n))),
        Target::Storyline => g
            .storyline(key)
            .await?
            .map(|s| Loaded::Storyline(Box::new(s))),
        Target::Macro => g
            .macro_by_id(key)
            .await?
            .map(|m| Loaded::Macro(Box::new(m))),
        Target::Fact => g.fact(key).await?.map(|f| Loaded::Fact(Box::new(f))),
    })
}

/// A query, embedded once.
pub(crate) struct Query {
    pub threshold: f64,
    pub embedding: Vec<f32>,
    pub terms: Vec<String>,
}

/// Embeds the queries in one call and records its usage under `activity`.
pub(crate) async fn embed_queries(
    svc: &Services,
    user_id: &str,
    activity: &str,
    queries: Vec<(String, f64)>,
) -> RetrievalResult<Vec<Query>> {
    let texts: Vec<String> = queries.iter().map(|(q, _)| q.clone()).collect();
    let embedded = svc.models.embedder.embed(&texts).await?;
    if let Err(e) = svc
        .record_activity_usage(activity, user_id, &embedded.usage)
        .await
    {
        tracing::warn!(error = %e, "recording the query embedding's usage failed");
    }
    let embeddings = embedded.value;
    Ok(queries
        .into_iter()
        .zip(embeddings)
        .map(|((text, threshold), embedding)| Query {
            terms: terms::terms(&text),
            threshold,
            embedding,
        })
        .collect())
}

/// Ranks one kind of memory for the queries: the three signals per query, fused,
/// loaded, scoped and re-ranked; best first, at most `limit`.
pub(crate) async fn rank_target(
    svc: &Services,
    scope: &SearchScope,
    target: Target,
    queries: &[Query],
    limit: usize,
) -> RetrievalResult<Vec<(f64, Why, Loaded)>> {
    let cfg = &svc.config.retrieval;
    let n = cfg.candidates_per_signal.max(limit);
    let g = &svc.graph;
    let mut lists = Vec::new();
    for (qi, q) in queries.iter().enumerate() {
        let vector: Vec<Candidate> = g
            .vector_search(scope, target, &q.embedding, n)
            .await?
            .into_iter()
            .filter(|h| h.score >= q.threshold)
            .map(|h| Candidate {
                passage: h.passage,
                ..Candidate::new(h.key, h.score)
            })
            .collect();
        let text = if q.terms.is_empty() {
            Vec::new()
        } else {
            g.text_search(scope, target, &q.terms, n).await?
        };
        let seeds = seed_nodes(svc, scope, q, target, &vector, &text).await?;
        let graph = if seeds.is_empty() {
            Vec::new()
        } else {
            g.neighbours(scope, target, &seeds, n).await?
        };
        lists.push(SignalList {
            signal: Signal::Vector,
            query: qi,
            exhaustive: vector.len() < n,
            hits: vector,
        });
        lists.push(SignalList {
            signal: Signal::Text,
            query: qi,
            exhaustive: text.len() < n,
            hits: text
                .into_iter()
                .map(|h| Candidate::new(h.key, h.score))
                .collect(),
        });
        lists.push(SignalList {
            signal: Signal::Graph,
            query: qi,
            exhaustive: graph.len() < n,
            hits: graph
                .into_iter()
                .map(|h| Candidate {
                    via: h.via,
                    ..Candidate::new(h.key, h.score)
                })
                .collect(),
        });
    }
    let fused = rank::fuse(&lists, queries.len(), &cfg.weights());
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
        if rank::final_score(relevance, 1.0, cfg.importance_weight) < bar {
            break;
        }
        let Some(item) = load(svc, target, &key).await? else {
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
            let mut scores: Vec<f64> = ranked.iter().map(|r| r.0).collect();
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

/// The query's best-matching nodes: where its graph signal starts. For nodes
/// themselves, the vector and text candidates just found.
async fn seed_nodes(
    svc: &Services,
    scope: &SearchScope,
    q: &Query,
    target: Target,
    vector: &[Candidate],
    text: &[crate::domain::Hit],
) -> RetrievalResult<Vec<String>> {
    let k = svc.config.retrieval.seed_nodes;
    if k == 0 {
        return Ok(Vec::new());
    }
    let (vector, text): (Vec<Candidate>, Vec<Candidate>) = if target == Target::Node {
        (
            vector.to_vec(),
            text.iter()
                .map(|h| Candidate::new(h.key.clone(), h.score))
                .collect(),
        )
    } else {
        let g = &svc.graph;
        let v = g
            .vector_search(scope, Target::Node, &q.embedding, k)
            .await?
            .into_iter()
            .filter(|h| h.score >= q.threshold)
            .map(|h| Candidate::new(h.key, h.score))
            .collect();
        let t = if q.terms.is_empty() {
            Vec::new()
        } else {
            g.text_search(scope, Target::Node, &q.terms, k)
                .await?
                .into_iter()
                .map(|h| Candidate::new(h.key, h.score))
                .collect()
        };
        (v, t)
    };
    let as_list = |signal, hits: Vec<Candidate>| SignalList {
        signal,
        query: 0,
        exhaustive: hits.len() < k,
        hits,
    };
    let fused = rank::fuse(
        &[as_list(Signal::Vector, vector), as_list(Signal::Text, text)],
        1,
        &svc.config.retrieval.weights(),
    );
    Ok(fused.into_iter().take(k).map(|f| f.key).collect())
}

/// Applies the access update of SPEC §4.2 to returned memories, atomically per kind, and
/// returns their new lifecycles by key.
pub async fn record_access(
    svc: &Services,
    kind: MemoryKind,
    keys: &[String],
) -> RetrievalResult<HashMap<String, crate::domain::Lifecycle>> {
    if keys.is_empty() {
        return Ok(HashMap::new());
    }
    let now = svc.clock.now();
    let params = svc.config.lifecycle;
    let update = move |m: &crate::domain::MemoryLifecycle| {
        let d = crate::lifecycle::on_access(&m.lifecycle, now, &params);
        Some(LifecycleChange {
            kind: m.kind,
            key: m.key.clone(),
            event: d
                .transition
                .map(|t| LifecycleEvent::system(m, t.to, t.reason, now)),
            lifecycle: d.lifecycle,
        })
    };
    let changes = svc.graph.update_lifecycles(kind, keys, &update).await?;
    Ok(changes.into_iter().map(|c| (c.key, c.lifecycle)).collect())
}

/// Starts `user_id`'s lazy extraction of the team Sources they were just shown.
pub(crate) async fn extract_for_participant(
    svc: &Services,
    user_id: &str,
    sources: &[&Source],
    request_id: Option<String>,
) {
    for s in sources.iter().filter(|s| s.user_id != user_id) {
        let done = matches!(
            svc.graph.extraction(&s.entity_key, user_id).await,
            Ok(Some(r)) if r.status == ExtractionStatus::Extracted
        );
        if done {
            continue;
        }
        if let Err(e) =
            crate::pipeline::request_extraction(svc, &s.entity_key, user_id, request_id.clone())
                .await
        {
            tracing::warn!(entity_key = %s.entity_key, user_id, error = %e,
                "could not start a participant's lazy extraction");
        }
    }
}

/// `POST /api/explore`.
pub async fn explore(
    svc: &Services,
    input: &ExploreInput,
    request_id: Option<String>,
) -> RetrievalResult<Exploration> {
    let scope = SearchScope {
        user_id: input.user_id.clone(),
        include_archived: input.include_archived,
        since: input.since,
        until: input.until,
    };
    let default = svc.config.retrieval.default_threshold;
    let queries = embed_queries(
        svc,
        &input.user_id,
        "explore",
        input
            .queries
            .iter()
            .map(|q| (q.query.clone(), q.threshold.unwrap_or(default)))
            .collect(),
    )
    .await?;
    let mut out = Exploration {
        granularity: input.granularity as u8,
        sources: None,
        nodes: None,
        notes: None,
        storylines: None,
        macros: None,
    };
    match input.granularity {
        Granularity::Micro => {
            let sources = rank_target(svc, &scope, Target::Source, &queries, input.limit).await?;
            let nodes = rank_target(svc, &scope, Target::Node, &queries, input.limit).await?;
            let shown: Vec<&Source> = sources
                .iter()
                .filter_map(|(_, _, l)| match l {
                    Loaded::Source(s) => Some(&**s),
                    _ => None,
                })
                .collect();
            extract_for_participant(svc, &input.user_id, &shown, request_id).await;
            let found: Vec<(&str, &[SignalHit])> = sources
                .iter()
                .map(|(_, why, l)| match l {
                    Loaded::Source(s) => (s.entity_key.as_str(), why.signals.as_slice()),
                    _ => ("", &[][..]),
                })
                .collect();
            let mut passages = evidence::passages_of(svc, &found, &queries).await?;
            let source_access = access_of(svc, MemoryKind::Source, &sources).await?;
            let node_access = access_of(svc, MemoryKind::Node, &nodes).await?;
            let mut views = Vec::new();
            for (score, why, item) in sources {
                if let Loaded::Source(s) = item {
                    let l = source_access.get(&s.entity_key).unwrap_or(&s.lifecycle);
                    views.push(Ranked {
                        score,
                        why,
                        item: SourceView {
                            state: l.state.to_string(),
                            salience: l.salience,
                            event_time: s.event_time(),
                            passage: passages.remove(&s.entity_key),
                            content: input.include_content.then(|| s.content.clone()),
                            entity_key: s.entity_key,
                            user_id: s.user_id,
                            source_type: s.source_type.to_string(),
                            context_type: s.context_type,
                            summary: s.summary,
                            keywords: s.keywords,
                            tags: s.tags,
                        },
                    });
                }
            }
            let node_relevance = notes::node_relevance(&nodes);
            let mut node_views = Vec::new();
            for (score, why, item) in nodes {
                if let Loaded::Node(n) = item {
                    let l = node_access.get(&n.entity_key).unwrap_or(&n.lifecycle);
                    let relationships = svc
                        .graph
                        .relationships_of(
                            &input.user_id,
                            std::slice::from_ref(&n.entity_key),
                            NESTED,
                        )
                        .await?
                        .into_iter()
                        // Archived relationships are left out unless asked for, like
                        // every other archived memory.
                        .filter(|r| {
                            input.include_archived
                                || r.lifecycle.state != crate::domain::MemoryState::Archived
                        })
                        .map(RelationshipView::from)
                        .collect();
                    node_views.push(Ranked {
                        score,
                        why,
                        item: node_view(&n, l, relationships),
                    });
                }
            }
            out.sources = Some(views);
            out.nodes = Some(node_views);
            out.notes = Some(explored_notes(svc, &scope, input, &node_relevance).await?);
        }
        Granularity::Meso => {
            let ranked = rank_target(svc, &scope, Target::Storyline, &queries, input.limit).await?;
            let access = access_of(svc, MemoryKind::Storyline, &ranked).await?;
            let mut views = Vec::new();
            for (score, why, item) in ranked {
                if let Loaded::Storyline(s) = item {
                    let l = access
                        .get(&s.storyline_id)
                        .cloned()
                        .unwrap_or(s.lifecycle.clone());
                    views.push(Ranked {
                        score,
                        why,
                        item: storyline_view(svc, *s, &l).await?,
                    });
                }
            }
            out.storylines = Some(views);
        }
        Granularity::Macro => {
            let ranked = rank_target(svc, &scope, Target::Macro, &queries, input.limit).await?;
            let access = access_of(svc, MemoryKind::Macro, &ranked).await?;
            let mut views = Vec::new();
            for (score, why, item) in ranked {
                if let Loaded::Macro(m) = item {
                    let l = access
                        .get(&m.macro_id)
                        .cloned()
                        .unwrap_or(m.lifecycle.clone());
                    views.push(Ranked {
                        score,
                        why,
                        item: macro_view(svc, *m, &l).await?,
                    });
                }
            }
            out.macros = Some(views);
        }
    }
    Ok(out)
}

/// The notes matching the queries, with each insight's Sources.
async fn explored_notes(
    svc: &Services,
    scope: &SearchScope,
    input: &ExploreInput,
    node_relevance: &HashMap<String, f64>,
) -> RetrievalResult<Vec<NoteView>> {
    let texts: Vec<&str> = input.queries.iter().map(|q| q.query.as_str()).collect();
    // A sentence noted from several Sources (or on several nodes) is shown once, where
    // it ranks best.
    let mut seen = std::collections::HashSet::new();
    let ranked: Vec<notes::RankedNote> =
        notes::rank_notes_among(svc, scope, &texts, node_relevance, input.limit * 4)
            .await?
            .into_iter()
            .filter(|r| seen.insert(r.note.text.trim().to_lowercase()))
            .take(input.limit)
            .collect();
    let derived: Vec<String> = ranked
        .iter()
        .flat_map(|r| r.note.derived_from.iter().cloned())
        .collect();
    let metas = if derived.is_empty() {
        Vec::new()
    } else {
        svc.graph.source_metas(&derived).await?
    };
    Ok(ranked
        .into_iter()
        .map(|r| {
            let n = r.note;
            NoteView {
                score: r.score,
                derived_from: metas
                    .iter()
                    .filter(|m| n.derived_from.contains(&m.entity_key))
                    .cloned()
                    .collect(),
                note_id: n.note_id,
                text: n.text,
                owner_kind: n.owner_kind,
                owner_key: n.owner_key,
                owner: n.owner,
                date_added: n.date_added,
                source_id: n.source_id,
            }
        })
        .collect())
}

async fn access_of(
    svc: &Services,
    kind: MemoryKind,
    ranked: &[(f64, Why, Loaded)],
) -> RetrievalResult<HashMap<String, crate::domain::Lifecycle>> {
    let keys: Vec<String> = ranked.iter().map(|(_, _, l)| key_of(l)).collect();
    record_access(svc, kind, &keys).await
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

pub fn node_view(
    n: &SemanticNode,
    l: &crate::domain::Lifecycle,
    relationships: Vec<RelationshipView>,
) -> NodeView {
    NodeView {
        entity_key: n.entity_key.clone(),
        kind: n.identity.kind.to_string(),
        name: n.name.clone(),
        entity_type: n.identity.entity_type.clone(),
        description: n.description.clone(),
        state: l.state.to_string(),
        salience: l.salience,
        last_mentioned_at: n.counters.last_mentioned_at,
        relationships,
    }
}

/// A Storyline with its Sources' metadata, newest Source first.
pub async fn storyline_view(
    svc: &Services,
    s: Storyline,
    l: &crate::domain::Lifecycle,
) -> RetrievalResult<StorylineView> {
    let keys = svc.graph.storyline_sources(&s.storyline_id).await?;
    let mut sources = svc.graph.source_metas(&keys).await?;
    sources.sort_by_key(|s| std::cmp::Reverse(s.event_time));
    sources.truncate(NESTED);
    Ok(StorylineView {
        storyline_id: s.storyline_id,
        anchor_key: s.anchor_key,
        description: s.description,
        source_count: s.source_count,
        first_source_at: s.first_source_at,
        last_source_at: s.last_source_at,
        state: l.state.to_string(),
        salience: l.salience,
        sources,
    })
}

/// A Macro with its Storylines' metadata, most recent first.
pub async fn macro_view(
    svc: &Services,
    m: Macro,
    l: &crate::domain::Lifecycle,
) -> RetrievalResult<MacroView> {
    let mut storylines = svc.graph.macro_storylines(&m.macro_id).await?;
    storylines.sort_by_key(|s| std::cmp::Reverse(s.last_source_at));
    Ok(MacroView {
        macro_id: m.macro_id,
        anchor_key: m.anchor_key,
        description: m.description,
        storyline_count: m.storyline_count,
        total_source_count: m.total_source_count,
        first_event_at: m.first_event_at,
        last_event_at: m.last_event_at,
        state: l.state.to_string(),
        salience: l.salience,
        storylines: storylines.iter().map(StorylineMeta::from).collect(),
    })
}

/// Groups keys by kind (for callers that collect results of several kinds).
pub fn by_kind(items: &[(MemoryKind, String)]) -> BTreeMap<MemoryKind, Vec<String>> {
    let mut out: BTreeMap<MemoryKind, Vec<String>> = BTreeMap::new();
    for (k, key) in items {
        out.entry(*k).or_default().push(key.clone());
    }
    out
}
