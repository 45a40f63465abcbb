//! Storylines: creation (promotion, or by hand in tests) and the candidates a new
//! Source may join.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use cosmo_core::domain::{Lifecycle, Macro, NewMacro, NewStoryline, NodeIdentity, Storyline};
use cosmo_core::graph::{GraphError, GraphResult, StorylineCandidate, StorylineStore};
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
            let rows = sqlx::query(
                "SELECT st.* FROM storylines st JOIN nodes n ON n.entity_key = st.anchor_key
                 WHERE n.user_id = $1 AND n.kind = $2 AND n.identity_name = $3 AND n.entity_type = $4
                   AND n.has_meso = 1 AND st.state IN ('active', 'core') AND st.last_source_at > $5
                 ORDER BY st.last_source_at DESC LIMIT 3",
            )
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
            sqlx::query_scalar("SELECT user_id FROM nodes WHERE entity_key = $1")
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
        let created = sqlx::query(
            "INSERT INTO storylines (storyline_id, user_id, anchor_key, description, embedding, salience,
                state, confidence, access_count, recall_frequency, last_recall_interval, decay_gradient,
                ttl_policy, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0, 0, 0, $9, $10, $11, $11) ON CONFLICT DO NOTHING",
        )
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
            sqlx::query(
                "INSERT INTO storyline_sources (storyline_id, source_key)
                 SELECT $1, entity_key FROM sources WHERE entity_key IN (SELECT value FROM json_each($2))
                 ON CONFLICT DO NOTHING",
            )
            .bind(&s.storyline_id)
            .bind(serde_json::to_string(&s.source_keys).map_err(anyhow::Error::from)?)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "UPDATE storylines SET
                    source_count = (SELECT count(*) FROM storyline_sources WHERE storyline_id = $1),
                    first_source_at = (SELECT min(coalesce(s.started_at, s.created_at)) FROM storyline_sources ss
                        JOIN sources s ON s.entity_key = ss.source_key WHERE ss.storyline_id = $1),
                    last_source_at = (SELECT max(coalesce(s.started_at, s.created_at)) FROM storyline_sources ss
                        JOIN sources s ON s.entity_key = ss.source_key WHERE ss.storyline_id = $1)
                 WHERE storyline_id = $1",
            )
            .bind(&s.storyline_id)
            .execute(&mut *tx)
            .await?;
            sqlx::query("UPDATE nodes SET has_meso = 1, updated_at = $2 WHERE entity_key = $1")
                .bind(&s.anchor_key)
                .bind(micros(s.at))
                .execute(&mut *tx)
                .await?;
            // A later Storyline of an anchor that has a Macro joins it (refreshed next).
            sqlx::query(
                "INSERT INTO macro_storylines (macro_id, storyline_id)
                 SELECT macro_id, $1 FROM macros WHERE anchor_key = $2 ON CONFLICT DO NOTHING",
            )
            .bind(&s.storyline_id)
            .bind(&s.anchor_key)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "UPDATE macros SET is_dirty = 1, updated_at = $3,
                    total_source_count = total_source_count + (SELECT source_count FROM storylines WHERE storyline_id = $1),
                    last_event_at = max(coalesce(last_event_at, 0),
                        (SELECT coalesce(last_source_at, 0) FROM storylines WHERE storyline_id = $1)),
                    first_event_at = min(coalesce(first_event_at, 9223372036854775807),
                        (SELECT coalesce(first_source_at, 9223372036854775807) FROM storylines WHERE storyline_id = $1))
                 WHERE anchor_key = $2",
            )
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
        let row = sqlx::query("SELECT * FROM storylines WHERE storyline_id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(storyline_from_row).transpose()?)
    }

    async fn storyline_sources(&self, id: &str) -> GraphResult<Vec<String>> {
        Ok(sqlx::query_scalar(
            "SELECT source_key FROM storyline_sources WHERE storyline_id = $1 ORDER BY source_key",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?)
    }

    async fn storylines_for_user(&self, user_id: &str) -> GraphResult<Vec<Storyline>> {
        let rows = sqlx::query("SELECT * FROM storylines WHERE user_id = $1 ORDER BY storyline_id")
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
        let created = sqlx::query(
            "INSERT INTO macros (macro_id, user_id, anchor_key, description, embedding, salience, state,
                confidence, access_count, recall_frequency, last_recall_interval, decay_gradient, ttl_policy,
                created_at, updated_at)
             SELECT $1, $2, $3, $4, $5, $6, $7, $8, 0, 0, 0, $9, $10, $11, $11
             FROM nodes WHERE entity_key = $3 AND user_id = $2
             ON CONFLICT DO NOTHING",
        )
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
            sqlx::query(
                "INSERT INTO macro_storylines (macro_id, storyline_id)
                 SELECT $1, storyline_id FROM storylines
                 WHERE user_id = $2 AND storyline_id IN (SELECT value FROM json_each($3))
                 ON CONFLICT DO NOTHING",
            )
            .bind(&m.macro_id)
            .bind(&m.user_id)
            .bind(serde_json::to_string(&m.storyline_ids).map_err(anyhow::Error::from)?)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "UPDATE macros SET
                    storyline_count = (SELECT count(*) FROM macro_storylines WHERE macro_id = $1),
                    total_source_count = (SELECT coalesce(sum(st.source_count), 0) FROM macro_storylines ms
                        JOIN storylines st ON st.storyline_id = ms.storyline_id WHERE ms.macro_id = $1),
                    first_event_at = (SELECT min(st.first_source_at) FROM macro_storylines ms
                        JOIN storylines st ON st.storyline_id = ms.storyline_id WHERE ms.macro_id = $1),
                    last_event_at = (SELECT max(st.last_source_at) FROM macro_storylines ms
                        JOIN storylines st ON st.storyline_id = ms.storyline_id WHERE ms.macro_id = $1)
                 WHERE macro_id = $1",
            )
            .bind(&m.macro_id)
            .execute(&mut *tx)
            .await?;
            sqlx::query("UPDATE nodes SET has_macro = 1, updated_at = $2 WHERE entity_key = $1")
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
        let row = sqlx::query("SELECT * FROM macros WHERE macro_id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(macro_from_row).transpose()?)
    }
}
