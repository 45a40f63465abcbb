//! Full-text search of a user's notes.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::domain::{NoteHit, SearchScope};
use crate::graph::GraphResult;

#[async_trait]
pub trait NoteSearchStore: Send + Sync {
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
    /// Scores are each backend's own full-text relevance of the note: SQLite's FTS5
    /// bm25; on Neo4j, BM25 over the notes its full-text index found for the terms
    /// (the index scores owners, whose notes it indexes together).
    async fn search_notes(
        &self,
        scope: &SearchScope,
        terms: &[String],
        at: DateTime<Utc>,
        limit: usize,
    ) -> GraphResult<Vec<NoteHit>>;

    /// The live consolidation insights of `user_id` derived from any of these Sources
    /// (their `derived_from` links by note id; a link recorded before note ids were
    /// kept counts for every insight on its node), each once, with all the Sources it
    /// was derived from; ordered by owner key and note id, score 0. How an archived
    /// Source is still reached: through the insight that replaced it, whether or not
    /// the node holding the insight has since decayed into the archive (the Source's own
    /// words matched, not the node).
    async fn insights_of(
        &self,
        user_id: &str,
        source_keys: &[String],
        at: DateTime<Utc>,
    ) -> GraphResult<Vec<NoteHit>>;
}
