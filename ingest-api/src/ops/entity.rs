//! A semantic node as an agent reads it (`GET /api/entities/{key}` and the MCP tool
//! `entity_info`).

use chrono::{DateTime, Utc};
use cosmo_pipeline::retrieval::{self, RelationshipView, StorylineMeta};
use cosmo_shared::domain::{MemoryKind, MemoryState, NodeKind, Note, SourceMeta};
use cosmo_shared::ids;
use serde::Serialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::error::{ApiError, ApiResult};
use crate::extract::Tenant;
use crate::routes::access::memory_owner;

/// Most relationships and Sources an entity lists.
const LIST: usize = 50;

/// A semantic node as `GET /api/entities/{key}` shows it.
#[derive(Debug, Serialize, ToSchema)]
pub struct EntityView {
    pub entity_key: String,
    #[serde(serialize_with = "ids::serialize_user_id")]
    pub user_id: String,
    /// `person`, `concept` or `entity`.
    pub kind: NodeKind,
    pub name: String,
    pub entity_type: Option<String>,
    pub description: String,
    /// The user's own Person.
    pub is_owner: bool,
    pub state: MemoryState,
    pub salience: f64,
    pub pinned: bool,
    pub access_count: i64,
    pub first_mentioned_at: Option<DateTime<Utc>>,
    pub last_mentioned_at: Option<DateTime<Utc>>,
    /// Notes whose lifetime has not run out, newest first.
    pub notes: Vec<Note>,
    pub relationships: Vec<RelatedView>,
    pub sources: Vec<SourceMeta>,
    pub storylines: Vec<StorylineMeta>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RelatedView {
    #[serde(flatten)]
    pub relationship: RelationshipView,
    /// The other end.
    pub other_key: String,
    pub other_name: Option<String>,
}

/// A semantic node with its notes, relationships, Sources and Storylines
/// (`GET /api/entities/{key}`). Reading an entity counts as recalling it and the
/// relationships it lists.
pub async fn entity_info(app: &AppState, tenant: &Tenant, key: &str) -> ApiResult<EntityView> {
    memory_owner(app, tenant, MemoryKind::Node, key).await?;
    let svc = &app.svc;
    let n = svc
        .graph
        .node(key)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("node {key} not found")))?;
    let now = svc.clock.now();
    let key = key.to_owned();
    let access =
        retrieval::record_access(svc, MemoryKind::Node, std::slice::from_ref(&key)).await?;
    let l = access
        .get(&key)
        .cloned()
        .unwrap_or_else(|| n.lifecycle.clone());
    let mut relationships = Vec::new();
    for r in svc
        .graph
        .relationships_of(&n.user_id, std::slice::from_ref(&key), LIST)
        .await?
    {
        let other_key = if r.from_key == key {
            r.to_key.clone()
        } else {
            r.from_key.clone()
        };
        let other_name = svc.graph.node(&other_key).await?.map(|o| o.name);
        relationships.push(RelatedView {
            relationship: r.into(),
            other_key,
            other_name,
        });
    }
    // The relationships it shows are recalled with it.
    let shown: Vec<String> = relationships
        .iter()
        .map(|r| r.relationship.rel_key.clone())
        .collect();
    retrieval::record_access(svc, MemoryKind::Relationship, &shown).await?;
    let mut notes: Vec<Note> = n
        .notes
        .iter()
        .filter(|note| note.expires_at.is_none_or(|e| e > now))
        .cloned()
        .collect();
    notes.sort_by_key(|n| std::cmp::Reverse((n.said_at, n.date_added)));
    let sources = svc.graph.node_sources(&key, LIST).await?;
    let storylines = svc
        .graph
        .storylines_about(&key)
        .await?
        .iter()
        .map(StorylineMeta::from)
        .collect();
    Ok(EntityView {
        entity_key: n.entity_key,
        user_id: n.user_id,
        kind: n.identity.kind,
        name: n.name,
        entity_type: n.identity.entity_type,
        description: n.description,
        is_owner: n.is_owner,
        state: l.state,
        salience: l.salience,
        pinned: l.pinned,
        access_count: l.access_count,
        first_mentioned_at: n.counters.first_mentioned_at,
        last_mentioned_at: n.counters.last_mentioned_at,
        notes,
        relationships,
        sources,
        storylines,
    })
}
