//! Storylines: creation (promotion, or by hand in tests) and the candidates a new
//! Source may join.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use cosmo_core::domain::{Lifecycle, Macro, NewMacro, NewStoryline, NodeIdentity, Storyline};
use cosmo_core::graph::{GraphError, GraphResult, StorylineCandidate, StorylineStore};
use cosmo_core::query_file;
use sqlx::Row;
use sqlx::sqlite::SqliteRow;

use super::{SqliteGraph, decode_embedding, encode_embedding, lifecycle, micros, opt_time};

pub(super) fn macro_from_row(r: &SqliteRow) -> sqlx::Result<Macro> {
    Ok(Macro {
        macro_id: r.try_get("macro_id")?,
        user_id: r.try_get("user_id")?,
        anchor_key: r.try_get("anchor_key")?,
        description: r.try_get("description")?,
        embedding: decode_embedding(r, "embedding")?,
        storyline_count: r.try_get("storyline_count")?,
        total_source_count: r.try_get("total_source_count")?,
        first_event_at: opt_time(r, "first_event_at")?,
        last_event_at: opt_time(r, "last_event_at")?,
        is_dirty: r.try_get("is_dirty")?,
        lifecycle: lifecycle(r)?,
    })
}

pub(super) fn storyline_from_row(r: &SqliteRow) -> sqlx::Result<Storyline> {
    Ok(Storyline {
        storyline_id: r.try_get("storyline_id")?,
        user_id: r.try_get("user_id")?,
        anchor_key: r.try_get("anchor_key")?,
        description: r.try_get("description")?,
        embedding: decode_embedding(r, "embedding")?,
        source_count: r.try_get("source_count")?,
        first_source_at: opt_time(r, "first_source_at")?,
        last_source_at: opt_time(r, "last_source_at")?,
        is_dirty: r.try_get("is_dirty")?,
        lifecycle: lifecycle(r)?,
    })
}

#[async_trait]
impl StorylineStore for SqliteGraph {
    async fn storyline_candidates(
        &self,
        user_id: &str,
        anchors: &[NodeIdentity],
        since: DateTime<Utc>,
    ) -> GraphResult<Vec<StorylineCandidate>> {
        let mut out = Vec::new();
        for anchor in anchors {
            let rows = sqlx::query(query_file!("storylines/storyline_candidates.sql"))
                .bind(user_id)
                .bind(anchor.kind.as_str())
                .bind(&anchor.name)
                .bind(anchor.entity_type.as_deref().unwrap_or(""))
                .bind(micros(since))
                .fetch_all(&self.pool)
                .await?;
            for r in &rows {
                out.push(StorylineCandidate {
                    anchor: anchor.clone(),
                    storyline: storyline_from_row(r)?,
                });
            }
        }
        Ok(out)
    }

    async fn create_storyline(&self, s: &NewStoryline) -> GraphResult<Storyline> {
        let mut tx = self.begin().await?;
        let anchor_user: Option<String> =
            sqlx::query_scalar(query_file!("storylines/anchor_user.sql"))
                .bind(&s.anchor_key)
                .fetch_optional(&mut *tx)
                .await?;
        if anchor_user.as_deref() != Some(s.user_id.as_str()) {
            return Err(GraphError::NotFound(format!(
                "anchor {} of user {}",
                s.anchor_key, s.user_id
            )));
        }
        let lc = Lifecycle::promoted(s.at);
        let created = sqlx::query(query_file!("storylines/insert_storyline.sql"))
            .bind(&s.storyline_id)
            .bind(&s.user_id)
            .bind(&s.anchor_key)
            .bind(&s.description)
            .bind(encode_embedding(s.embedding.as_deref()))
            .bind(lc.salience)
            .bind(lc.state.as_str())
            .bind(lc.confidence)
            .bind(lc.decay_gradient)
            .bind(lc.ttl_policy.as_str())
            .bind(micros(s.at))
            .execute(&mut *tx)
            .await?
            .rows_affected()
            == 1;
        if created {
            sqlx::query(query_file!("storylines/insert_storyline_sources.sql"))
                .bind(&s.storyline_id)
                .bind(serde_json::to_string(&s.source_keys).map_err(anyhow::Error::from)?)
                .execute(&mut *tx)
                .await?;
            sqlx::query(query_file!("storylines/update_storyline_counters.sql"))
                .bind(&s.storyline_id)
                .execute(&mut *tx)
                .await?;
            sqlx::query(query_file!("storylines/mark_anchor_has_meso.sql"))
                .bind(&s.anchor_key)
                .bind(micros(s.at))
                .execute(&mut *tx)
                .await?;
            // A later Storyline of an anchor that has a Macro joins it (refreshed next).
            sqlx::query(query_file!("storylines/join_anchor_macro.sql"))
                .bind(&s.storyline_id)
                .bind(&s.anchor_key)
                .execute(&mut *tx)
                .await?;
            sqlx::query(query_file!("storylines/add_storyline_to_macro.sql"))
                .bind(&s.storyline_id)
                .bind(&s.anchor_key)
                .bind(micros(s.at))
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        self.storyline(&s.storyline_id)
            .await?
            .ok_or_else(|| GraphError::NotFound(format!("storyline {}", s.storyline_id)))
    }

    async fn storyline(&self, id: &str) -> GraphResult<Option<Storyline>> {
        let row = sqlx::query(query_file!("storylines/storyline_by_id.sql"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(storyline_from_row).transpose()?)
    }

    async fn storyline_sources(&self, id: &str) -> GraphResult<Vec<String>> {
        Ok(
            sqlx::query_scalar(query_file!("storylines/storyline_sources.sql"))
                .bind(id)
                .fetch_all(&self.pool)
                .await?,
        )
    }

    async fn storylines_for_user(&self, user_id: &str) -> GraphResult<Vec<Storyline>> {
        let rows = sqlx::query(query_file!("storylines/storylines_for_user.sql"))
            .bind(user_id)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .map(storyline_from_row)
            .collect::<Result<_, _>>()?)
    }

    async fn create_macro(&self, m: &NewMacro) -> GraphResult<Macro> {
        let mut tx = self.begin().await?;
        let lc = Lifecycle::promoted(m.at);
        let created = sqlx::query(query_file!("storylines/insert_macro.sql"))
            .bind(&m.macro_id)
            .bind(&m.user_id)
            .bind(&m.anchor_key)
            .bind(&m.description)
            .bind(encode_embedding(m.embedding.as_deref()))
            .bind(lc.salience)
            .bind(lc.state.as_str())
            .bind(lc.confidence)
            .bind(lc.decay_gradient)
            .bind(lc.ttl_policy.as_str())
            .bind(micros(m.at))
            .execute(&mut *tx)
            .await?
            .rows_affected()
            == 1;
        if created {
            sqlx::query(query_file!("storylines/insert_macro_storylines.sql"))
                .bind(&m.macro_id)
                .bind(&m.user_id)
                .bind(serde_json::to_string(&m.storyline_ids).map_err(anyhow::Error::from)?)
                .execute(&mut *tx)
                .await?;
            sqlx::query(query_file!("storylines/update_macro_counters.sql"))
                .bind(&m.macro_id)
                .execute(&mut *tx)
                .await?;
            sqlx::query(query_file!("storylines/mark_anchor_has_macro.sql"))
                .bind(&m.anchor_key)
                .bind(micros(m.at))
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        self.macro_by_id(&m.macro_id).await?.ok_or_else(|| {
            GraphError::NotFound(format!("anchor {} of user {}", m.anchor_key, m.user_id))
        })
    }

    async fn macro_by_id(&self, id: &str) -> GraphResult<Option<Macro>> {
        let row = sqlx::query(query_file!("storylines/macro_by_id.sql"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(macro_from_row).transpose()?)
    }
}
