//! What retrieval returns: the views of each kind of memory at each granularity, and
//! the builders of the nested ones (a Storyline with its Sources, a Macro with its
//! Storylines).

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::{RetrievalResult, Why};
use crate::retrieval::Recall;
use cosmo_shared::domain::{
    Macro, MemoryKind, MemoryState, NodeKind, Relationship, SemanticNode, SourceMeta, SourceType,
    Storyline,
};

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
    /// Present when the answer was made without the embedding model, which was
    /// unavailable (an outage, a rate limit, a timeout): found by full text and graph
    /// links alone, so a memory that shares no word with the queries may be missed. Says
    /// why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub degraded: Option<String>,
    /// How each query was answered: what it asks for (why, when, who, what, general),
    /// how that was read, and the period it names if any. Absent when
    /// `retrieval.intent_routing` is off.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub routing: Vec<super::route::Route>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sources: Option<Vec<Ranked<SourceView>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<Vec<Ranked<NodeView>>>,
    /// Granularity 1: the notes on nodes and relationships that match the queries,
    /// consolidation insights among them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes: Option<Vec<NoteView>>,
    /// Granularity 1: the user's active facts that match the queries, as
    /// `/api/facts` shows them (their lifecycle after this call's access update).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub facts: Option<Vec<Ranked<cosmo_shared::domain::Fact>>>,
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
    #[serde(serialize_with = "cosmo_shared::ids::serialize_user_id")]
    pub user_id: String,
    pub source_type: SourceType,
    pub context_type: Option<String>,
    pub event_time: DateTime<Utc>,
    pub summary: String,
    pub keywords: Vec<String>,
    pub tags: Vec<String>,
    pub state: MemoryState,
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
    /// When it was noted.
    pub date_added: DateTime<Utc>,
    /// When it was said: the time of its turn where the transcript gives one, else its
    /// Source's event time; an insight's, the latest of its Sources'.
    pub said_at: DateTime<Utc>,
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
    pub kind: NodeKind,
    pub name: String,
    pub entity_type: Option<String>,
    pub description: String,
    pub state: MemoryState,
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
    pub state: MemoryState,
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
    pub state: MemoryState,
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
pub(crate) const NESTED: usize = 20;

pub fn node_view(
    n: &SemanticNode,
    l: &cosmo_shared::domain::Lifecycle,
    relationships: Vec<RelationshipView>,
) -> NodeView {
    NodeView {
        entity_key: n.entity_key.clone(),
        kind: n.identity.kind,
        name: n.name.clone(),
        entity_type: n.identity.entity_type.clone(),
        description: n.description.clone(),
        state: l.state,
        salience: l.salience,
        last_mentioned_at: n.counters.last_mentioned_at,
        relationships,
    }
}

/// A Storyline with its Sources' metadata, newest Source first.
pub async fn storyline_view(
    recall: impl Into<Recall<'_>>,
    s: Storyline,
    l: &cosmo_shared::domain::Lifecycle,
) -> RetrievalResult<StorylineView> {
    let r = &recall.into();
    let keys = r
        .graph
        .storylines
        .storyline_sources(&s.storyline_id)
        .await?;
    let mut sources = r.graph.views.source_metas(&keys).await?;
    sources.sort_by_key(|s| std::cmp::Reverse(s.event_time));
    sources.truncate(NESTED);
    Ok(StorylineView {
        storyline_id: s.storyline_id,
        anchor_key: s.anchor_key,
        description: s.description,
        source_count: s.source_count,
        first_source_at: s.first_source_at,
        last_source_at: s.last_source_at,
        state: l.state,
        salience: l.salience,
        sources,
    })
}

/// A Macro with its Storylines' metadata, most recent first.
pub async fn macro_view(
    recall: impl Into<Recall<'_>>,
    m: Macro,
    l: &cosmo_shared::domain::Lifecycle,
) -> RetrievalResult<MacroView> {
    let r = &recall.into();
    let mut storylines = r.graph.hierarchy.macro_storylines(&m.macro_id).await?;
    storylines.sort_by_key(|s| std::cmp::Reverse(s.last_source_at));
    Ok(MacroView {
        macro_id: m.macro_id,
        anchor_key: m.anchor_key,
        description: m.description,
        storyline_count: m.storyline_count,
        total_source_count: m.total_source_count,
        first_event_at: m.first_event_at,
        last_event_at: m.last_event_at,
        state: l.state,
        salience: l.salience,
        storylines: storylines.iter().map(StorylineMeta::from).collect(),
    })
}
