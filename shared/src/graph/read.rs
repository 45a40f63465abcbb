//! What the read side needs from a graph store: candidate lists for hybrid retrieval, the
//! views results are built from, atomic lifecycle updates (access, pin/archive), facts,
//! and erasure. Ranking is not here: stores return candidates per signal and
//! `crate::retrieval` fuses them the same way for every backend.
//!
//! Every search is scoped to one user ([`SearchScope`]): their own memories and the team
//! Sources they take part in, never another user's.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::GraphResult;
use crate::domain::{
    Erasure, Fact, FactExplanation, FactFilter, FactWrite, Hit, LifecycleChange, MemoryKind,
    MemoryLifecycle, MemoryStats, Neighbour, NewFact, NoteHit, Relationship, SearchScope,
    SourceMeta, SourcePassage, Storyline, Target, Weakness,
};

/// Decides one memory's new lifecycle (and event) from its current one, inside the
/// store's write transaction; `None` leaves it unchanged.
pub type LifecycleUpdate<'a> =
    dyn Fn(&MemoryLifecycle) -> Option<LifecycleChange> + Send + Sync + 'a;

#[async_trait]
pub trait ReadStore: Send + Sync {
    // ---- the three signals of hybrid retrieval ----

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

    /// The `limit` notes of `scope.user_id` (on their nodes and relationships, never
    /// another user's) whose text matches any of `terms` (plain words, already
    /// normalised; never query syntax), most relevant first (ties: owner key, note id).
    ///
    /// * Owners: notes of an archived node or relationship only when
    ///   `scope.include_archived`; `since`/`until` apply to the note's `date_added`.
    /// * Expired notes (`expires_at` at or before `at`) are not found, although they
    ///   are stored until `cleanup-notes` deletes them: what search returns does not
    ///   depend on when cleanup last ran.
    /// * A consolidation insight carries the keys of the Sources it was derived from.
    ///
    /// Scores are each backend's own full-text relevance: SQLite's FTS5 bm25 of the
    /// note; Neo4j's Lucene score of the owner (its notes indexed together), the notes
    /// of one owner ordered by the share of the terms each holds.
    async fn search_notes(
        &self,
        scope: &SearchScope,
        terms: &[String],
        at: DateTime<Utc>,
        limit: usize,
    ) -> GraphResult<Vec<NoteHit>>;

    // ---- views ----

    /// The passages of these Sources (unknown keys are skipped), by Source in the given
    /// order, each Source's in content order.
    async fn passages(&self, source_keys: &[String]) -> GraphResult<Vec<SourcePassage>>;

    /// The metadata of these Sources (unknown keys are skipped), in the given order.
    async fn source_metas(&self, keys: &[String]) -> GraphResult<Vec<SourceMeta>>;

    /// `user_id`'s relationships touching any of `node_keys`, strongest first.
    async fn relationships_of(
        &self,
        user_id: &str,
        node_keys: &[String],
        limit: usize,
    ) -> GraphResult<Vec<Relationship>>;

    /// The Sources mentioning a node, newest first.
    async fn node_sources(&self, entity_key: &str, limit: usize) -> GraphResult<Vec<SourceMeta>>;

    /// The Storylines about a node, newest first.
    async fn storylines_about(&self, anchor_key: &str) -> GraphResult<Vec<Storyline>>;

    /// `user_id`'s memory in numbers ([`MemoryStats`]): their memories by kind and
    /// state, Sources by status, links, orphan nodes, extraction records by status, and
    /// the text and vectors they store. Reads every memory of the user once; an unknown
    /// user has all zeroes.
    async fn memory_stats(&self, user_id: &str) -> GraphResult<MemoryStats>;

    // ---- lifecycle, atomically ----

    /// One memory's lifecycle, or `None`.
    async fn memory(&self, kind: MemoryKind, key: &str) -> GraphResult<Option<MemoryLifecycle>>;

    /// Reads the lifecycles of `keys` inside one write transaction, asks `update` for
    /// each one's change, writes the changes and their events, and returns them. Keys
    /// that do not exist are skipped. Concurrent updates of the same memory serialise:
    /// none is lost (an access during decay, a pin during an access).
    async fn update_lifecycles(
        &self,
        kind: MemoryKind,
        keys: &[String],
        update: &LifecycleUpdate<'_>,
    ) -> GraphResult<Vec<LifecycleChange>>;
}

/// Facts a user stated: stored, corrected, confirmed, explained and listed.
#[async_trait]
pub trait FactStore: Send + Sync {
    /// Stores a fact. A structured fact (category and key) keeps one live value per
    /// (user, category, key): a value at least as confident supersedes the live one, a
    /// less confident one is not stored ([`FactWrite::KeptExisting`]). The same live
    /// fact again is [`FactWrite::Unchanged`].
    async fn store_fact(&self, fact: &NewFact) -> GraphResult<FactWrite>;

    /// Replaces a live fact: the new one `supersedes` it and the old one ends
    /// (`is_active = false`, `valid_to = at`). A structured fact keeps its category and
    /// key. `NotFound` for an unknown fact, `Conflict` for one already superseded.
    async fn correct_fact(&self, fact_id: &str, fact: &NewFact) -> GraphResult<Fact>;

    /// Confirms a live fact: confidence 1, protected from decay (`keep_forever`).
    async fn confirm_fact(&self, fact_id: &str, at: DateTime<Utc>) -> GraphResult<Fact>;

    async fn fact(&self, fact_id: &str) -> GraphResult<Option<Fact>>;

    /// A user's facts, newest first.
    async fn facts_for_user(
        &self,
        user_id: &str,
        filter: FactFilter,
        limit: usize,
    ) -> GraphResult<Vec<Fact>>;

    /// The fact, the chain it replaced, what replaced it, its Sources and entities.
    async fn explain_fact(&self, fact_id: &str) -> GraphResult<Option<FactExplanation>>;

    /// Live, unconfirmed facts under either bar, weakest (lowest salience) first.
    async fn weak_facts(
        &self,
        user_id: &str,
        weakness: Weakness,
        limit: usize,
    ) -> GraphResult<Vec<Fact>>;
}

/// Erasure: every trace, in one transaction.
#[async_trait]
pub trait ErasureStore: Send + Sync {
    /// Deletes a Source and everything whose provenance is only that Source: its
    /// mentions, `includes` and `derived_from` links, extraction records, notes taken
    /// from it, insights consolidated from it, facts stated in it, nodes and
    /// relationships no other Source supports, Storylines and Macros left empty, and the
    /// lifecycle events of all of those. Counters it contributed are recomputed; every
    /// description that drew on it is cleared and marked dirty. `None` if unknown.
    async fn erase_source(
        &self,
        entity_key: &str,
        at: DateTime<Utc>,
    ) -> GraphResult<Option<Erasure>>;

    /// Deletes everything of a user: their Sources (as above), their graph, facts and
    /// events, and their participation in other users' team Sources.
    async fn erase_user(&self, user_id: &str, at: DateTime<Utc>) -> GraphResult<Erasure>;

    /// Deletes a fact and the facts it superseded; a fact that superseded it stays,
    /// without the link. `None` if unknown.
    async fn erase_fact(&self, fact_id: &str) -> GraphResult<Option<Erasure>>;
}
