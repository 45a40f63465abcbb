//! Decay, set-based: a page of memories decayed by SQL statements that do the arithmetic
//! of [`cosmo_core::lifecycle::decay`] themselves (SQLite's `exp` and `pow`, the same C library
//! functions Rust calls), so no row travels to Rust and back. The pure function stays the
//! definition: the SQLite property test holds these statements to it, value for value.
//!
//! A page is one write transaction (`BEGIN IMMEDIATE`), so an access or a pin committed
//! meanwhile is either seen or waits: (1) the page's bounds, (2) the memories archived
//! now (few; their events are named in Rust, as every event is), (3) one `UPDATE` of
//! every memory that decays, (4) the archivals, by key. Each expression is evaluated once
//! a row: SQLite would inline a shared subquery into every place that names it. Tables
//! and key columns are fixed per kind; values are bound.

use async_trait::async_trait;
use chrono::{DateTime, Duration, Utc};
use cosmo_core::domain::{Actor, LifecycleEvent, MemoryKind, MemoryState};
use cosmo_core::graph::{DecayPage, DecayStore, GraphResult, to_stored_precision};
use cosmo_core::lifecycle::{LifecycleParams, MemoryClass};
use sqlx::Row;

use super::lifecycle::{per_kind, record_event};
use super::{SqliteGraph, micros};

/// The page: how many memories after `$1` (at most `$2`), and the last key.
macro_rules! bounds_sql {
    ($table:literal, $key:literal) => {
        concat!(
            "SELECT count(*) AS examined, max(k) AS last_key FROM (
                SELECT ",
            $key,
            " AS k FROM ",
            $table,
            " WHERE ",
            $key,
            " > $1 ORDER BY ",
            $key,
            " LIMIT $2)"
        )
    };
}

// The statements' parameters: `$1` < key <= `$2` (the page), `$3` the decay time
// (microseconds), `$4` the base rate, `$5` the confident-candidate bar, `$6` the archive
// threshold, `$7` the `ephemeral` deadline (microseconds). Each expression follows the
// Rust one's order of operations, so the results are the same doubles.

/// Where decay resumes: the latest of creation, last decay and last access.
macro_rules! since {
    () => {
        "max(created_at, coalesce(last_decayed_at, created_at), coalesce(last_accessed_at, created_at))"
    };
}

/// The daily rate (`lifecycle::decay_rate`).
macro_rules! rate {
    () => {
        "(CASE WHEN state = 'candidate' AND confidence >= $5 THEN 0.0
               WHEN state = 'candidate'
                  THEN $4 / (1.0 + pow(max(recall_frequency, 0), decay_gradient))
                       * (1.0 + (1.0 - min(max(confidence, 0.0), 1.0)) * 2.0)
               ELSE $4 / (1.0 + pow(max(recall_frequency, 0), decay_gradient)) END)"
    };
}

/// The salience after decaying from `since` to `$3` (for a row where `$3` is later).
macro_rules! decayed {
    () => {
        concat!(
            "min(max(salience * exp(-",
            rate!(),
            " * (($3 - ",
            since!(),
            ") / 1000000.0 / 86400.0)), 0.0), 1.0)"
        )
    };
}

/// The memories archived now, with the state they leave and why: an `ephemeral` one past
/// its deadline, or one whose salience after decay is under the threshold. The exact
/// salience is computed only for rows that could fall under it: decay multiplies a
/// positive salience by exp(−rate × days) ≥ 1 − 3 × base rate × days (the rate is at
/// most three times the base rate), so a row for which that bound is over the threshold
/// stays (with a margin for rounding); a salience at or below 0 is always looked at.
macro_rules! archived_sql {
    ($table:literal, $key:literal) => {
        concat!(
            "SELECT ",
            $key,
            " AS key, user_id, state,
                CASE WHEN ttl_policy = 'ephemeral' AND $3 >= created_at + $7 THEN 'ttl_expired'
                     ELSE 'decayed' END AS reason,
                $3 > ",
            since!(),
            " AS decays
             FROM ",
            $table,
            "
             WHERE ",
            $key,
            " > $1 AND ",
            $key,
            " <= $2 AND pinned = 0
               AND state <> 'archived' AND ttl_policy <> 'keep_forever'
               AND ((ttl_policy = 'ephemeral' AND $3 >= created_at + $7)
                    OR ((salience <= 0.0 OR salience * (1.0 - 3.0 * $4 * (max($3 - ",
            since!(),
            ", 0) / 1000000.0 / 86400.0)) < $6 * 1.001)
                        AND (CASE WHEN $3 > ",
            since!(),
            " THEN ",
            decayed!(),
            " ELSE salience END) < $6))
             ORDER BY ",
            $key
        )
    };
}

/// Decays every unpinned memory of the page that changes: `keep_forever` ones back to
/// salience 1 (if not there), the others when `$3` is later than their `since` (then
/// `last_decayed_at` moves to `$3`). The state changes are written after, by key.
macro_rules! update_sql {
    ($table:literal, $key:literal) => {
        concat!(
            "UPDATE ", $table, " SET
                salience = CASE WHEN ttl_policy = 'keep_forever' THEN 1.0 ELSE ", decayed!(), " END,
                last_decayed_at = CASE WHEN ttl_policy = 'keep_forever' THEN last_decayed_at ELSE $3 END,
                updated_at = $3
             WHERE ", $key, " > $1 AND ", $key, " <= $2 AND pinned = 0
               AND CASE WHEN ttl_policy = 'keep_forever' THEN salience <> 1.0 ELSE $3 > ", since!(), " END"
        )
    };
}

/// Archives one memory (after its decay was written).
macro_rules! archive_sql {
    ($table:literal, $key:literal) => {
        concat!(
            "UPDATE ",
            $table,
            " SET state = 'archived', updated_at = $2 WHERE ",
            $key,
            " = $1"
        )
    };
}

#[async_trait]
impl DecayStore for SqliteGraph {
    async fn decay_page(
        &self,
        kind: MemoryKind,
        after: Option<&str>,
        limit: usize,
        as_of: DateTime<Utc>,
        params: &LifecycleParams,
    ) -> GraphResult<DecayPage> {
        let after = after.unwrap_or("");
        let as_of = to_stored_precision(as_of);
        let mut tx = self.begin().await?;
        let bounds = sqlx::query(per_kind!(kind, bounds_sql))
            .bind(after)
            .bind(limit as i64)
            .fetch_one(&mut *tx)
            .await?;
        let examined: i64 = bounds.try_get("examined")?;
        let Some(last_key) = bounds.try_get::<Option<String>, _>("last_key")? else {
            return Ok(DecayPage::default());
        };
        let deadline_days = match kind.class() {
            MemoryClass::Episodic => params.ephemeral_episodic_days,
            MemoryClass::Semantic => params.ephemeral_semantic_days,
        };
        let deadline = micros(DateTime::<Utc>::UNIX_EPOCH + Duration::days(deadline_days));
        macro_rules! bound {
            ($sql:expr) => {
                sqlx::query($sql)
                    .bind(after)
                    .bind(&last_key)
                    .bind(micros(as_of))
                    .bind(params.base_rate)
                    .bind(params.confident_candidate)
                    .bind(params.archive_below)
                    .bind(deadline)
            };
        }
        let archived = bound!(per_kind!(kind, archived_sql))
            .fetch_all(&mut *tx)
            .await?;
        let decayed = bound!(per_kind!(kind, update_sql))
            .execute(&mut *tx)
            .await?
            .rows_affected() as usize;
        // A memory archived without decaying now (its time had not moved, or it is
        // `ephemeral` and due) changes by its archival alone.
        let mut changed = decayed;
        for r in &archived {
            if !r.try_get::<bool, _>("decays")? {
                changed += 1;
            }
            let key: String = r.try_get("key")?;
            let archive = sqlx::query(per_kind!(kind, archive_sql))
                .bind(&key)
                .bind(micros(as_of))
                .execute(&mut *tx)
                .await?;
            debug_assert_eq!(archive.rows_affected(), 1);
            let event = LifecycleEvent {
                memory_kind: kind,
                memory_key: key,
                user_id: r.try_get("user_id")?,
                previous_state: super::parse::<MemoryState>(r, "state")?,
                new_state: MemoryState::Archived,
                reason: r.try_get("reason")?,
                actor: Actor::System,
                at: as_of,
            };
            record_event(&mut tx, &event).await?;
        }
        tx.commit().await?;
        Ok(DecayPage {
            examined: examined as usize,
            last_key: Some(last_key),
            changed: changed as usize,
            archived: archived.len(),
        })
    }
}
