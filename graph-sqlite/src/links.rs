//! Typed links between Sources ([`cosmo_core::graph::LinkStore`]): the `source_links` table,
//! and the `thread_key` and `causal_pending` columns of `sources`. Each write is one
//! `BEGIN IMMEDIATE` transaction, so two Sources joining one thread at once are placed
//! one after the other.

use std::collections::HashMap;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use cosmo_core::domain::{CausalCandidate, NewCausalLink, SourceLink, SourceLinkKind};
use cosmo_core::graph::{GraphResult, LinkStore};
use cosmo_core::query_file;
use sqlx::Row;

use super::{SqliteGraph, micros, parse, time};

type Tx = crate::WriteTx;

/// The latest Source of a thread before a Source (at event time `$3`, its start else
/// when it was posted; ties by entity key), and the earliest after it.
const BEFORE: &str = query_file!("links/thread_before.sql");
const AFTER: &str = query_file!("links/thread_after.sql");

/// What follows a Source in its thread may have been caused by it: marked for a look.
const MARK_CAUSAL_PENDING: &str = query_file!("links/mark_causal_pending.sql");

async fn insert_temporal(
    tx: &mut Tx,
    from: &str,
    to: &str,
    user_id: &str,
    at: i64,
) -> GraphResult<()> {
    sqlx::query(query_file!("links/insert_temporal.sql"))
        .bind(from)
        .bind(to)
        .bind(user_id)
        .bind(at)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Before a Source is deleted: its neighbours in its thread follow each other directly
/// (the links to it go with it, by cascade).
pub(super) async fn bridge_temporal(tx: &mut Tx, key: &str, at: i64) -> GraphResult<()> {
    let rows = sqlx::query(query_file!("links/temporal_links_of_source.sql"))
        .bind(key)
        .fetch_all(&mut **tx)
        .await?;
    let mut ends: HashMap<bool, (String, String)> = HashMap::new();
    for r in &rows {
        let from: String = r.try_get("from_key")?;
        let to: String = r.try_get("to_key")?;
        let user: String = r.try_get("user_id")?;
        if to == key {
            ends.insert(false, (from, user));
        } else {
            ends.insert(true, (to, user));
        }
    }
    if let (Some((before, user)), Some((after, _))) = (ends.get(&false), ends.get(&true)) {
        insert_temporal(tx, before, after, user, at).await?;
        sqlx::query(MARK_CAUSAL_PENDING)
            .bind(after)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

#[async_trait]
impl LinkStore for SqliteGraph {
    async fn link_temporal(
        &self,
        key: &str,
        thread_key: &str,
        at: DateTime<Utc>,
    ) -> GraphResult<bool> {
        let mut tx = self.begin().await?;
        let Some(row) = sqlx::query(query_file!("links/source_thread.sql"))
            .bind(key)
            .fetch_optional(&mut *tx)
            .await?
        else {
            return Ok(false);
        };
        let user_id: String = row.try_get("user_id")?;
        let event_at: i64 = row.try_get("event_at")?;
        let old: Option<String> = row.try_get("thread_key")?;
        if old.as_deref().is_some_and(|old| old != thread_key) {
            // It leaves the thread it was in (who took part changed): that one closes
            // over the gap.
            bridge_temporal(&mut tx, key, micros(at)).await?;
        }
        let joined = sqlx::query(query_file!("links/join_thread.sql"))
            .bind(key)
            .bind(thread_key)
            .execute(&mut *tx)
            .await?
            .rows_affected()
            > 0;
        let mut around = [None, None];
        for (slot, sql) in around.iter_mut().zip([BEFORE, AFTER]) {
            *slot = sqlx::query_scalar::<_, String>(sql)
                .bind(thread_key)
                .bind(key)
                .bind(event_at)
                .fetch_optional(&mut *tx)
                .await?;
        }
        let [before, after] = around;
        // Exactly one link in and one out, to its neighbours; the two no longer follow
        // each other directly.
        sqlx::query(query_file!("links/unlink_thread_neighbours.sql"))
            .bind(key)
            .bind(&before)
            .bind(&after)
            .execute(&mut *tx)
            .await?;
        for (from, to) in [
            (before.as_deref(), Some(key)),
            (Some(key), after.as_deref()),
        ] {
            if let (Some(from), Some(to)) = (from, to) {
                insert_temporal(&mut tx, from, to, &user_id, micros(at)).await?;
            }
        }
        if joined && let Some(after) = &after {
            // What comes next may have been caused by what just arrived.
            sqlx::query(MARK_CAUSAL_PENDING)
                .bind(after)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    async fn causal_candidates(
        &self,
        after: Option<&str>,
        window: usize,
        limit: usize,
    ) -> GraphResult<Vec<CausalCandidate>> {
        let rows = sqlx::query(query_file!("links/causal_pending_sources.sql"))
            .bind(after.unwrap_or(""))
            .bind(i64::try_from(limit).unwrap_or(i64::MAX))
            .fetch_all(self.pool())
            .await?;
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            let effect_key: String = row.try_get("entity_key")?;
            let mut earlier = Vec::with_capacity(window);
            let mut at = effect_key.clone();
            while earlier.len() < window {
                let Some(prev) =
                    sqlx::query_scalar::<_, String>(query_file!("links/previous_in_thread.sql"))
                        .bind(&at)
                        .fetch_optional(self.pool())
                        .await?
                else {
                    break;
                };
                earlier.push(prev.clone());
                at = prev;
            }
            out.push(CausalCandidate {
                effect_key,
                user_id: row.try_get("user_id")?,
                earlier,
            });
        }
        Ok(out)
    }

    async fn save_causal(
        &self,
        effect_key: &str,
        links: &[NewCausalLink],
        at: DateTime<Utc>,
    ) -> GraphResult<u64> {
        let mut tx = self.begin().await?;
        let Some(user_id) = sqlx::query_scalar::<_, String>(query_file!("links/source_owner.sql"))
            .bind(effect_key)
            .fetch_optional(&mut *tx)
            .await?
        else {
            return Ok(0);
        };
        let mut written = 0;
        for link in links.iter().filter(|l| l.effect_key == effect_key) {
            // Only between Sources of one owner that both still exist.
            written += sqlx::query(query_file!("links/insert_causal.sql"))
                .bind(&link.cause_key)
                .bind(effect_key)
                .bind(&user_id)
                .bind(link.confidence)
                .bind(&link.inferred_by)
                .bind(&link.evidence)
                .bind(micros(at))
                .execute(&mut *tx)
                .await?
                .rows_affected();
        }
        sqlx::query(query_file!("links/clear_causal_pending.sql"))
            .bind(effect_key)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(written)
    }

    async fn source_links(&self, keys: &[String]) -> GraphResult<Vec<SourceLink>> {
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let keys = serde_json::to_string(keys).map_err(anyhow::Error::from)?;
        let rows = sqlx::query(query_file!("links/source_links.sql"))
            .bind(keys)
            .fetch_all(self.pool())
            .await?;
        rows.iter()
            .map(|r| {
                Ok(SourceLink {
                    kind: parse::<SourceLinkKind>(r, "kind")?,
                    from_key: r.try_get("from_key")?,
                    to_key: r.try_get("to_key")?,
                    confidence: r.try_get("confidence")?,
                    inferred_by: r.try_get("inferred_by")?,
                    evidence: r.try_get("evidence")?,
                    created_at: time(r, "created_at")?,
                })
            })
            .collect::<sqlx::Result<_>>()
            .map_err(Into::into)
    }
}
