//! Operator commands of the `cosmo` binary that are more than a line of wiring:
//! [`jobs`] inspects and retries the queue (on the configured database), [`import`]
//! bulk-loads Sources into a running Cosmo over its HTTP API.

pub mod import;
pub mod jobs;
