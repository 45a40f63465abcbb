//! The three signals of hybrid retrieval, as candidate lists per signal. Ranking is not
//! here: stores return candidates per signal and `cosmo_pipeline::retrieval` fuses them the same
//! way for every backend.
//!
//! Every search is scoped to one user ([`SearchScope`]): their own memories and the team
//! Sources they take part in, never another user's.

use async_trait::async_trait;

use crate::domain::{Hit, Neighbour, SearchScope, Target};
use crate::graph::GraphResult;

#[async_trait]
pub trait SearchStore: Send + Sync {
    /// The `limit` memories of `target` in scope most similar to `embedding` (cosine,
    /// best first). Memories without an embedding, or with one of another length, are
    /// not candidates. A Source scores the best of its summary's and its passages'
    /// cosines, and its hit names the passage that scored it (`None`: the summary).
    async fn vector_search(
        &self,
        scope: &SearchScope,
        target: Target,
        embedding: &[f32],
        limit: usize,
    ) -> GraphResult<Vec<Hit>>;

    /// The `limit` memories of `target` in scope whose text matches any of `terms`
    /// (plain words, already normalised; never query syntax), most relevant first.
    /// Sources match on summary, content and keywords; nodes on name and description;
    /// Storylines and Macros on description; facts on text and value.
    async fn text_search(
        &self,
        scope: &SearchScope,
        target: Target,
        terms: &[String],
        limit: usize,
    ) -> GraphResult<Vec<Hit>>;

    /// Memories of `target` in scope linked to the seed nodes (entity keys), most linked
    /// first: Sources that mention them (score: seeds mentioned), nodes related to them
    /// (seeds excluded; score: summed relationship strength), Storylines about them and
    /// Macros rooted in them (score: 1), facts about them (score: seeds linked).
    async fn neighbours(
        &self,
        scope: &SearchScope,
        target: Target,
        seeds: &[String],
        limit: usize,
    ) -> GraphResult<Vec<Neighbour>>;
}
