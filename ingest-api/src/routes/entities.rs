//! `GET /api/entities/{key}`: a semantic node with its description, live notes,
//! relationships (with the other end's name), the Sources mentioning it and the
//! Storylines about it. Reading an entity counts as recalling it (SPEC §4.2).

use axum::Json;
use axum::extract::{Path, State};
use chrono::{DateTime, Utc};
use cosmo_shared::domain::{MemoryKind, Note, SourceMeta};
use cosmo_shared::retrieval::{self, RelationshipView, StorylineMeta};
use serde::Serialize;

use super::access::memory_owner;
use crate::AppState;
use crate::error::{ApiError, ApiResult};
use crate::extract::Tenant;

/// Most relationships and Sources listed.
const LIST: usize = 50;

#[derive(Debug, Serialize)]
pub struct EntityView {
    pub entity_key: String,
    pub user_id: String,
    pub kind: String,
    pub name: String,
    pub entity_type: Option<String>,
    pub description: String,
    pub is_owner: bool,
    pub state: String,
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

#[derive(Debug, Serialize)]
pub struct RelatedView {
    #[serde(flatten)]
    pub relationship: RelationshipView,
    /// The other end.
    pub other_key: String,
    pub other_name: Option<String>,
}

pub async fn get(
    State(app): State<AppState>,
    tenant: Tenant,
    Path(key): Path<String>,
) -> ApiResult<Json<EntityView>> {
    memory_owner(&app, &tenant, MemoryKind::Node, &key).await?;
    let svc = &app.svc;
    let n = svc
        .graph
        .node(&key)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("node {key} not found")))?;
    let now = svc.clock.now();
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
    let mut notes: Vec<Note> = n
        .notes
        .iter()
        .filter(|note| note.expires_at.is_none_or(|e| e > now))
        .cloned()
        .collect();
    notes.sort_by_key(|n| std::cmp::Reverse(n.date_added));
    let sources = svc.graph.node_sources(&key, LIST).await?;
    let storylines = svc
        .graph
        .storylines_about(&key)
        .await?
        .iter()
        .map(StorylineMeta::from)
        .collect();
    Ok(Json(EntityView {
        entity_key: n.entity_key,
        user_id: n.user_id,
        kind: n.identity.kind.to_string(),
        name: n.name,
        entity_type: n.identity.entity_type,
        description: n.description,
        is_owner: n.is_owner,
        state: l.state.to_string(),
        salience: l.salience,
        pinned: l.pinned,
        access_count: l.access_count,
        first_mentioned_at: n.counters.first_mentioned_at,
        last_mentioned_at: n.counters.last_mentioned_at,
        notes,
        relationships,
        sources,
        storylines,
    }))
}
