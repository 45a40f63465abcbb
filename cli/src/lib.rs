//! # cosmo-cli
//!
//! The `cosmo` command (`src/main.rs`): the API, the workers and the scheduler in one
//! process (`cosmo serve`, the embedded default), and the operator commands. Here, the
//! commands that are more than a line of wiring: [`jobs`] inspects and retries the
//! queue (on the configured database), [`import`] bulk-loads Sources into a running
//! Cosmo over its HTTP API, [`run_source`] runs one Source's processing or a user's
//! extraction of it now (`cosmo run-job process-source|extract-entities --source …`).

pub mod import;
pub mod jobs;
pub mod run_source;
