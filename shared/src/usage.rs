//! The usage ledger: tokens per model call, by tenant, user and job kind, so operators
//! see what memory costs and whom (`GET /api/admin/usage`).

use chrono::{DateTime, Utc};
use cosmo_core::query_file;
use serde::Serialize;

use crate::clock::Clock;
use crate::db::{Db, execute_on, on_db};
use crate::directory::Directory;
use crate::llm::Usage;

#[derive(Debug, Clone)]
pub struct UsageLedger {
    db: Db,
}

/// Who a model call was for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Meter {
    pub tenant_id: String,
    pub user_id: String,
    pub job_kind: String,
}

/// What recording a model call needs: the ledger, the directory (the ledger files a call
/// under the user's tenant) and the clock. A job or a request meters its calls through one.
#[derive(Debug, Clone, Copy)]
pub struct Metering<'a> {
    pub ledger: &'a UsageLedger,
    pub directory: &'a Directory,
    pub clock: &'a dyn Clock,
}

impl Metering<'_> {
    /// Records one model call made for `user_id` under `activity`: a job kind, or the
    /// name of a request (`explore`, `context`: embedding the query). A user the
    /// directory does not know is filed under the tenant `unknown`.
    pub async fn record(&self, activity: &str, user_id: &str, usage: &Usage) -> anyhow::Result<()> {
        let tenant_id = self
            .directory
            .user(user_id)
            .await?
            .map_or_else(|| "unknown".to_owned(), |u| u.tenant_id);
        let meter = Meter {
            tenant_id,
            user_id: user_id.to_owned(),
            job_kind: activity.to_owned(),
        };
        self.ledger.record(&meter, usage, self.clock.now()).await
    }
}

/// Tokens summed over a group of calls.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct UsageSum {
    pub tenant_id: String,
    #[serde(serialize_with = "crate::ids::serialize_user_id")]
    pub user_id: String,
    pub job_kind: String,
    pub calls: i64,
    pub prompt_tokens: i64,
    pub completion_tokens: i64,
}

impl UsageLedger {
    pub fn new(db: Db) -> Self {
        Self { db }
    }

    pub async fn record(
        &self,
        meter: &Meter,
        usage: &Usage,
        at: DateTime<Utc>,
    ) -> anyhow::Result<()> {
        const SQL: &str = query_file!("usage/insert_usage.sql");
        let id = ulid::Ulid::generate().to_string();
        execute_on!(&self.db, pool => sqlx::query(SQL)
            .bind(&id).bind(&meter.tenant_id).bind(&meter.user_id).bind(&meter.job_kind)
            .bind(&usage.provider).bind(&usage.model)
            .bind(usage.prompt_tokens as i64).bind(usage.completion_tokens as i64).bind(at))?;
        Ok(())
    }

    /// Deletes every usage row of a user (erasure). Returns how many.
    pub async fn delete_user(&self, user_id: &str) -> anyhow::Result<u64> {
        const SQL: &str = query_file!("usage/delete_user.sql");
        Ok(execute_on!(&self.db, pool => sqlx::query(SQL).bind(user_id))?)
    }

    /// Sums per (tenant, user, job kind) of calls in `[from, to)`, for one tenant or all.
    pub async fn summary(
        &self,
        tenant_id: Option<&str>,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> anyhow::Result<Vec<UsageSum>> {
        const SQL: &str = query_file!("usage/summary.sql");
        Ok(
            on_db!(&self.db, pool => sqlx::query_as(SQL).bind(from).bind(to).bind(tenant_id).fetch_all(pool).await)?,
        )
    }
}
