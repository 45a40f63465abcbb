//! What a graph store does, one port (trait) per concern. Each adapter implements a port
//! in its file of the same name, and a consumer names the ports it uses;
//! [`GraphStore`] is every port at once, for the services that hand one store to all.

mod admin;
mod consolidation;
mod decay;
mod episodic;
mod erasure;
mod extraction;
mod extraction_records;
mod fact_reads;
mod facts;
mod hierarchy;
mod lifecycle;
mod links;
mod note_search;
mod search;
mod semantic;
mod sources;
mod stats;
mod storylines;
mod views;

pub use admin::StoreAdmin;
pub use consolidation::ConsolidationStore;
pub use decay::{DecayPage, DecayStore, to_stored_precision};
pub use episodic::{ClusterRules, EpisodicConsolidation, EpisodicStore, SourceCluster};
pub use erasure::ErasureStore;
pub use extraction::ExtractionStore;
pub use extraction_records::ExtractionRecordStore;
pub use fact_reads::FactReadStore;
pub use facts::FactStore;
pub use hierarchy::{
    HierarchyStore, MacroCandidateAnchor, StorylineCandidateAnchor, StorylineRules,
};
pub use lifecycle::{LifecycleStore, LifecycleUpdate, last_change_per_key};
pub use links::{LinkStore, MAX_CAUSAL_WINDOW};
pub use note_search::NoteSearchStore;
pub use search::SearchStore;
pub use semantic::SemanticStore;
pub use sources::SourceStore;
pub use stats::StatsStore;
pub use storylines::{StorylineCandidate, StorylineStore};
pub use views::ViewStore;

/// Every port at once: what the services hand to the API, the workers and the
/// scheduler. Implemented for any type that implements them all.
pub trait GraphStore:
    StoreAdmin
    + SourceStore
    + ExtractionRecordStore
    + ExtractionStore
    + SemanticStore
    + StorylineStore
    + LifecycleStore
    + DecayStore
    + HierarchyStore
    + ConsolidationStore
    + EpisodicStore
    + SearchStore
    + NoteSearchStore
    + ViewStore
    + StatsStore
    + FactStore
    + FactReadStore
    + ErasureStore
    + LinkStore
    + std::fmt::Debug
{
}

impl<T> GraphStore for T where
    T: StoreAdmin
        + SourceStore
        + ExtractionRecordStore
        + ExtractionStore
        + SemanticStore
        + StorylineStore
        + LifecycleStore
        + DecayStore
        + HierarchyStore
        + ConsolidationStore
        + EpisodicStore
        + SearchStore
        + NoteSearchStore
        + ViewStore
        + StatsStore
        + FactStore
        + FactReadStore
        + ErasureStore
        + LinkStore
        + std::fmt::Debug
{
}
