//! A canonical dump of one user's graph, so tests can assert that re-running a job (or
//! running it on another backend) leaves exactly the same graph.

use serde::Serialize;

use super::{GraphResult, GraphStore};
use crate::domain::{ExtractionRecord, Mention, Relationship, SemanticNode, Source, Storyline};

const PAGE: usize = 500;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GraphSnapshot {
    pub sources: Vec<Source>,
    pub extractions: Vec<ExtractionRecord>,
    pub nodes: Vec<SemanticNode>,
    pub relationships: Vec<Relationship>,
    pub mentions: Vec<Mention>,
    pub storylines: Vec<(Storyline, Vec<String>)>,
}

impl GraphSnapshot {
    /// Reads everything `user_id` owns, page by page.
    pub async fn of_user(store: &dyn GraphStore, user_id: &str) -> GraphResult<Self> {
        let sources = all_pages(
            async |after| {
                store
                    .sources_for_user(user_id, after.as_deref(), PAGE)
                    .await
            },
            |s: &Source| s.entity_key.clone(),
        )
        .await?;
        let mut extractions = Vec::new();
        for s in &sources {
            extractions.extend(store.extractions(&s.entity_key).await?);
        }
        let nodes = all_pages(
            async |after| store.nodes_for_user(user_id, after.as_deref(), PAGE).await,
            |n: &SemanticNode| n.entity_key.clone(),
        )
        .await?;
        let relationships = all_pages(
            async |after| {
                store
                    .relationships_for_user(user_id, after.as_deref(), PAGE)
                    .await
            },
            |r: &Relationship| r.rel_key.clone(),
        )
        .await?;
        let mut storylines = Vec::new();
        for st in store.storylines_for_user(user_id).await? {
            let sources = store.storyline_sources(&st.storyline_id).await?;
            storylines.push((st, sources));
        }
        Ok(Self {
            sources,
            extractions,
            nodes,
            relationships,
            mentions: store.mentions_for_user(user_id).await?,
            storylines,
        })
    }

    /// Finds a node by display or canonical name (tests).
    pub fn node_named(&self, name: &str) -> Option<&SemanticNode> {
        let wanted = crate::domain::names::normalise(name);
        self.nodes.iter().find(|n| {
            crate::domain::names::normalise(&n.name) == wanted
                || n.identity.name == wanted
                || n.identity.name == crate::domain::names::canonical_person(name)
        })
    }
}

/// Follows keyset pagination to the end.
async fn all_pages<T>(
    mut fetch: impl AsyncFnMut(Option<String>) -> GraphResult<Vec<T>>,
    key: fn(&T) -> String,
) -> GraphResult<Vec<T>> {
    let mut all: Vec<T> = Vec::new();
    loop {
        let page = fetch(all.last().map(key)).await?;
        let done = page.len() < PAGE;
        all.extend(page);
        if done {
            return Ok(all);
        }
    }
}
