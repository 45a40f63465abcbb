//! The language models, as the rest of this crate names them: `cosmo-models` (one trait
//! per capability and the providers), and [`counted`] (`cosmo-telemetry`'s), which counts
//! every call in the metrics.

pub use cosmo_models::*;
pub use cosmo_telemetry::counted;
