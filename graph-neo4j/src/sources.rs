//! Sources (Phase 0/1): stored, processed, indexed; their extraction records are in
//! `extraction_records.rs`.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use cosmo_core::domain::{NewSource, Passage, ProcessedContent, Source, SourceRef, SourceWrite};
use cosmo_core::graph::{GraphError, GraphResult, SourceStore};
use neo4rs::{BoltType, Query, Row, Txn};

use super::bolt::{Props, bool_column, embedding, int, int_column, list, opt, string_column};
use super::cypher::sources as s;
use super::rows::bind_lifecycle;
use super::words;
use super::{Neo4jGraph, decode, finish, txn_rows};

impl Neo4jGraph {
    /// Gives every Source processed before the index version was recorded the version
    /// `''` (none), so [`SourceStore::stale_index`] finds it through the index (a missing
    /// property is in none). Run by `migrate()`, in batches; once none is left, one
    /// label scan that marks nothing.
    pub(super) async fn mark_unindexed(&self) -> GraphResult<()> {
        const BATCH: usize = 10_000;
        loop {
            let marked = self
                .retrying(|| async {
                    let q = s::MARK_UNINDEXED.bind().p("limit", int(BATCH)).query()?;
                    match self.rows(q).await?.first() {
                        Some(row) => int_column(row, "marked"),
                        None => Ok(0),
                    }
                })
                .await?;
            if marked < BATCH as i64 {
                return Ok(());
            }
        }
    }
}

/// The `save_passages` rows of a Source's passages, in order.
fn passage_rows(passages: &[Passage]) -> GraphResult<Vec<BoltType>> {
    passages
        .iter()
        .enumerate()
        .map(|(ordinal, passage)| {
            s::SAVE_PASSAGES.row([
                ("ordinal", int(ordinal)),
                ("text", passage.text.as_str().into()),
                ("embedding", embedding(Some(&passage.embedding))),
            ])
        })
        .collect()
}

/// Runs `save` (`save_processed` or `save_index`, returning `updated`) in `txn` and,
/// when it found the Source, replaces its passages with `rows` (`save_passages`).
async fn save_then_passages(
    txn: &mut Txn,
    save: Query,
    key: &str,
    rows: &[BoltType],
) -> GraphResult<bool> {
    let updated = match txn_rows(txn, save).await?.first() {
        Some(row) => int_column(row, "updated")? > 0,
        None => false,
    };
    if updated {
        let q = s::SAVE_PASSAGES
            .bind()
            .p("entity_key", key)
            .p("rows", list(rows.to_vec()))
            .query()?;
        txn_rows(txn, q).await?;
    }
    Ok(updated)
}

fn source_ref(r: &Row) -> GraphResult<SourceRef> {
    let col = |name| {
        string_column(r, name)?
            .ok_or_else(|| GraphError::Backend(anyhow::anyhow!("a Source row without {name}")))
    };
    Ok(SourceRef {
        entity_key: col("entity_key")?,
        user_id: col("user_id")?,
        processing_status: col("processing_status")?
            .parse()
            .map_err(|e: cosmo_core::domain::ParseEnumError| GraphError::Backend(e.into()))?,
    })
}

/// `sources/create.cypher` for a new Source.
pub(super) fn create_query(n: &NewSource) -> GraphResult<Query> {
    let l = &n.lifecycle;
    let b = s::CREATE
        .bind()
        .p("entity_key", n.entity_key.as_str())
        .p("user_id", n.user_id.as_str())
        .p("team_id", opt(n.team_id.as_deref()))
        .p(
            "participants",
            list(n.participants.iter().map(String::as_str)),
        )
        .p("source_type", n.source_type.as_str())
        .p("raw_content", n.raw_content.to_string())
        .p(
            "provenance",
            opt(n.provenance.as_ref().map(|p| p.to_string())),
        )
        .p("context_type", opt(n.context_type.as_deref()))
        .p("started_at", opt(n.started_at))
        .p("ended_at", opt(n.ended_at))
        .p("sensitivity", n.sensitivity.as_str())
        .p("idempotency_key", n.idempotency_key.as_str())
        .p("external_id", opt(n.external_id.as_deref()))
        .p("content_hash", n.content_hash.as_str())
        .p("created_at", l.created_at)
        .p("updated_at", l.updated_at);
    bind_lifecycle(b, l).query()
}

#[async_trait]
impl SourceStore for Neo4jGraph {
    async fn create_source(&self, n: &NewSource) -> GraphResult<SourceWrite> {
        let q = create_query(n)?;
        let rows = self.rows(q).await?;
        let row = rows
            .first()
            .ok_or_else(|| anyhow::anyhow!("creating source {} returned nothing", n.entity_key))?;
        let stored = decode::source(&Props::from_row(row, "source")?)?;
        Ok(if bool_column(row, "created")? {
            SourceWrite::Created(stored)
        } else {
            SourceWrite::Existing(stored)
        })
    }

    async fn source(&self, key: &str) -> GraphResult<Option<Source>> {
        let rows = self
            .rows(s::GET.bind().p("entity_key", key).query()?)
            .await?;
        rows.first()
            .map(|r| decode::source(&Props::from_row(r, "source")?))
            .transpose()
    }

    async fn sources_for_user(
        &self,
        user_id: &str,
        after: Option<&str>,
        limit: usize,
    ) -> GraphResult<Vec<Source>> {
        let q = s::FOR_USER
            .bind()
            .p("user_id", user_id)
            .p("after", after.unwrap_or(""))
            .p("limit", int(limit))
            .query()?;
        self.rows(q)
            .await?
            .iter()
            .map(|r| decode::source(&Props::from_row(r, "source")?))
            .collect()
    }

    async fn mark_processing_started(&self, key: &str, at: DateTime<Utc>) -> GraphResult<()> {
        let q = s::MARK_PROCESSING_STARTED
            .bind()
            .p("entity_key", key)
            .p("at", at);
        self.run(q.query()?).await
    }

    async fn save_processed(
        &self,
        key: &str,
        p: &ProcessedContent,
        at: DateTime<Utc>,
    ) -> GraphResult<bool> {
        let passages = passage_rows(&p.passages)?;
        self.retrying(|| async {
            let mut txn = self.begin().await?;
            let result = async {
                let b = s::SAVE_PROCESSED.bind();
                let b = words::bind(b, words::SUMMARY, &p.summary);
                let b = words::bind(b, words::CONTENT, &p.content);
                let b = words::bind(b, words::KEYWORDS, &words::keywords_text(&p.keywords));
                let q = b
                    .p("entity_key", key)
                    .p("content", p.content.as_str())
                    .p("summary", p.summary.as_str())
                    .p("keywords", list(p.keywords.iter().map(String::as_str)))
                    .p("tags", list(p.tags.iter().map(String::as_str)))
                    .p("embedding", embedding(Some(&p.embedding)))
                    .p("embedded_with", p.embedded_with.as_str())
                    .p("at", at)
                    .query()?;
                save_then_passages(&mut txn, q, key, &passages).await
            }
            .await;
            finish(txn, result).await
        })
        .await
    }

    async fn save_index(
        &self,
        key: &str,
        vector: &[f32],
        passages: &[Passage],
        embedded_with: &str,
        at: DateTime<Utc>,
    ) -> GraphResult<bool> {
        let passages = passage_rows(passages)?;
        self.retrying(|| async {
            let mut txn = self.begin().await?;
            let result = async {
                let q = s::SAVE_INDEX
                    .bind()
                    .p("entity_key", key)
                    .p("embedding", embedding(Some(vector)))
                    .p("embedded_with", embedded_with)
                    .p("at", at)
                    .query()?;
                save_then_passages(&mut txn, q, key, &passages).await
            }
            .await;
            finish(txn, result).await
        })
        .await
    }

    async fn record_processing_error(
        &self,
        key: &str,
        error: Option<&str>,
        at: DateTime<Utc>,
    ) -> GraphResult<()> {
        let q = s::RECORD_PROCESSING_ERROR
            .bind()
            .p("entity_key", key)
            .p("error", opt(error))
            .p("at", at);
        self.run(q.query()?).await
    }

    async fn stuck_sources(
        &self,
        before: DateTime<Utc>,
        limit: usize,
    ) -> GraphResult<Vec<SourceRef>> {
        let q = s::STUCK.bind().p("before", before);
        self.scan(q, limit, source_ref, |r| r.user_id.as_str())
            .await
    }

    async fn stale_index(&self, embedded_with: &str, limit: usize) -> GraphResult<Vec<SourceRef>> {
        let q = s::STALE_INDEX.bind().p("embedded_with", embedded_with);
        self.scan(q, limit, source_ref, |r| r.user_id.as_str())
            .await
    }
}
