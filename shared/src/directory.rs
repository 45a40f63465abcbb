//! The directory: tenants, their API keys (stored hashed) and their users. A user is
//! (tenant, user id): the same id in two tenants is two users with separate memories,
//! and a key never reaches another tenant's users. The rest of Cosmo (the graph, the
//! queue, the usage ledger) knows a user by its graph user id, assigned here when the
//! user is first claimed: the user id itself if no user has it as graph user id yet,
//! else `<tenant>/<user id>` ([`ids::tenant_graph_user_id`]). Lives in the relational
//! database next to the queue.

use chrono::{DateTime, Utc};
use cosmo_core::query_file;
use serde::Serialize;

use std::sync::Arc;

use crate::db::{Db, execute_on, on_db};
use crate::ids;

pub mod recent;

pub use recent::Use;

#[derive(Debug, Clone)]
pub struct Directory {
    db: Db,
    /// Shared by every clone: one process, one memory of verified answers.
    recent: Arc<Answers>,
}

/// The lookups every request makes, verified a moment ago ([`recent`]).
#[derive(Debug, Default)]
struct Answers {
    /// By key hash.
    keys: recent::Recent<String, Caller>,
    /// (tenant, user id) → graph user id.
    graph_user_ids: recent::Recent<(String, String), String>,
    /// Graph user id → tenant.
    tenants: recent::Recent<String, String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct User {
    pub tenant_id: String,
    /// The id the tenant knows the user by.
    pub user_id: String,
    /// The id the graph, the queue and the usage ledger know the user by.
    pub graph_user_id: String,
    pub full_name: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct ApiKeyInfo {
    pub key_id: String,
    pub tenant_id: String,
    pub prefix: String,
    pub label: String,
    /// Admin keys also reach operator endpoints and every tenant's usage.
    pub is_admin: bool,
    pub created_at: DateTime<Utc>,
    pub revoked_at: Option<DateTime<Utc>>,
}

/// Who an API key speaks for.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Caller {
    pub tenant_id: String,
    pub is_admin: bool,
}

/// Directory tables have their own migrations table, so they can share a database with
/// the queue's and the graph's.
const MIGRATIONS_TABLE: &str = "cosmo_migrations";

impl Directory {
    pub fn new(db: Db) -> Self {
        Self {
            db,
            recent: Arc::default(),
        }
    }

    pub async fn migrate(&self) -> anyhow::Result<()> {
        let migrator = self.migrator();
        on_db!(&self.db, pool => migrator.run(pool).await)?;
        Ok(())
    }

    /// Runs the migrations up to `version` only: a database as an older Cosmo left it
    /// (tests of a migration).
    pub async fn migrate_to(&self, version: i64) -> anyhow::Result<()> {
        let migrator = self.migrator();
        on_db!(&self.db, pool => migrator.run_to(version, pool).await)?;
        Ok(())
    }

    fn migrator(&self) -> sqlx::migrate::Migrator {
        let mut migrator = match &self.db {
            Db::Sqlite(_) => sqlx::migrate!("../migrations/sqlite"),
            Db::Postgres(_) => sqlx::migrate!("../migrations/postgres"),
        };
        migrator.dangerous_set_table_name(MIGRATIONS_TABLE);
        migrator
    }

    /// Creates the tenant if it does not exist.
    pub async fn ensure_tenant(&self, tenant_id: &str, at: DateTime<Utc>) -> anyhow::Result<()> {
        const SQL: &str = query_file!("directory/insert_tenant.sql");
        execute_on!(&self.db, pool => sqlx::query(SQL).bind(tenant_id).bind(at))?;
        Ok(())
    }

    /// Creates a new random key for a tenant; the plain key is returned once, only its
    /// hash is kept.
    pub async fn create_api_key(
        &self,
        tenant_id: &str,
        label: &str,
        is_admin: bool,
        at: DateTime<Utc>,
    ) -> anyhow::Result<(String, ApiKeyInfo)> {
        let key = ids::new_api_key();
        let info = self
            .add_api_key(tenant_id, &key, label, is_admin, at)
            .await?;
        Ok((key, info))
    }

    /// Registers a key chosen elsewhere (the configured bootstrap key). Idempotent.
    pub async fn add_api_key(
        &self,
        tenant_id: &str,
        key: &str,
        label: &str,
        is_admin: bool,
        at: DateTime<Utc>,
    ) -> anyhow::Result<ApiKeyInfo> {
        self.ensure_tenant(tenant_id, at).await?;
        let hash = ids::hash_api_key(key);
        const INSERT: &str = query_file!("directory/insert_api_key.sql");
        const SELECT: &str = query_file!("directory/api_key_by_hash.sql");
        let key_id = hash[..16].to_owned();
        let prefix = ids::api_key_prefix(key);
        execute_on!(&self.db, pool => sqlx::query(INSERT)
            .bind(&key_id).bind(tenant_id).bind(&hash).bind(&prefix).bind(label).bind(is_admin).bind(at))?;
        let info: ApiKeyInfo =
            on_db!(&self.db, pool => sqlx::query_as(SELECT).bind(&hash).fetch_one(pool).await)?;
        anyhow::ensure!(
            info.tenant_id == tenant_id,
            "that API key already belongs to another tenant"
        );
        Ok(info)
    }

    /// Who a live key speaks for.
    pub async fn authenticate(&self, key: &str) -> anyhow::Result<Option<Caller>> {
        const SQL: &str = query_file!("directory/caller_by_key_hash.sql");
        let hash = ids::hash_api_key(key);
        Ok(on_db!(&self.db, pool => sqlx::query_as(SQL).bind(&hash).fetch_optional(pool).await)?)
    }

    /// [`Self::authenticate`], answered from a verification of the last few seconds
    /// when there is one ([`recent`]): a key revoked in another process stops working
    /// within [`recent::FRESH`].
    pub async fn authenticate_recent(
        &self,
        key: &str,
        use_: Use,
    ) -> anyhow::Result<Option<Caller>> {
        let hash = ids::hash_api_key(key);
        self.recent
            .keys
            .answer(hash, use_, self.authenticate(key))
            .await
    }

    pub async fn revoke_api_key(&self, key_id: &str, at: DateTime<Utc>) -> anyhow::Result<bool> {
        const SQL: &str = query_file!("directory/revoke_api_key.sql");
        let done = execute_on!(&self.db, pool => sqlx::query(SQL).bind(key_id).bind(at))?;
        // In this process the revocation takes effect at once.
        self.recent.keys.clear();
        Ok(done == 1)
    }

    pub async fn api_keys(&self) -> anyhow::Result<Vec<ApiKeyInfo>> {
        const SQL: &str = query_file!("directory/api_keys.sql");
        Ok(on_db!(&self.db, pool => sqlx::query_as(SQL).fetch_all(pool).await)?)
    }

    /// The user known to the graph as `graph_user_id`.
    pub async fn user(&self, graph_user_id: &str) -> anyhow::Result<Option<User>> {
        const SQL: &str = query_file!("directory/user.sql");
        Ok(
            on_db!(&self.db, pool => sqlx::query_as(SQL).bind(graph_user_id).fetch_optional(pool).await)?,
        )
    }

    /// The user `user_id` of `tenant_id`, if the tenant has used that id.
    pub async fn tenant_user(
        &self,
        tenant_id: &str,
        user_id: &str,
    ) -> anyhow::Result<Option<User>> {
        const SQL: &str = query_file!("directory/tenant_user.sql");
        Ok(
            on_db!(&self.db, pool => sqlx::query_as(SQL).bind(tenant_id).bind(user_id).fetch_optional(pool).await)?,
        )
    }

    /// The graph user id of the user `user_id` of `tenant_id` ([`Self::tenant_user`]),
    /// answered from a recent lookup when there is one ([`recent`]).
    pub async fn graph_user_id_recent(
        &self,
        tenant_id: &str,
        user_id: &str,
        use_: Use,
    ) -> anyhow::Result<Option<String>> {
        let lookup = async {
            let user = self.tenant_user(tenant_id, user_id).await?;
            Ok(user.map(|u| u.graph_user_id))
        };
        self.recent
            .graph_user_ids
            .answer((tenant_id.to_owned(), user_id.to_owned()), use_, lookup)
            .await
    }

    /// The tenant of the user the graph knows as `graph_user_id` ([`Self::user`]),
    /// answered from a recent lookup when there is one ([`recent`]).
    pub async fn tenant_of_recent(
        &self,
        graph_user_id: &str,
        use_: Use,
    ) -> anyhow::Result<Option<String>> {
        let lookup = async { Ok(self.user(graph_user_id).await?.map(|u| u.tenant_id)) };
        self.recent
            .tenants
            .answer(graph_user_id.to_owned(), use_, lookup)
            .await
    }

    /// The graph user id of each of `user_ids` in `tenant_id`, in order ([`Self::claim_user`]).
    pub async fn claim_users(
        &self,
        tenant_id: &str,
        user_ids: &[String],
        at: DateTime<Utc>,
    ) -> anyhow::Result<Vec<String>> {
        let mut graph_user_ids = Vec::with_capacity(user_ids.len());
        for user_id in user_ids {
            graph_user_ids.push(self.claim_user(tenant_id, user_id, at).await?);
        }
        Ok(graph_user_ids)
    }

    /// The graph user id of `user_id` in `tenant_id`; an unknown user becomes a user of
    /// the tenant. Never refused: another tenant's user of the same id is another user.
    pub async fn claim_user(
        &self,
        tenant_id: &str,
        user_id: &str,
        at: DateTime<Utc>,
    ) -> anyhow::Result<String> {
        // `ON CONFLICT DO NOTHING` covers both keys: the tenant's user claimed meanwhile
        // (by a concurrent request), or the bare id taken as graph user id by another
        // tenant's user; the read after the insert tells which.
        const SQL: &str = query_file!("directory/insert_user.sql");
        for graph_user_id in [
            user_id.to_owned(),
            ids::tenant_graph_user_id(tenant_id, user_id),
        ] {
            if let Some(user) = self.tenant_user(tenant_id, user_id).await? {
                return Ok(user.graph_user_id);
            }
            execute_on!(&self.db, pool => sqlx::query(SQL)
                .bind(tenant_id).bind(user_id).bind(&graph_user_id).bind(at))?;
        }
        match self.tenant_user(tenant_id, user_id).await? {
            Some(user) => Ok(user.graph_user_id),
            None => anyhow::bail!("user {user_id} of tenant {tenant_id} could not be registered"),
        }
    }

    /// Forgets a user (erasure): the id may be claimed again afterwards.
    pub async fn delete_user(&self, graph_user_id: &str) -> anyhow::Result<bool> {
        const SQL: &str = query_file!("directory/delete_user.sql");
        let deleted = execute_on!(&self.db, pool => sqlx::query(SQL).bind(graph_user_id))? == 1;
        self.recent.graph_user_ids.clear();
        self.recent.tenants.clear();
        Ok(deleted)
    }

    /// Stores the profile of a user (the caller checked the tenant).
    pub async fn set_profile(
        &self,
        graph_user_id: &str,
        full_name: &str,
        at: DateTime<Utc>,
    ) -> anyhow::Result<()> {
        const SQL: &str = query_file!("directory/set_profile.sql");
        execute_on!(&self.db, pool => sqlx::query(SQL).bind(graph_user_id).bind(full_name).bind(at))?;
        Ok(())
    }
}
