//! The contract cases, grouped by concern. Each takes a fresh store.

mod consolidation;
mod extraction;
mod hierarchy;
mod lifecycle;
mod promotion;
mod sources;

pub use consolidation::*;
pub use extraction::*;
pub use hierarchy::*;
pub use lifecycle::*;
pub use promotion::*;
pub use sources::*;
