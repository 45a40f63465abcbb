//! # cosmo-tests
//!
//! Helpers for Cosmo's integration tests (`suite/`): throwaway PostgreSQL databases,
//! services on fresh stores, Sources through the pipeline in-process, the real
//! binaries as child processes, an HTTP client, sample Sources of every type, the local
//! embedding model's files, a Prometheus scrape parser, an OTLP collector stand-in, and
//! MCP clients.

pub mod conversations;
pub mod fixtures;
pub mod http;
pub mod ingest;
pub mod mcp;
pub mod minilm;
pub mod neo4j;
pub mod openai;
pub mod otlp;
pub mod pg;
pub mod process;
pub mod prometheus;
pub mod stores;
pub mod traces;

use std::future::Future;
use std::time::{Duration, Instant};

/// Polls `check` until it yields `Some`, or fails after `timeout` with `what`.
pub async fn wait_for<T, F, Fut>(what: &str, timeout: Duration, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Option<T>>,
{
    let start = Instant::now();
    loop {
        if let Some(v) = check().await {
            return v;
        }
        assert!(
            start.elapsed() < timeout,
            "timed out after {timeout:?} waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
