//! The record of maintenance runs: what each did, for how long, for which as-of time.

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::JobKind;
use crate::db::{Db, execute_on, on_db};
use cosmo_core::domain::{OrUnknown, ParseEnumError, string_enum};
use cosmo_core::query_file;

#[derive(Debug, Clone)]
pub struct JobRunLedger {
    db: Db,
}

/// What one run did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RunReport {
    /// Memories (or candidates) looked at.
    pub examined: i64,
    /// Memories written (decayed, promoted, refreshed, consolidated, removed).
    pub changed: i64,
    /// Memories that became archived.
    pub archived: i64,
    /// Per-kind numbers, e.g. `{"node": 120, "source": 30}`.
    pub details: serde_json::Map<String, serde_json::Value>,
}

impl RunReport {
    pub fn add(&mut self, key: &str, n: i64) {
        let entry = self
            .details
            .entry(key.to_owned())
            .or_insert(serde_json::Value::from(0));
        *entry = serde_json::Value::from(entry.as_i64().unwrap_or(0) + n);
    }
}

/// How a run ended. Only Cosmo writes `cosmo_job_runs`, and only these two values: a
/// row holding anything else fails to read, naming the value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RunStatus {
    Succeeded,
    Failed,
}

string_enum!(RunStatus {
    Succeeded = "succeeded",
    Failed = "failed",
});

impl RunStatus {
    /// How a run that came to `result` ended.
    pub fn of<T, E>(result: &Result<T, E>) -> Self {
        if result.is_ok() {
            Self::Succeeded
        } else {
            Self::Failed
        }
    }
}

/// For `#[sqlx(try_from = "String")]`.
impl TryFrom<String> for RunStatus {
    type Error = ParseEnumError;

    fn try_from(stored: String) -> Result<Self, Self::Error> {
        stored.parse()
    }
}

/// Compares the wire name (`run.status == "succeeded"`).
impl PartialEq<&str> for RunStatus {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// One recorded run.
#[derive(Debug, Clone, PartialEq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct JobRun {
    pub run_id: String,
    // Unknown if another version of Cosmo recorded it (a kind added since).
    #[sqlx(try_from = "String")]
    #[schema(value_type = String)]
    pub job_kind: OrUnknown<JobKind>,
    pub job_id: Option<String>,
    pub as_of: DateTime<Utc>,
    pub started_at: DateTime<Utc>,
    pub finished_at: DateTime<Utc>,
    pub duration_ms: i64,
    pub examined: i64,
    pub changed: i64,
    pub archived: i64,
    /// `succeeded` or `failed`.
    // Documented as a plain string, as it always was.
    #[schema(value_type = String)]
    #[sqlx(try_from = "String")]
    pub status: RunStatus,
    pub error: Option<String>,
    /// JSON object of per-kind numbers.
    pub details: String,
}

impl JobRunLedger {
    pub fn new(db: Db) -> Self {
        Self { db }
    }

    pub async fn record(&self, run: &JobRun) -> anyhow::Result<()> {
        const SQL: &str = query_file!("job_runs/insert_run.sql");
        execute_on!(&self.db, pool => sqlx::query(SQL)
            .bind(&run.run_id).bind(run.job_kind.as_str()).bind(&run.job_id).bind(run.as_of).bind(run.started_at)
            .bind(run.finished_at).bind(run.duration_ms).bind(run.examined).bind(run.changed).bind(run.archived)
            .bind(run.status.as_str()).bind(&run.error).bind(&run.details))?;
        Ok(())
    }

    /// Newest first, optionally of one kind.
    pub async fn recent(&self, kind: Option<JobKind>, limit: usize) -> anyhow::Result<Vec<JobRun>> {
        const SQL: &str = query_file!("job_runs/recent_runs.sql");
        Ok(
            on_db!(&self.db, pool => sqlx::query_as(SQL).bind(kind.map(JobKind::as_str)).bind(limit as i64).fetch_all(pool).await)?,
        )
    }
}
