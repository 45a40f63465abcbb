//! # cosmo-pipeline
//!
//! What Cosmo does, above the ports: the pipeline, one step per module, each a plain
//! async function; the worker's dispatcher (`cosmo-workers`) only routes a queued job to
//! its step. A Source goes:
//!
//! 1. [`ingest`] (Phase 0: [`store_source`]): `POST /api/sources` (which `cosmo import`
//!    posts to) and the session buffer store it and queue its `process-source` job;
//!    [`request_extraction`] queues a user's extraction of it ([`request_team_extractions`]
//!    of a participant's team Sources in a batch).
//! 2. [`process_source`] (Phase 1): summary, keywords, passages and their embeddings,
//!    typed links to the Sources before it; then each participant's extraction.
//! 3. [`extract_entities`] with [`plan`] (Phase 2, per Source and user): the user's
//!    entities, relationships, notes and facts, written to their graph.
//!
//! Beside it: [`reconcile`] re-queues work that was stored but never queued or got
//! stuck; [`maintenance`] holds the nightly and weekly jobs (decay, consolidation,
//! Storylines and Macros, causal links, …). [`error`] says whether a failed step is
//! retried; [`metering`] meters each model call to its user.
//!
//! And the rest of what users ask of their memory: [`retrieval`] (explore, context,
//! the Storyline and Macro views), [`erasure`] (a Source or a user, everywhere),
//! [`stats`] (a user's memory in numbers) and [`sessions`] (posting a live session's
//! turns as `conversation` Sources).
//!
//! Each step takes the store ports it uses, its settings and the clock, never the whole
//! process: the jobs as parameters, Phase 0 as an [`Intake`] (Sources, extraction
//! records, queue, clock), retrieval as a [`retrieval::Recall`]. `Intake` and `Recall`
//! convert from the process's `Services` (`cosmo-shared`), the composition root, so a
//! route handler passes `&services`. What takes `Services` itself: erasure
//! ([`erasure::erase_source`], [`erasure::erase_user`]), which reaches every store there
//! is; [`maintenance::run`] and [`maintenance::dry_run`], which hand each maintenance job
//! its ports; and [`metering::ModelCalls::of`], the process's models and ledger.

pub mod erasure;
pub mod error;
pub mod extract_entities;
pub mod ingest;
pub mod maintenance;
pub mod metering;
pub mod plan;
pub mod process_source;
pub mod reconcile;
pub mod retrieval;
pub mod sessions;
pub mod stats;

pub use ingest::{
    Intake, StoreError, enqueue_extraction, request_extraction, request_team_extractions,
    store_source,
};
