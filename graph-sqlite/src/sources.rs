//! Sources (Phase 0/1): stored, processed, indexed; their extraction records are in
//! `extraction_records.rs`.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use cosmo_core::domain::{
    NewSource, Passage, ProcessedContent, ProcessingStatus, Source, SourceRef, SourceWrite,
};
use cosmo_core::graph::{GraphResult, SourceStore};
use cosmo_core::query_file;
use sqlx::Row;
use sqlx::sqlite::SqliteRow;

use super::{
    SqliteGraph, decode_embedding, encode_embedding, json_list, lifecycle, micros, opt_micros,
    opt_time, parse,
};

const INSERT_SOURCE: &str = query_file!("sources/insert_source.sql");

/// Sources past `raw` whose index another embedder made (`embedded_with` below or above
/// `$1`) or none recorded (NULL), by key. Written as three seeks of the partial index
/// `sources_by_index_version` (migration 0007; `processing_status <> 'raw'` is its
/// condition, so each part can use it), sorted afterwards: `+entity_key` keeps the
/// planner from walking the whole table in key order instead, which it prefers for an
/// `OR` of the three, and which reads every Source when none is stale.
const STALE_INDEX: &str = query_file!("sources/stale_index.sql");

fn source_from_row(r: &SqliteRow) -> sqlx::Result<Source> {
    let json = |col: &str| -> sqlx::Result<Option<serde_json::Value>> {
        let text: Option<String> = r.try_get(col)?;
        text.map(|t| serde_json::from_str(&t).map_err(|e| sqlx::Error::Decode(Box::new(e))))
            .transpose()
    };
    Ok(Source {
        entity_key: r.try_get("entity_key")?,
        user_id: r.try_get("user_id")?,
        team_id: r.try_get("team_id")?,
        participants: json_list(r, "participants")?,
        source_type: parse(r, "source_type")?,
        raw_content: json("raw_content")?.unwrap_or_default(),
        provenance: json("provenance")?,
        context_type: r.try_get("context_type")?,
        started_at: opt_time(r, "started_at")?,
        ended_at: opt_time(r, "ended_at")?,
        sensitivity: parse(r, "sensitivity")?,
        idempotency_key: r.try_get("idempotency_key")?,
        external_id: r.try_get("external_id")?,
        content_hash: r.try_get("content_hash")?,
        content: r.try_get("content")?,
        summary: r.try_get("summary")?,
        keywords: json_list(r, "keywords")?,
        tags: json_list(r, "tags")?,
        embedding: decode_embedding(r, "embedding")?,
        embedded_with: r
            .try_get::<Option<String>, _>("embedded_with")?
            .filter(|f| !f.is_empty()),
        processing_status: parse::<ProcessingStatus>(r, "processing_status")?,
        processing_started_at: opt_time(r, "processing_started_at")?,
        processing_completed_at: opt_time(r, "processing_completed_at")?,
        extraction_started_at: opt_time(r, "extraction_started_at")?,
        extraction_completed_at: opt_time(r, "extraction_completed_at")?,
        processing_error: r.try_get("processing_error")?,
        lifecycle: lifecycle(r)?,
    })
}

fn source_ref(r: &SqliteRow) -> sqlx::Result<SourceRef> {
    Ok(SourceRef {
        entity_key: r.try_get("entity_key")?,
        user_id: r.try_get("user_id")?,
        processing_status: parse(r, "processing_status")?,
    })
}

/// Replaces a Source's passages with `passages` (in `save_processed`'s and `save_index`'s
/// transaction): their texts in `source_passages`, their vectors in the Source's
/// `search_docs` row.
async fn replace_passages(
    tx: &mut crate::WriteTx,
    key: &str,
    passages: &[Passage],
) -> GraphResult<()> {
    sqlx::query(query_file!("sources/delete_passages.sql"))
        .bind(key)
        .execute(&mut **tx)
        .await?;
    for (ordinal, passage) in passages.iter().enumerate() {
        sqlx::query(query_file!("sources/insert_passage.sql"))
            .bind(key)
            .bind(ordinal as i64)
            .bind(&passage.text)
            .execute(&mut **tx)
            .await?;
    }
    sqlx::query(query_file!("sources/update_doc_passages.sql"))
        .bind(key)
        .bind(pack_passages(passages))
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// The passages' vectors, one after another (`None` without passages). The vector scan
/// reads them back in chunks of the query's length; a vector of another length makes
/// the whole blob unreadable to it, so every passage of a Source is embedded by one
/// model call.
fn pack_passages(passages: &[Passage]) -> Option<Vec<u8>> {
    (!passages.is_empty()).then(|| {
        passages
            .iter()
            .flat_map(|p| p.embedding.iter().flat_map(|x| x.to_le_bytes()))
            .collect()
    })
}

#[async_trait]
impl SourceStore for SqliteGraph {
    async fn create_source(&self, s: &NewSource) -> GraphResult<SourceWrite> {
        let l = &s.lifecycle;
        let inserted = sqlx::query(INSERT_SOURCE)
            .bind(&s.entity_key)
            .bind(&s.user_id)
            .bind(&s.team_id)
            .bind(serde_json::to_string(&s.participants).map_err(anyhow::Error::from)?)
            .bind(s.source_type.as_str())
            .bind(s.raw_content.to_string())
            .bind(s.provenance.as_ref().map(|p| p.to_string()))
            .bind(&s.context_type)
            .bind(opt_micros(s.started_at))
            .bind(opt_micros(s.ended_at))
            .bind(s.sensitivity.as_str())
            .bind(&s.idempotency_key)
            .bind(&s.external_id)
            .bind(&s.content_hash)
            .bind(l.salience)
            .bind(l.state.as_str())
            .bind(l.confidence)
            .bind(l.access_count)
            .bind(l.recall_frequency)
            .bind(l.last_recall_interval)
            .bind(l.decay_gradient)
            .bind(l.ttl_policy.as_str())
            .bind(l.pinned)
            .bind(micros(l.created_at))
            .bind(micros(l.updated_at))
            .execute(&self.pool)
            .await?
            .rows_affected()
            == 1;
        let stored = self
            .source(&s.entity_key)
            .await?
            .ok_or_else(|| anyhow::anyhow!("source {} vanished after insert", s.entity_key))?;
        Ok(if inserted {
            SourceWrite::Created(stored)
        } else {
            SourceWrite::Existing(stored)
        })
    }

    async fn source(&self, key: &str) -> GraphResult<Option<Source>> {
        let row = sqlx::query(query_file!("sources/source_by_key.sql"))
            .bind(key)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(source_from_row).transpose()?)
    }

    async fn sources_for_user(
        &self,
        user_id: &str,
        after: Option<&str>,
        limit: usize,
    ) -> GraphResult<Vec<Source>> {
        let rows = sqlx::query(query_file!("sources/sources_for_user.sql"))
            .bind(user_id)
            .bind(after.unwrap_or(""))
            .bind(limit as i64)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(source_from_row).collect::<Result<_, _>>()?)
    }

    async fn mark_processing_started(&self, key: &str, at: DateTime<Utc>) -> GraphResult<()> {
        sqlx::query(query_file!("sources/mark_processing_started.sql"))
            .bind(key)
            .bind(micros(at))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn save_processed(
        &self,
        key: &str,
        p: &ProcessedContent,
        at: DateTime<Utc>,
    ) -> GraphResult<bool> {
        let mut tx = self.begin().await?;
        let done = sqlx::query(query_file!("sources/save_processed.sql"))
            .bind(key)
            .bind(&p.content)
            .bind(&p.summary)
            .bind(serde_json::to_string(&p.keywords).map_err(anyhow::Error::from)?)
            .bind(serde_json::to_string(&p.tags).map_err(anyhow::Error::from)?)
            .bind(encode_embedding(Some(&p.embedding)))
            .bind(micros(at))
            .bind(&p.embedded_with)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if done != 1 {
            return Ok(false);
        }
        replace_passages(&mut tx, key, &p.passages).await?;
        tx.commit().await?;
        Ok(true)
    }

    async fn save_index(
        &self,
        key: &str,
        embedding: &[f32],
        passages: &[Passage],
        embedded_with: &str,
        at: DateTime<Utc>,
    ) -> GraphResult<bool> {
        let mut tx = self.begin().await?;
        let done = sqlx::query(query_file!("sources/save_index.sql"))
            .bind(key)
            .bind(encode_embedding(Some(embedding)))
            .bind(embedded_with)
            .bind(micros(at))
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if done != 1 {
            return Ok(false);
        }
        replace_passages(&mut tx, key, passages).await?;
        tx.commit().await?;
        Ok(true)
    }

    async fn record_processing_error(
        &self,
        key: &str,
        error: Option<&str>,
        at: DateTime<Utc>,
    ) -> GraphResult<()> {
        sqlx::query(query_file!("sources/record_processing_error.sql"))
            .bind(key)
            .bind(error)
            .bind(micros(at))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn stuck_sources(
        &self,
        before: DateTime<Utc>,
        limit: usize,
    ) -> GraphResult<Vec<SourceRef>> {
        let rows = sqlx::query(query_file!("sources/stuck_sources.sql"))
            .bind(micros(before))
            .bind(limit as i64)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(source_ref).collect::<sqlx::Result<_>>()?)
    }

    async fn stale_index(&self, embedded_with: &str, limit: usize) -> GraphResult<Vec<SourceRef>> {
        let rows = sqlx::query(STALE_INDEX)
            .bind(embedded_with)
            .bind(limit as i64)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(source_ref).collect::<sqlx::Result<_>>()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plan of the stale scan: seeks of the version index only, never a walk of the
    /// whole table, so a reconcile run that finds nothing stale reads nothing.
    #[tokio::test]
    async fn the_stale_scan_seeks_the_version_index() {
        let plan = crate::query_plan(STALE_INDEX, &["offline:offline-static-v2:384", "500"]).await;
        let on_sources: Vec<&String> = plan.iter().filter(|d| d.contains(" sources ")).collect();
        assert_eq!(on_sources.len(), 3, "{plan:#?}");
        for detail in on_sources {
            assert!(
                detail.starts_with("SEARCH sources USING COVERING INDEX sources_by_index_version"),
                "{plan:#?}"
            );
        }
    }
}
