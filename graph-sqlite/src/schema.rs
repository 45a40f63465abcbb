//! The store's schema (its own migrations, `migrations/sqlite-graph/`) and health.

use async_trait::async_trait;
use cosmo_core::graph::{GraphResult, StoreAdmin};
use cosmo_core::query_file;

use super::SqliteGraph;

/// Graph tables have their own migrations table, so the same file can hold the queue's
/// and the directory's migrations too.
const MIGRATIONS_TABLE: &str = "cosmo_graph_migrations";

#[async_trait]
impl StoreAdmin for SqliteGraph {
    fn backend(&self) -> &'static str {
        "sqlite"
    }

    async fn migrate(&self) -> GraphResult<()> {
        // Decay's statements need SQLite's math functions, compiled in through
        // `LIBSQLITE3_FLAGS` (the workspace's `.cargo/config.toml`).
        sqlx::query(query_file!("schema/check_math_functions.sql"))
            .execute(&self.pool)
            .await
            .map_err(|e| {
                anyhow::anyhow!(
                    "this build's SQLite lacks its math functions ({e}); build Cosmo from its \
                     workspace, whose .cargo/config.toml sets \
                     LIBSQLITE3_FLAGS=-DSQLITE_ENABLE_MATH_FUNCTIONS"
                )
            })?;
        let mut migrator = sqlx::migrate!("../migrations/sqlite-graph");
        migrator.dangerous_set_table_name(MIGRATIONS_TABLE);
        migrator
            .run(&self.pool)
            .await
            .map_err(anyhow::Error::from)?;
        Ok(())
    }

    async fn ping(&self) -> GraphResult<()> {
        sqlx::query(query_file!("schema/ping.sql"))
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
