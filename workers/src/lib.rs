//! # cosmo-workers
//!
//! The worker process: it takes jobs from the queue and runs each one's pipeline step
//! (`cosmo_pipeline`, where every step lives).
//!
//! * [`dispatch`] — routes a queued job to its step, by kind, with its payload decoded.
//! * [`process`] — runs a worker process: which kinds, how many at once, health port.

pub mod dispatch;
pub mod process;
