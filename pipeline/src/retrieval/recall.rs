//! What the read side uses, named port by port: [`Recall`]. Every entry point of
//! [`crate::retrieval`] (explore, context, the Storyline and Macro views, the access
//! update) takes `impl Into<Recall>`, so a caller holding the process's [`Services`]
//! passes `&services`.

use cosmo_shared::clock::Clock;
use cosmo_shared::config::{LifecycleParams, ModelsConfig, RetrievalConfig};
use cosmo_shared::graph::{
    FactReadStore, HierarchyStore, LifecycleStore, LinkStore, NoteSearchStore, SearchStore,
    SemanticStore, SourceStore, StorylineStore, ViewStore,
};
use cosmo_shared::llm::Embedder;
use cosmo_shared::services::Services;
use cosmo_shared::sessions::Sessions;
use cosmo_shared::usage::Metering;

use crate::ingest::Intake;

/// The graph ports retrieval reads, and the one it writes: the access update
/// ([`LifecycleStore::update_lifecycles`]).
#[derive(Clone, Copy)]
pub struct Reads<'a> {
    /// Candidates: the three signals of every kind.
    pub search: &'a dyn SearchStore,
    pub notes: &'a dyn NoteSearchStore,
    /// Loading a candidate of each kind.
    pub sources: &'a dyn SourceStore,
    pub semantic: &'a dyn SemanticStore,
    pub storylines: &'a dyn StorylineStore,
    pub facts: &'a dyn FactReadStore,
    /// Evidence, relationships and the Storyline and Macro views.
    pub views: &'a dyn ViewStore,
    pub hierarchy: &'a dyn HierarchyStore,
    /// The Sources a cause–effect chain links.
    pub links: &'a dyn LinkStore,
    pub lifecycle: &'a dyn LifecycleStore,
}

/// What a retrieval request uses besides its input.
#[derive(Clone, Copy)]
pub struct Recall<'a> {
    pub graph: Reads<'a>,
    /// Embeds the queries; each call is metered to the user who asked.
    pub embedder: &'a dyn Embedder,
    pub metering: Metering<'a>,
    /// A team Source returned to a participant starts their extraction through it.
    pub intake: Intake<'a>,
    /// `context` adds the live session's last turns.
    pub sessions: &'a Sessions,
    /// The user's name in the directory, for `context`.
    pub directory: &'a cosmo_shared::directory::Directory,
    pub retrieval: &'a RetrievalConfig,
    /// How an access changes a memory's lifecycle.
    pub lifecycle_params: &'a LifecycleParams,
    /// The embedder's fingerprint: whose embeddings the intent reader's exemplars are.
    pub models_config: &'a ModelsConfig,
    /// `sessions.keep_turns`: the most turns of a live session `context` adds.
    pub keep_turns: u32,
    /// The process's clock (the one `intake` and `metering` hold too).
    pub clock: &'a dyn Clock,
}

impl<'a> From<&'a Services> for Recall<'a> {
    fn from(svc: &'a Services) -> Self {
        let g = svc.graph.as_ref();
        Self {
            graph: Reads {
                search: g,
                notes: g,
                sources: g,
                semantic: g,
                storylines: g,
                facts: g,
                views: g,
                hierarchy: g,
                links: g,
                lifecycle: g,
            },
            embedder: svc.models.embedder.as_ref(),
            metering: svc.metering(),
            intake: svc.into(),
            sessions: &svc.sessions,
            directory: &svc.directory,
            retrieval: &svc.config.retrieval,
            lifecycle_params: &svc.config.lifecycle,
            models_config: &svc.config.models,
            keep_turns: svc.config.sessions.keep_turns,
            clock: svc.clock.as_ref(),
        }
    }
}

/// A function of the read side hands its own [`Recall`] to another.
impl<'a> From<&Recall<'a>> for Recall<'a> {
    fn from(recall: &Recall<'a>) -> Self {
        *recall
    }
}
