//! # cosmo-workers
//!
//! The jobs of Cosmo's pipeline, as plain async functions over [`Services`] (stores,
//! models, clock), and the worker process that runs them from the queue.
//!
//! * [`process_source`] — Phase 1.
//! * [`extract_entities`] with [`plan`] — Phase 2 per (Source, user).
//! * [`reconcile`] — re-queues stuck work.
//! * [`dispatch`] — routes queue jobs to those functions.
//! * [`process`] — runs a worker process: which kinds, how many at once, health port.
//!
//! [`Services`]: cosmo_shared::services::Services

pub mod dispatch;
pub mod error;
pub mod extract_entities;
pub mod maintenance;
pub mod metering;
pub mod plan;
pub mod process;
pub mod process_source;
pub mod reconcile;
