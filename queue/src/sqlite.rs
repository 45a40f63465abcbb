//! The queue on SQLite (`apalis-sqlite`): the embedded default. `Jobs.run_at` and
//! `done_at` are epoch seconds.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use sqlx::sqlite::SqliteRow;
use sqlx::{Row, SqlitePool};

use super::{
    Enqueued, JobFilter, JobKind, JobQueue, JobRecord, JobsConfig, NewJob, QueueCount, QueueResult,
    StateCount, state_case, state_condition, status,
};
use cosmo_core::domain::OrUnknown;
use cosmo_core::query_file;

#[derive(Debug, Clone)]
pub struct SqliteQueue {
    pool: SqlitePool,
    jobs: JobsConfig,
}

/// The columns of a [`JobRecord`], as a literal so queries can `concat!` onto it.
macro_rules! select_jobs {
    () => {
        "SELECT id, job_type, status, attempts, max_attempts, run_at, done_at, idempotency_key,
            CASE WHEN json_valid(last_result) THEN json_extract(last_result, '$.Err') ELSE last_result END
              AS last_error,
            lock_by, CAST(job AS TEXT) AS payload FROM Jobs"
    };
}

impl SqliteQueue {
    pub fn new(pool: SqlitePool, jobs: JobsConfig) -> Self {
        Self { pool, jobs }
    }

    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }
}

#[async_trait]
impl JobQueue for SqliteQueue {
    fn backend(&self) -> &'static str {
        "sqlite"
    }

    async fn migrate(&self) -> QueueResult<()> {
        // Not `SqliteStorage::setup`: that also sets `synchronous = OFF` on one pooled
        // connection. Our connections carry their own pragmas (see `graph::sqlite`).
        let mut migrator = apalis_sqlite::SqliteStorage::<()>::migrations();
        migrator.set_ignore_missing(true);
        migrator
            .run(&self.pool)
            .await
            .map_err(anyhow::Error::from)?;
        sqlx::query(super::lease::SCHEMA)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn ping(&self) -> QueueResult<()> {
        sqlx::query(query_file!("sqlite/ping.sql"))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn enqueue(&self, job: NewJob) -> QueueResult<Enqueued> {
        let (id, task) = super::runtime::build_task(&job, self.jobs.get(job.kind))?;
        let mut tx = cosmo_graph_sqlite::begin_write(&self.pool).await?;
        apalis_sqlite::queries::push_tasks(&mut *tx, job.kind.queue_name(), &[task])
            .await
            .map_err(|e| anyhow::anyhow!("enqueueing {}: {e}", job.kind))?;
        // The insert is `ON CONFLICT (job_type, idempotency_key) DO NOTHING`.
        let inserted: i64 = sqlx::query_scalar(query_file!("sqlite/changes.sql"))
            .fetch_one(&mut *tx)
            .await?;
        tx.commit().await?;
        if inserted == 1 {
            if job.run_at.is_none_or(|at| at <= chrono::Utc::now()) {
                super::wake::notify(job.kind.queue_name());
            }
            return Ok(Enqueued::Created { job_id: id });
        }
        let key = job.idempotency_key.unwrap_or_default();
        let existing = self
            .job_by_key(job.kind, &key)
            .await?
            .map(|j| j.job_id)
            .unwrap_or_default();
        Ok(Enqueued::Duplicate { job_id: existing })
    }

    async fn job(&self, job_id: &str) -> QueueResult<Option<JobRecord>> {
        const SQL: &str = concat!(select_jobs!(), " WHERE id = $1");
        let row = sqlx::query(SQL)
            .bind(job_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(record).transpose()?)
    }

    async fn job_by_key(&self, kind: JobKind, key: &str) -> QueueResult<Option<JobRecord>> {
        const SQL: &str = concat!(
            select_jobs!(),
            " WHERE job_type = $1 AND idempotency_key = $2"
        );
        let row = sqlx::query(SQL)
            .bind(kind.queue_name())
            .bind(key)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(record).transpose()?)
    }

    async fn counts(&self) -> QueueResult<Vec<QueueCount>> {
        let rows = sqlx::query(query_file!("sqlite/count_by_status.sql"))
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .map(|r| {
                Ok(QueueCount {
                    kind: OrUnknown::read(r.try_get("job_type")?),
                    status: OrUnknown::read(r.try_get("status")?),
                    count: r.try_get("n")?,
                })
            })
            .collect::<sqlx::Result<_>>()?)
    }

    async fn failed_jobs(&self, limit: usize) -> QueueResult<Vec<JobRecord>> {
        const SQL: &str = concat!(
            select_jobs!(),
            " WHERE status = 'Killed' OR (status = 'Failed' AND attempts >= max_attempts)
              ORDER BY done_at DESC, id LIMIT $1",
        );
        let rows = sqlx::query(SQL)
            .bind(limit as i64)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(record).collect::<sqlx::Result<_>>()?)
    }

    async fn list_jobs(&self, filter: &JobFilter) -> QueueResult<Vec<JobRecord>> {
        let state = filter.state.map_or("1", status::sql_condition);
        let sql = format!(
            "{} WHERE ($1 IS NULL OR job_type = $1) AND {state} ORDER BY id DESC LIMIT $2",
            select_jobs!()
        );
        // Only the fixed conditions of a closed enum are spliced in.
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(filter.kind.map(JobKind::queue_name))
            .bind(filter.limit as i64)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(record).collect::<sqlx::Result<_>>()?)
    }

    async fn state_counts(&self) -> QueueResult<Vec<StateCount>> {
        const SQL: &str = concat!(
            "SELECT job_type, ",
            state_case!(),
            " AS state, count(*) AS n FROM Jobs GROUP BY 1, 2 ORDER BY 1, 2"
        );
        let rows = sqlx::query(SQL).fetch_all(&self.pool).await?;
        rows.iter().map(state_count).collect()
    }

    async fn retry_job(&self, job_id: &str) -> QueueResult<bool> {
        let mut tx = cosmo_graph_sqlite::begin_write(&self.pool).await?;
        let done = sqlx::query(query_file!("sqlite/retry_job.sql"))
            .bind(job_id)
            .execute(&mut *tx)
            .await?
            .rows_affected()
            == 1;
        if done {
            // A finished run's lease would end the revived job without running it.
            sqlx::query(super::lease::DELETE_JOB_LEASE)
                .bind(job_id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(done)
    }

    async fn retry_dead(&self, kind: Option<JobKind>) -> QueueResult<u64> {
        const SQL: &str = concat!(
            "UPDATE Jobs SET status = 'Pending', attempts = 0, run_at = strftime('%s', 'now'),
                lock_by = NULL, lock_at = NULL, done_at = NULL
             WHERE ($1 IS NULL OR job_type = $1) AND ",
            state_condition!(dead)
        );
        let done = sqlx::query(SQL)
            .bind(kind.map(JobKind::queue_name))
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }

    async fn forget_workers(&self, silent_for: std::time::Duration) -> QueueResult<u64> {
        let silent = silent_for.as_secs() as i64;
        let mut tx = cosmo_graph_sqlite::begin_write(&self.pool).await?;
        sqlx::query(query_file!("sqlite/unlock_silent_workers_jobs.sql"))
            .bind(silent)
            .execute(&mut *tx)
            .await?;
        let forgotten = sqlx::query(query_file!("sqlite/forget_silent_workers.sql"))
            .bind(silent)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        sqlx::query(query_file!("sqlite/delete_stale_leases.sql"))
            .bind(silent)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(forgotten)
    }

    async fn forget_done_jobs(
        &self,
        kept_for: std::time::Duration,
        limit: usize,
    ) -> QueueResult<u64> {
        let done = sqlx::query(query_file!("sqlite/forget_done_jobs.sql"))
            .bind(i64::try_from(kept_for.as_secs()).unwrap_or(i64::MAX))
            .bind(i64::try_from(limit).unwrap_or(i64::MAX))
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }

    async fn purge_about(&self, source_keys: &[String], user_id: Option<&str>) -> QueueResult<u64> {
        let mut tx = cosmo_graph_sqlite::begin_write(&self.pool).await?;
        let mut n = 0;
        for key in source_keys {
            n += sqlx::query(query_file!("sqlite/purge_source_jobs.sql"))
                .bind(key)
                .execute(&mut *tx)
                .await?
                .rows_affected();
        }
        if let Some(user) = user_id {
            n += sqlx::query(
                // The key is `<source key>:<user>`; source keys never hold ':', user ids
                // may, so the user is everything after the first ':'.
                query_file!("sqlite/purge_user_extractions.sql"),
            )
            .bind(crate::JobKind::ExtractEntities.queue_name())
            .bind(user)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        }
        tx.commit().await?;
        Ok(n)
    }
}

fn epoch(row: &SqliteRow, col: &str) -> sqlx::Result<Option<DateTime<Utc>>> {
    Ok(row
        .try_get::<Option<i64>, _>(col)?
        .and_then(|s| DateTime::from_timestamp(s, 0)))
}

fn record(r: &SqliteRow) -> sqlx::Result<JobRecord> {
    let payload: Option<String> = r.try_get("payload")?;
    Ok(JobRecord {
        job_id: r.try_get("id")?,
        kind: OrUnknown::read(r.try_get("job_type")?),
        status: OrUnknown::read(r.try_get("status")?),
        attempts: r.try_get("attempts")?,
        max_attempts: r.try_get("max_attempts")?,
        run_at: epoch(r, "run_at")?,
        done_at: epoch(r, "done_at")?,
        idempotency_key: r.try_get("idempotency_key")?,
        last_error: r.try_get("last_error")?,
        lock_by: r.try_get("lock_by")?,
        payload: payload.and_then(|p| serde_json::from_str(&p).ok()),
    })
}

fn state_count(r: &SqliteRow) -> QueueResult<StateCount> {
    let state: String = r.try_get("state")?;
    Ok(StateCount {
        kind: OrUnknown::read(r.try_get("job_type")?),
        state: state.parse().map_err(anyhow::Error::from)?,
        count: r.try_get("n")?,
    })
}
