//! `[queue]`: how workers look for jobs, how long a silent worker keeps its jobs and how
//! long finished jobs are kept. (Each
//! job kind's attempts, backoff, timeout and concurrency are `[jobs]`: [`JobsConfig`](crate::JobsConfig).)

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct QueueConfig {
    /// How often an idle SQLite worker of a pipeline kind (process-source,
    /// extract-entities) looks for jobs pushed by other processes. (Postgres workers of
    /// those kinds are woken by LISTEN/NOTIFY and poll only as a fallback.)
    pub poll_interval_ms: u64,
    /// How often workers of periodic kinds (reconcile and maintenance) poll, on both
    /// backends; they need no LISTEN connection of their own.
    pub periodic_poll_interval_ms: u64,
    /// Worker heartbeat; a worker silent for `heartbeat_secs × missed_heartbeats` is
    /// dead and its jobs go back to the queue.
    pub heartbeat_secs: u64,
    pub missed_heartbeats: usize,
    /// How long a job that finished (`Done`) is kept before the reconciler deletes it,
    /// in days; 0 keeps them forever. Its idempotency key is free again once it is gone.
    /// Jobs that gave up (`Killed`, or `Failed` with no attempts left) are kept for an
    /// operator whatever this says.
    pub keep_done_days: u32,
}

impl Default for QueueConfig {
    fn default() -> Self {
        Self {
            poll_interval_ms: 250,
            periodic_poll_interval_ms: 5000,
            heartbeat_secs: 10,
            missed_heartbeats: 3,
            keep_done_days: 14,
        }
    }
}
