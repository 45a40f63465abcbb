//! The queue on PostgreSQL (`apalis-postgres`): production. Workers are woken by
//! LISTEN/NOTIFY on insert and poll as a fallback (retries and delayed jobs send no
//! notification).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use sqlx::postgres::PgRow;
use sqlx::{PgPool, Row};

use super::{
    Enqueued, JobFilter, JobKind, JobQueue, JobRecord, JobsConfig, NewJob, QueueCount, QueueResult,
    StateCount, state_case, state_condition, status,
};
use cosmo_core::domain::OrUnknown;
use cosmo_core::query_file;

#[derive(Debug, Clone)]
pub struct PostgresQueue {
    pool: PgPool,
    jobs: JobsConfig,
}

macro_rules! select_jobs {
    () => {
        "SELECT id, job_type, status, attempts::BIGINT AS attempts, max_attempts::BIGINT AS max_attempts,
            run_at, done_at, idempotency_key, last_result->>'Err' AS last_error, lock_by,
            convert_from(job, 'UTF8') AS payload FROM apalis.jobs"
    };
}

impl PostgresQueue {
    pub fn new(pool: PgPool, jobs: JobsConfig) -> Self {
        Self { pool, jobs }
    }

    pub fn pool(&self) -> &PgPool {
        &self.pool
    }
}

/// apalis-postgres enforces idempotency keys with a unique index; a second insert fails.
fn is_duplicate(e: &apalis_postgres::Error) -> bool {
    match e {
        apalis_postgres::Error::Database(sqlx::Error::Database(db)) => {
            db.code().as_deref() == Some("23505")
                && db.constraint() == Some("idx_jobs_idempotency_key")
        }
        _ => false,
    }
}

#[async_trait]
impl JobQueue for PostgresQueue {
    fn backend(&self) -> &'static str {
        "postgres"
    }

    async fn migrate(&self) -> QueueResult<()> {
        // apalis keeps its history in `apalis._sqlx_migrations`; it needs the hstore
        // extension (created by its migrations, so the role needs that privilege once).
        let mut migrator = apalis_postgres::PostgresStorage::<()>::migrations();
        migrator.set_ignore_missing(true);
        migrator
            .run(&self.pool)
            .await
            .map_err(anyhow::Error::from)?;
        // Processes start together: the lock makes the second `CREATE` wait, not fail.
        let mut tx = self.pool.begin().await?;
        sqlx::query(query_file!("postgres/lock_lease_table.sql"))
            .execute(&mut *tx)
            .await?;
        sqlx::query(super::lease::SCHEMA).execute(&mut *tx).await?;
        // What the reconciler deletes once kept long enough (`forget_done_jobs`), found
        // without reading every job.
        sqlx::query(query_file!("postgres/index_done_jobs.sql"))
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn ping(&self) -> QueueResult<()> {
        sqlx::query(query_file!("postgres/ping.sql"))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn enqueue(&self, job: NewJob) -> QueueResult<Enqueued> {
        let (id, task) = super::runtime::build_task(&job, self.jobs.get(job.kind))?;
        let mut conn = self.pool.acquire().await?;
        match apalis_postgres::queries::push_tasks(&mut *conn, job.kind.queue_name(), vec![task])
            .await
        {
            Ok(()) => Ok(Enqueued::Created { job_id: id }),
            Err(e) if is_duplicate(&e) => {
                let key = job.idempotency_key.unwrap_or_default();
                let existing = self
                    .job_by_key(job.kind, &key)
                    .await?
                    .map(|j| j.job_id)
                    .unwrap_or_default();
                Ok(Enqueued::Duplicate { job_id: existing })
            }
            Err(apalis_postgres::Error::Database(e)) => Err(e.into()),
            Err(e) => Err(anyhow::anyhow!("enqueueing {}: {e}", job.kind).into()),
        }
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
        let rows = sqlx::query(query_file!("postgres/count_by_status.sql"))
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
              ORDER BY done_at DESC NULLS LAST, id LIMIT $1"
        );
        let rows = sqlx::query(SQL)
            .bind(limit as i64)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(record).collect::<sqlx::Result<_>>()?)
    }

    async fn list_jobs(&self, filter: &JobFilter) -> QueueResult<Vec<JobRecord>> {
        let state = filter.state.map_or("TRUE", status::sql_condition);
        let sql = format!(
            "{} WHERE ($1::TEXT IS NULL OR job_type = $1) AND {state} ORDER BY id DESC LIMIT $2",
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
            " AS state, count(*) AS n FROM apalis.jobs GROUP BY 1, 2 ORDER BY 1, 2"
        );
        let rows = sqlx::query(SQL).fetch_all(&self.pool).await?;
        rows.iter().map(state_count).collect()
    }

    async fn retry_job(&self, job_id: &str) -> QueueResult<bool> {
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(query_file!("postgres/retry_job.sql"))
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
            "UPDATE apalis.jobs SET status = 'Pending', attempts = 0, run_at = now(),
                lock_by = NULL, lock_at = NULL, done_at = NULL
             WHERE ($1::TEXT IS NULL OR job_type = $1) AND ",
            state_condition!(dead)
        );
        let done = sqlx::query(SQL)
            .bind(kind.map(JobKind::queue_name))
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }

    async fn forget_workers(&self, silent_for: std::time::Duration) -> QueueResult<u64> {
        let silent = silent_for.as_secs_f64();
        let mut tx = self.pool.begin().await?;
        sqlx::query(query_file!("postgres/unlock_silent_workers_jobs.sql"))
            .bind(silent)
            .execute(&mut *tx)
            .await?;
        let forgotten = sqlx::query(query_file!("postgres/forget_silent_workers.sql"))
            .bind(silent)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        sqlx::query(query_file!("postgres/delete_stale_leases.sql"))
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
        let done = sqlx::query(query_file!("postgres/forget_done_jobs.sql"))
            .bind(kept_for.as_secs_f64())
            .bind(i64::try_from(limit).unwrap_or(i64::MAX))
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }

    async fn purge_about(&self, source_keys: &[String], user_id: Option<&str>) -> QueueResult<u64> {
        let mut tx = self.pool.begin().await?;
        let mut n = sqlx::query(query_file!("postgres/purge_source_jobs.sql"))
            .bind(source_keys)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if let Some(user) = user_id {
            n += sqlx::query(
                // The key is `<source key>:<user>`; source keys never hold ':', user ids
                // may, so the user is everything after the first ':'.
                query_file!("postgres/purge_user_extractions.sql"),
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

fn record(r: &PgRow) -> sqlx::Result<JobRecord> {
    let payload: Option<String> = r.try_get("payload")?;
    Ok(JobRecord {
        job_id: r.try_get("id")?,
        kind: OrUnknown::read(r.try_get("job_type")?),
        status: OrUnknown::read(r.try_get("status")?),
        attempts: r.try_get("attempts")?,
        max_attempts: r.try_get("max_attempts")?,
        run_at: r.try_get::<Option<DateTime<Utc>>, _>("run_at")?,
        done_at: r.try_get::<Option<DateTime<Utc>>, _>("done_at")?,
        idempotency_key: r.try_get("idempotency_key")?,
        last_error: r.try_get("last_error")?,
        lock_by: r.try_get("lock_by")?,
        payload: payload.and_then(|p| serde_json::from_str(&p).ok()),
    })
}

fn state_count(r: &PgRow) -> QueueResult<StateCount> {
    let state: String = r.try_get("state")?;
    Ok(StateCount {
        kind: OrUnknown::read(r.try_get("job_type")?),
        state: state.parse().map_err(anyhow::Error::from)?,
        count: r.try_get("n")?,
    })
}
