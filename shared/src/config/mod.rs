//! Typed, layered configuration: defaults → TOML file → `COSMO_…` environment
//! variables (nested keys joined by `__`, e.g. `COSMO_DATABASE__URL`,
//! `COSMO_JOBS__EXTRACT_ENTITIES__CONCURRENCY`). Secrets are never printed: `Debug`
//! of the config redacts them.

use std::path::{Path, PathBuf};

use figment::Figment;
use figment::providers::{Env, Format, Serialized, Toml};
use serde::{Deserialize, Serialize};

mod graph;
mod maintenance;
mod models;
mod retrieval;
mod sessions;
#[cfg(test)]
mod tests;

pub use crate::lifecycle::LifecycleParams;
pub use cosmo_queue::JobsConfig;
pub use cosmo_queue::config::QueueConfig;
pub use cosmo_telemetry::config::{LogConfig, LogFormat, TelemetryConfig};
pub use graph::{GraphBackend, GraphConfig, Neo4jConfig};
pub use maintenance::{MaintenanceConfig, SchedulerConfig, parse_cron};
pub use models::{LocalConfig, ModelsConfig, OpenAiConfig, Provider, ProvidersConfig};
pub use retrieval::{ContextShares, RetrievalConfig};
pub use sessions::SessionsConfig;

#[derive(Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    pub server: ServerConfig,
    pub database: DatabaseConfig,
    pub graph: GraphConfig,
    pub queue: QueueConfig,
    pub jobs: JobsConfig,
    pub workers: WorkersConfig,
    pub auth: AuthConfig,
    pub models: ModelsConfig,
    pub reconciler: ReconcilerConfig,
    pub scheduler: SchedulerConfig,
    pub lifecycle: LifecycleParams,
    pub maintenance: MaintenanceConfig,
    pub retrieval: RetrievalConfig,
    pub sessions: SessionsConfig,
    pub log: LogConfig,
    pub telemetry: TelemetryConfig,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ServerConfig {
    /// Address the HTTP API listens on.
    pub bind: String,
    /// Largest accepted request body; larger ones get 413.
    pub body_limit_bytes: usize,
    /// A connection that has not sent a whole request head (request line and headers)
    /// within this many seconds of starting one, or of its previous request, is closed.
    pub header_read_timeout_secs: u64,
    /// A request whose body has not fully arrived within this many seconds of its head
    /// gets 408 and its connection is closed.
    pub body_read_timeout_secs: u64,
    /// Requests one API key may have in flight at once; more get 429.
    pub max_concurrent_per_key: usize,
    /// An `/api/…` request not answered within this many seconds gets 503 with
    /// `Retry-After` (a store that hangs: a held SQLite write lock, a PostgreSQL that
    /// takes no connections), and its work is dropped. Longer than
    /// `body_read_timeout_secs`, so a slow body still gets its 408.
    pub request_timeout_secs: u64,
    /// On SQLite: how long an API request's write waits for the lock another writer
    /// holds before the request answers 503 (jobs wait 30 s).
    pub lock_wait_ms: u64,
}

#[derive(Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DatabaseConfig {
    /// `sqlite://path.db` (embedded default) or `postgres://…` (production): holds the
    /// job queue and the directory (tenants, API keys, users).
    pub url: String,
    pub max_connections: u32,
    /// PostgreSQL: how long a request for a connection may wait (for a free one, or for
    /// the server to take a new one) before it fails; an API request then answers 503.
    /// A database that is down is noticed this fast.
    pub acquire_timeout_ms: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WorkersConfig {
    /// Job kinds this process serves; empty means all.
    pub jobs: Vec<String>,
    /// Name prefix of this process's workers; a random suffix keeps names unique.
    pub name: Option<String>,
    /// How long a stopping worker waits for in-flight jobs before giving them back.
    pub shutdown_timeout_secs: u64,
    /// Port of the worker's health endpoint (0 = none).
    pub health_port: u16,
    /// Artificial delay at the start of every job. For fault-injection tests (killing a
    /// worker mid-job); keep 0 in production.
    pub job_delay_ms: u64,
}

#[derive(Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AuthConfig {
    /// An API key to register at start (hashed) for `bootstrap_tenant`. Unset: the
    /// embedded server creates one on first start and prints it once.
    pub bootstrap_key: Option<String>,
    pub bootstrap_tenant: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ReconcilerConfig {
    /// A Source or extraction untouched this long with no job is re-enqueued.
    pub stuck_after_secs: u64,
    /// At most this many re-enqueues per run.
    pub batch_size: usize,
}

impl Default for ServerConfig {
    fn default() -> Self {
        Self {
            bind: "127.0.0.1:8080".into(),
            body_limit_bytes: 2 * 1024 * 1024,
            header_read_timeout_secs: 30,
            body_read_timeout_secs: 30,
            max_concurrent_per_key: 64,
            request_timeout_secs: 60,
            lock_wait_ms: 1500,
        }
    }
}

impl Default for DatabaseConfig {
    fn default() -> Self {
        Self {
            url: "sqlite://cosmo-data/cosmo.db".into(),
            max_connections: 20,
            acquire_timeout_ms: 1500,
        }
    }
}

impl Default for WorkersConfig {
    fn default() -> Self {
        Self {
            jobs: Vec::new(),
            name: None,
            shutdown_timeout_secs: 20,
            health_port: 0,
            job_delay_ms: 0,
        }
    }
}

impl Default for AuthConfig {
    fn default() -> Self {
        Self {
            bootstrap_key: None,
            bootstrap_tenant: "default".into(),
        }
    }
}

impl Default for ReconcilerConfig {
    fn default() -> Self {
        Self {
            stuck_after_secs: 120,
            batch_size: 500,
        }
    }
}

/// The top-level sections, as `COSMO_<SECTION>__…` variables name them: every field of
/// [`Config`], read off its serialised defaults so a new section cannot be forgotten.
fn sections() -> Vec<String> {
    match serde_json::to_value(Config::default()) {
        Ok(serde_json::Value::Object(fields)) => fields.keys().cloned().collect(),
        _ => Vec::new(),
    }
}

impl Config {
    /// Defaults, then `file` (if given, it must exist; else `cosmo.toml` if present),
    /// then `COSMO_…` variables.
    pub fn load(file: Option<&Path>) -> anyhow::Result<Self> {
        let mut figment = Figment::from(Serialized::defaults(Config::default()));
        match file {
            Some(path) => {
                anyhow::ensure!(
                    path.exists(),
                    "config file {} does not exist",
                    path.display()
                );
                figment = figment.merge(Toml::file(path));
            }
            None if Path::new("cosmo.toml").exists() => {
                figment = figment.merge(Toml::file("cosmo.toml"))
            }
            None => {}
        }
        let sections = sections();
        let figment = figment.merge(Env::prefixed("COSMO_").split("__").filter(move |key| {
            // Only variables naming a section are settings; others (COSMO_CONFIG, test
            // tooling) are not ours to refuse. Typos inside a section are still refused.
            let key = key.as_str().to_ascii_lowercase();
            let section = key.split(['.', '_']).next().unwrap_or_default();
            sections.iter().any(|s| s == section)
        }));
        let config: Config = figment
            .extract()
            .map_err(|e| anyhow::anyhow!("invalid configuration: {e}"))?;
        config.validate()?;
        Ok(config)
    }

    fn validate(&self) -> anyhow::Result<()> {
        crate::db::DbUrl::parse(&self.database.url)?;
        anyhow::ensure!(
            self.server.body_limit_bytes >= 1024,
            "server.body_limit_bytes must be at least 1024"
        );
        anyhow::ensure!(
            self.server.header_read_timeout_secs >= 1 && self.server.body_read_timeout_secs >= 1,
            "server.header_read_timeout_secs and server.body_read_timeout_secs must be at least 1"
        );
        anyhow::ensure!(
            self.server.max_concurrent_per_key >= 1,
            "server.max_concurrent_per_key must be at least 1"
        );
        anyhow::ensure!(
            self.server.request_timeout_secs >= 1,
            "server.request_timeout_secs must be at least 1"
        );
        self.models.validate()?;
        self.graph.validate()?;
        self.lifecycle.validate()?;
        self.scheduler.validate()?;
        self.maintenance.validate()?;
        self.retrieval.validate()?;
        self.sessions.validate()?;
        anyhow::ensure!(
            self.queue.heartbeat_secs > 0,
            "queue.heartbeat_secs must be positive"
        );
        let orphaned_after = self.queue.heartbeat_secs * self.queue.missed_heartbeats as u64;
        anyhow::ensure!(
            self.workers.shutdown_timeout_secs < orphaned_after,
            "workers.shutdown_timeout_secs ({}) must be below queue.heartbeat_secs × queue.missed_heartbeats ({orphaned_after}): \
             a stopping worker sends no heartbeats, and its jobs would run twice",
            self.workers.shutdown_timeout_secs
        );
        let kept_hours = u64::from(self.queue.keep_done_days) * 24;
        anyhow::ensure!(
            self.queue.keep_done_days == 0 || kept_hours > self.scheduler.catch_up_hours,
            "queue.keep_done_days ({}) must be 0 or longer than scheduler.catch_up_hours ({} h): \
             a slot whose finished job was deleted would be caught up and run again",
            self.queue.keep_done_days,
            self.scheduler.catch_up_hours
        );
        for kind in &self.workers.jobs {
            kind.parse::<crate::queue::JobKind>()
                .map_err(|e| anyhow::anyhow!("workers.jobs: {e}"))?;
        }
        self.telemetry.validate()?;
        self.jobs.validate()
    }

    /// The SQLite graph file this configuration uses.
    pub fn graph_sqlite_path(&self) -> PathBuf {
        if let Some(path) = &self.graph.sqlite_path {
            return path.clone();
        }
        match crate::db::DbUrl::parse(&self.database.url) {
            Ok(crate::db::DbUrl::Sqlite(path)) => path,
            _ => PathBuf::from("cosmo-data/graph.db"),
        }
    }
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("server", &self.server)
            .field("database", &self.database)
            .field("graph", &self.graph)
            .field("queue", &self.queue)
            .field("jobs", &self.jobs)
            .field("workers", &self.workers)
            .field("auth", &self.auth)
            .field("models", &self.models)
            .field("reconciler", &self.reconciler)
            .field("scheduler", &self.scheduler)
            .field("lifecycle", &self.lifecycle)
            .field("maintenance", &self.maintenance)
            .field("retrieval", &self.retrieval)
            .field("sessions", &self.sessions)
            .field("log", &self.log)
            .field("telemetry", &self.telemetry)
            .finish()
    }
}

impl std::fmt::Debug for DatabaseConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DatabaseConfig")
            .field("url", &crate::db::redact(&self.url))
            .field("max_connections", &self.max_connections)
            .field("acquire_timeout_ms", &self.acquire_timeout_ms)
            .finish()
    }
}

impl std::fmt::Debug for AuthConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuthConfig")
            .field("bootstrap_key", &self.bootstrap_key.as_ref().map(|_| "***"))
            .field("bootstrap_tenant", &self.bootstrap_tenant)
            .finish()
    }
}
