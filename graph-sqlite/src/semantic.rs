//! Reading semantic nodes, relationships, notes and mentions; the owner Person.

use std::collections::HashMap;

use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};
use cosmo_core::domain::{
    HierarchyCounters, Lifecycle, Mention, NodeIdentity, NodeKind, Note, NoteLifetime,
    Relationship, SemanticNode, names,
};
use cosmo_core::graph::{GraphError, GraphResult, SemanticStore};
use cosmo_core::ids;
use cosmo_core::query_file;
use sqlx::Row;
use sqlx::sqlite::SqliteRow;

use super::{SqliteGraph, decode_embedding, lifecycle, micros, opt_time, parse};

impl SqliteGraph {
    /// Relationship rows with their notes attached.
    pub(super) async fn relationships_with_notes(
        &self,
        rows: Vec<SqliteRow>,
    ) -> GraphResult<Vec<Relationship>> {
        let keys: Vec<String> = rows
            .iter()
            .map(|r| r.try_get("rel_key"))
            .collect::<sqlx::Result<_>>()?;
        let mut notes = self.notes_of(&keys).await?;
        rows.iter()
            .map(|r| {
                let key: String = r.try_get("rel_key")?;
                Ok(Relationship {
                    notes: notes.remove(&key).unwrap_or_default(),
                    rel_key: key,
                    user_id: r.try_get("user_id")?,
                    from_key: r.try_get("from_key")?,
                    to_key: r.try_get("to_key")?,
                    relationship_type: r.try_get("relationship_type")?,
                    description: r.try_get("description")?,
                    attitude: r.try_get("attitude")?,
                    proximity: r.try_get("proximity")?,
                    strength: r.try_get("strength")?,
                    notes_embedding: decode_embedding(r, "notes_embedding")?,
                    is_dirty: r.try_get("is_dirty")?,
                    created_by: r.try_get("created_by")?,
                    lifecycle: lifecycle(r)?,
                })
            })
            .collect::<sqlx::Result<_>>()
            .map_err(Into::into)
    }

    /// Attaches notes and distinct days to node rows.
    pub(super) async fn with_details(
        &self,
        rows: Vec<SqliteRow>,
    ) -> GraphResult<Vec<SemanticNode>> {
        let keys: Vec<String> = rows
            .iter()
            .map(|r| r.try_get("entity_key"))
            .collect::<sqlx::Result<_>>()?;
        let mut notes = self.notes_of(&keys).await?;
        let mut days: HashMap<String, Vec<NaiveDate>> = HashMap::new();
        let day_rows = sqlx::query(query_file!("semantic/node_days.sql"))
            .bind(serde_json::to_string(&keys).map_err(anyhow::Error::from)?)
            .fetch_all(&self.pool)
            .await?;
        for r in &day_rows {
            let day: String = r.try_get("day")?;
            let day = day
                .parse::<NaiveDate>()
                .map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
            days.entry(r.try_get("entity_key")?).or_default().push(day);
        }
        rows.iter()
            .map(|r| {
                let key: String = r.try_get("entity_key")?;
                node_from_row(
                    r,
                    notes.remove(&key).unwrap_or_default(),
                    days.remove(&key).unwrap_or_default(),
                )
            })
            .collect::<sqlx::Result<_>>()
            .map_err(Into::into)
    }

    /// Notes per owner key, oldest first.
    async fn notes_of(&self, owner_keys: &[String]) -> GraphResult<HashMap<String, Vec<Note>>> {
        let rows = sqlx::query(query_file!("semantic/notes_of_owners.sql"))
            .bind(serde_json::to_string(owner_keys).map_err(anyhow::Error::from)?)
            .fetch_all(&self.pool)
            .await?;
        let mut by_owner: HashMap<String, Vec<Note>> = HashMap::new();
        for r in &rows {
            let note = Note {
                note_id: r.try_get("note_id")?,
                text: r.try_get("text")?,
                added_by: r.try_get("added_by")?,
                source_id: r.try_get("source_id")?,
                date_added: super::time(r, "date_added")?,
                said_at: super::opt_time(r, "said_at")?
                    .map_or_else(|| super::time(r, "date_added"), Ok)?,
                lifetime: parse::<NoteLifetime>(r, "lifetime")?,
                expires_at: opt_time(r, "expires_at")?,
            };
            by_owner
                .entry(r.try_get("owner_key")?)
                .or_default()
                .push(note);
        }
        Ok(by_owner)
    }
}

fn node_from_row(
    r: &SqliteRow,
    notes: Vec<Note>,
    distinct_days: Vec<NaiveDate>,
) -> sqlx::Result<SemanticNode> {
    let entity_type: String = r.try_get("entity_type")?;
    Ok(SemanticNode {
        entity_key: r.try_get("entity_key")?,
        user_id: r.try_get("user_id")?,
        identity: NodeIdentity {
            kind: parse::<NodeKind>(r, "kind")?,
            name: r.try_get("identity_name")?,
            entity_type: Some(entity_type).filter(|t| !t.is_empty()),
        },
        name: r.try_get("name")?,
        description: r.try_get("description")?,
        embedding: decode_embedding(r, "embedding")?,
        is_owner: r.try_get("is_owner")?,
        created_by: r.try_get("created_by")?,
        counters: HierarchyCounters {
            source_count: r.try_get("source_count")?,
            first_mentioned_at: opt_time(r, "first_mentioned_at")?,
            last_mentioned_at: opt_time(r, "last_mentioned_at")?,
            distinct_source_days: r.try_get("distinct_source_days")?,
            distinct_days,
            has_meso: r.try_get("has_meso")?,
            has_macro: r.try_get("has_macro")?,
        },
        is_dirty: r.try_get("is_dirty")?,
        lifecycle: lifecycle(r)?,
        notes,
    })
}

#[async_trait]
impl SemanticStore for SqliteGraph {
    /// Creates the owner Person, promotes an extracted Person of the same canonical name
    /// to owner, or renames the owner; refuses a rename onto another existing Person.
    async fn upsert_owner(
        &self,
        user_id: &str,
        full_name: &str,
        at: DateTime<Utc>,
    ) -> GraphResult<SemanticNode> {
        let canonical = names::canonical_person(full_name);
        let mut tx = self.begin().await?;
        let owner: Option<String> = sqlx::query_scalar(query_file!("semantic/owner_key.sql"))
            .bind(user_id)
            .fetch_optional(&mut *tx)
            .await?;
        let namesake: Option<String> = sqlx::query_scalar(query_file!("semantic/namesake_key.sql"))
            .bind(user_id)
            .bind(&canonical)
            .fetch_optional(&mut *tx)
            .await?;
        let owner_lc = Lifecycle::owner(at);
        let key = match (owner, namesake) {
            (Some(owner), Some(namesake)) if owner != namesake => {
                return Err(GraphError::Conflict(format!(
                    "a different Person named \"{canonical}\" already exists in {user_id}'s graph"
                )));
            }
            (Some(key), _) | (None, Some(key)) => {
                sqlx::query(query_file!("semantic/promote_owner.sql"))
                    .bind(&key)
                    .bind(&canonical)
                    .bind(full_name)
                    .bind(owner_lc.state.as_str())
                    .bind(owner_lc.salience)
                    .bind(owner_lc.confidence)
                    .bind(owner_lc.ttl_policy.as_str())
                    .bind(micros(at))
                    .execute(&mut *tx)
                    .await?;
                key
            }
            (None, None) => {
                let key = ids::owner_key(user_id);
                sqlx::query(query_file!("semantic/insert_owner.sql"))
                    .bind(&key)
                    .bind(user_id)
                    .bind(&canonical)
                    .bind(full_name)
                    .bind(owner_lc.salience)
                    .bind(owner_lc.state.as_str())
                    .bind(owner_lc.confidence)
                    .bind(owner_lc.ttl_policy.as_str())
                    .bind(micros(at))
                    .execute(&mut *tx)
                    .await?;
                key
            }
        };
        tx.commit().await?;
        self.node(&key)
            .await?
            .ok_or_else(|| GraphError::NotFound(format!("owner of {user_id}")))
    }

    async fn owner(&self, user_id: &str) -> GraphResult<Option<SemanticNode>> {
        let rows = sqlx::query(query_file!("semantic/owner.sql"))
            .bind(user_id)
            .fetch_all(&self.pool)
            .await?;
        Ok(self.with_details(rows).await?.pop())
    }

    async fn node(&self, key: &str) -> GraphResult<Option<SemanticNode>> {
        let rows = sqlx::query(query_file!("semantic/node_by_key.sql"))
            .bind(key)
            .fetch_all(&self.pool)
            .await?;
        Ok(self.with_details(rows).await?.pop())
    }

    async fn nodes_for_user(
        &self,
        user_id: &str,
        after: Option<&str>,
        limit: usize,
    ) -> GraphResult<Vec<SemanticNode>> {
        let rows = sqlx::query(query_file!("semantic/nodes_for_user.sql"))
            .bind(user_id)
            .bind(after.unwrap_or(""))
            .bind(limit as i64)
            .fetch_all(&self.pool)
            .await?;
        self.with_details(rows).await
    }

    async fn relationships_for_user(
        &self,
        user_id: &str,
        after: Option<&str>,
        limit: usize,
    ) -> GraphResult<Vec<Relationship>> {
        let rows = sqlx::query(query_file!("semantic/relationships_for_user.sql"))
            .bind(user_id)
            .bind(after.unwrap_or(""))
            .bind(limit as i64)
            .fetch_all(&self.pool)
            .await?;
        self.relationships_with_notes(rows).await
    }

    async fn mentions_for_user(&self, user_id: &str) -> GraphResult<Vec<Mention>> {
        let rows = sqlx::query(query_file!("semantic/mentions_for_user.sql"))
            .bind(user_id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| {
                Ok(Mention {
                    source_key: r.try_get("source_key")?,
                    entity_key: r.try_get("entity_key")?,
                    user_id: r.try_get("user_id")?,
                })
            })
            .collect::<sqlx::Result<_>>()
            .map_err(Into::into)
    }
}
