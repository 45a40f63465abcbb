//! What every store answers before any data: its name, its schema, that it is up.

use async_trait::async_trait;

use crate::graph::GraphResult;

#[async_trait]
pub trait StoreAdmin: Send + Sync {
    /// `sqlite` or `neo4j`, for logs and health checks.
    fn backend(&self) -> &'static str;

    /// Creates tables/constraints/indexes; safe to run at every start.
    async fn migrate(&self) -> GraphResult<()>;

    /// Checks the store answers.
    async fn ping(&self) -> GraphResult<()>;
}
