//! The contract cases, grouped by concern. Each takes a fresh store.

mod access;
mod consolidation;
mod erase_more;
mod erase_user;
mod erasure;
mod extraction;
mod fact_history;
mod facts;
mod hierarchy;
mod kinds;
mod lifecycle;
mod neighbours;
mod notes;
mod passages;
mod promotion;
mod reindex;
mod retrieval;
mod sources;

pub use access::*;
pub use consolidation::*;
pub use erase_more::*;
pub use erase_user::*;
pub use erasure::*;
pub use extraction::*;
pub use fact_history::*;
pub use facts::*;
pub use hierarchy::*;
pub use kinds::*;
pub use lifecycle::*;
pub use neighbours::*;
pub use notes::*;
pub use passages::*;
pub use promotion::*;
pub use reindex::*;
pub use retrieval::*;
pub use sources::*;
