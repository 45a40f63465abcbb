//! # cosmo-shared
//!
//! The library every Cosmo binary uses. Binaries only wire things up; everything they
//! run lives here or in the `workers`, `ingest-api` and `scheduler` libraries.
//!
//! * [`domain`] — the vocabulary: Sources, semantic nodes, notes, extraction writes, and
//!   the checked input values the API turns request bodies into.
//! * [`graph`] — what a graph store does ([`graph::ports`], one trait per concern) and its two adapters.
//! * [`queue`] — the job queue interface over apalis (SQLite and Postgres), job kinds and
//!   their retry policies, and the worker runtime.
//! * [`directory`] — tenants, API keys and users (the project's own SQL tables).
//! * [`sessions`] — the live session buffer: chat turns kept as working memory and
//!   compressed into `conversation` Sources, exactly once.
//! * [`llm`] — language-model and embedding traits, and the offline provider.
//! * [`config`], [`clock`], [`ids`] — configuration, time, identifiers.
//! * [`telemetry`], [`metrics`] — logs and trace export; Prometheus metrics.
//! * [`http`] — every outgoing HTTP client, with TLS's crypto provider (ring) installed.
//! * [`exit`] — how the binaries' `main`s report an error (its message, no backtrace).

pub mod cleanup;
pub mod clock;
pub mod config;
pub mod db;
pub mod directory;
pub mod domain;
pub mod erasure;
pub mod exit;
pub mod graph;
pub mod http;
pub mod ids;
pub mod job_runs;
pub mod lifecycle;
pub mod llm;
pub mod metrics;
pub mod pipeline;
pub mod queue;
pub mod retrieval;
pub mod services;
pub mod sessions;
pub mod stats;
pub mod telemetry;
pub mod usage;
