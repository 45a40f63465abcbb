//! # cosmo-shared
//!
//! What every Cosmo process runs on: its configuration, the [`services`] it builds once
//! (stores, queue, models, clock: the composition root), the directory of tenants, keys
//! and users, the usage ledger and the session store; and the crates below it
//! re-exported under the names the rest of the code uses (`cosmo-core`, `cosmo-models`,
//! `cosmo-queue`, `cosmo-telemetry`, the two graph stores). What Cosmo *does* with them
//! (the pipeline's steps, retrieval, erasure) is `cosmo-pipeline`, above this crate.
//!
//! * [`domain`], [`clock`], [`ids`], [`lifecycle`] — `cosmo-core`'s, re-exported: the
//!   vocabulary, time, identifiers and the lifecycle maths.
//! * [`graph`] — what a graph store does ([`graph::ports`], one trait per concern, from
//!   `cosmo-core`) and its two adapters (the crates `cosmo-graph-sqlite` and
//!   `cosmo-graph-neo4j`), under one name.
//! * [`queue`], [`job_runs`] — `cosmo-queue`'s, re-exported: the job queue interface
//!   over apalis (SQLite and Postgres) and the worker runtime (the job kinds, their
//!   retry policies and payloads are `cosmo-core`'s `jobs`); the record of job runs.
//! * [`db`] — the relational database the queue shares with the directory
//!   (`cosmo-queue`'s), and what counts as a store outage.
//! * [`directory`] — tenants, API keys and users (the project's own SQL tables).
//! * [`sessions`] — the live session buffer's store: chat turns kept as working memory
//!   and claimed in chunks exactly once (`cosmo-pipeline` posts a chunk as a Source).
//! * [`usage`] — the usage ledger: tokens per model call.
//! * [`llm`] — language-model and embedding traits and their providers (`cosmo-models`),
//!   counted in the metrics.
//! * [`config`] — configuration.
//! * [`telemetry`], [`metrics`] — `cosmo-telemetry`'s, re-exported: logs and trace
//!   export; Prometheus metrics.
//! * [`http`], [`cleanup`] — `cosmo-models`', re-exported: every outgoing HTTP client, with
//!   TLS's crypto provider (ring) installed; the rendering of raw content for the models.
//! * [`exit`] — how the binaries' `main`s report an error (its message, no backtrace).

pub use cosmo_core::{clock, domain, ids, lifecycle};
pub use cosmo_models::{cleanup, http};
pub use cosmo_queue::{self as queue, job_runs};
pub use cosmo_telemetry::{self as telemetry, metrics};

pub mod config;
pub mod db;
pub mod directory;
pub mod exit;
pub mod graph;
pub mod llm;
pub mod services;
pub mod sessions;
pub mod usage;
