//! The contract cases, grouped by concern. Each takes a fresh store.

mod access;
mod consolidation;
pub(crate) mod decay;
mod erase_more;
mod erase_user;
mod erasure;
mod extraction;
mod fact_history;
mod facts;
mod hierarchy;
mod kinds;
mod lifecycle;
pub(crate) mod links;
mod neighbours;
mod notes;
mod passages;
mod promotion;
mod reindex;
mod retrieval;
mod said_at;
mod sources;
mod stats;
mod text_ranking;

pub use access::*;
pub use consolidation::*;
pub use decay::{
    accesses_during_decay_are_not_lost, decay_pages_equal_the_pure_function_for_any_lifecycle,
};
pub use erase_more::*;
pub use erase_user::*;
pub use erasure::*;
pub use extraction::*;
pub use fact_history::*;
pub use facts::*;
pub use hierarchy::*;
pub use kinds::*;
pub use lifecycle::*;
pub use links::*;
pub use neighbours::*;
pub use notes::*;
pub use passages::*;
pub use promotion::*;
pub use reindex::*;
pub use retrieval::*;
pub use said_at::*;
pub use sources::*;
pub use stats::*;
pub use text_ranking::*;
