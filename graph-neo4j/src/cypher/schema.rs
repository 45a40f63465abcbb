//! `cypher/schema/`: constraints and indexes, one per file, applied in the order of
//! [`ALL`] by `migrate()` at every start (all `IF NOT EXISTS`). Constraints come first
//! so their backing indexes exist before anything else is created.

use super::{Statement, statement};
// Uniqueness constraints for every identity key.
pub const SOURCE_ENTITY_KEY: Statement = statement!("schema/source_entity_key.cypher", []);
pub const SOURCE_IDEMPOTENCY: Statement = statement!("schema/source_idempotency.cypher", []);
pub const SEMANTIC_ENTITY_KEY: Statement = statement!("schema/semantic_entity_key.cypher", []);
pub const PERSON_IDENTITY: Statement = statement!("schema/person_identity.cypher", []);
pub const PERSON_OWNER: Statement = statement!("schema/person_owner.cypher", []);
pub const CONCEPT_IDENTITY: Statement = statement!("schema/concept_identity.cypher", []);
pub const ENTITY_IDENTITY: Statement = statement!("schema/entity_identity.cypher", []);
pub const EXTRACTION_IDENTITY: Statement = statement!("schema/extraction_identity.cypher", []);
pub const STORYLINE_ID: Statement = statement!("schema/storyline_id.cypher", []);
pub const MACRO_ID: Statement = statement!("schema/macro_id.cypher", []);
pub const RELATES_REL_KEY: Statement = statement!("schema/relates_rel_key.cypher", []);
pub const LIFECYCLE_EVENT_ID: Statement = statement!("schema/lifecycle_event_id.cypher", []);
pub const FACT_ID: Statement = statement!("schema/fact_id.cypher", []);
pub const FACT_LOCK_USER: Statement = statement!("schema/fact_lock_user.cypher", []);
pub const PASSAGE_KEY: Statement = statement!("schema/passage_key.cypher", []);

// Range indexes the queries need.
pub const SOURCE_USER: Statement = statement!("schema/source_user.cypher", []);
pub const SOURCE_STATUS: Statement = statement!("schema/source_status.cypher", []);
pub const SOURCE_STATE: Statement = statement!("schema/source_state.cypher", []);
pub const SOURCE_SALIENCE: Statement = statement!("schema/source_salience.cypher", []);
pub const SOURCE_EMBEDDED_WITH: Statement = statement!("schema/source_embedded_with.cypher", []);
pub const SOURCE_THREAD: Statement = statement!("schema/source_thread.cypher", []);
pub const SOURCE_CAUSAL_PENDING: Statement = statement!("schema/source_causal_pending.cypher", []);
pub const SEMANTIC_USER: Statement = statement!("schema/semantic_user.cypher", []);
pub const SEMANTIC_STATE: Statement = statement!("schema/semantic_state.cypher", []);
pub const SEMANTIC_DIRTY: Statement = statement!("schema/semantic_dirty.cypher", []);
pub const EXTRACTION_SOURCE: Statement = statement!("schema/extraction_source.cypher", []);
pub const EXTRACTION_STATUS: Statement = statement!("schema/extraction_status.cypher", []);
pub const STORYLINE_USER: Statement = statement!("schema/storyline_user.cypher", []);
pub const STORYLINE_STATE: Statement = statement!("schema/storyline_state.cypher", []);
pub const STORYLINE_DIRTY: Statement = statement!("schema/storyline_dirty.cypher", []);
pub const MACRO_USER: Statement = statement!("schema/macro_user.cypher", []);
pub const MACRO_DIRTY: Statement = statement!("schema/macro_dirty.cypher", []);
pub const RELATES_USER: Statement = statement!("schema/relates_user.cypher", []);
pub const RELATES_DIRTY: Statement = statement!("schema/relates_dirty.cypher", []);
pub const MENTIONS_USER: Statement = statement!("schema/mentions_user.cypher", []);
pub const LIFECYCLE_EVENT_MEMORY: Statement =
    statement!("schema/lifecycle_event_memory.cypher", []);
pub const LIFECYCLE_EVENT_USER: Statement = statement!("schema/lifecycle_event_user.cypher", []);
pub const EXTRACTION_USER: Statement = statement!("schema/extraction_user.cypher", []);
pub const READABLE_BY_USER: Statement = statement!("schema/readable_by_user.cypher", []);
pub const FACT_USER: Statement = statement!("schema/fact_user.cypher", []);
pub const FACT_SLOT: Statement = statement!("schema/fact_slot.cypher", []);

// Full-text indexes.
pub const SOURCE_TEXT: Statement = statement!("schema/source_text.cypher", []);
pub const SEMANTIC_TEXT: Statement = statement!("schema/semantic_text.cypher", []);
pub const STORYLINE_TEXT: Statement = statement!("schema/storyline_text.cypher", []);
pub const MACRO_TEXT: Statement = statement!("schema/macro_text.cypher", []);
pub const FACT_TEXT: Statement = statement!("schema/fact_text.cypher", []);
pub const SEMANTIC_NOTE_TEXT: Statement = statement!("schema/semantic_note_text.cypher", []);
pub const RELATES_NOTE_TEXT: Statement = statement!("schema/relates_note_text.cypher", []);

// Vector indexes (cosine), one per embedding; their dimension is substituted at run time.
pub const SOURCE_EMBEDDING: Statement = statement!("schema/source_embedding.cypher", []);
pub const PERSON_EMBEDDING: Statement = statement!("schema/person_embedding.cypher", []);
pub const CONCEPT_EMBEDDING: Statement = statement!("schema/concept_embedding.cypher", []);
pub const ENTITY_EMBEDDING: Statement = statement!("schema/entity_embedding.cypher", []);
pub const STORYLINE_EMBEDDING: Statement = statement!("schema/storyline_embedding.cypher", []);
pub const MACRO_EMBEDDING: Statement = statement!("schema/macro_embedding.cypher", []);
pub const RELATES_NOTES_EMBEDDING: Statement =
    statement!("schema/relates_notes_embedding.cypher", []);
pub const FACT_EMBEDDING: Statement = statement!("schema/fact_embedding.cypher", []);
pub const PASSAGE_EMBEDDING: Statement = statement!("schema/passage_embedding.cypher", []);

/// Every schema statement, in the order `migrate()` applies them.
pub const ALL: &[&Statement] = &[
    &SOURCE_ENTITY_KEY,
    &SOURCE_IDEMPOTENCY,
    &SEMANTIC_ENTITY_KEY,
    &PERSON_IDENTITY,
    &PERSON_OWNER,
    &CONCEPT_IDENTITY,
    &ENTITY_IDENTITY,
    &EXTRACTION_IDENTITY,
    &STORYLINE_ID,
    &MACRO_ID,
    &RELATES_REL_KEY,
    &LIFECYCLE_EVENT_ID,
    &FACT_ID,
    &FACT_LOCK_USER,
    &PASSAGE_KEY,
    &SOURCE_USER,
    &SOURCE_STATUS,
    &SOURCE_STATE,
    &SOURCE_SALIENCE,
    &SOURCE_EMBEDDED_WITH,
    &SOURCE_THREAD,
    &SOURCE_CAUSAL_PENDING,
    &SEMANTIC_USER,
    &SEMANTIC_STATE,
    &SEMANTIC_DIRTY,
    &EXTRACTION_SOURCE,
    &EXTRACTION_STATUS,
    &STORYLINE_USER,
    &STORYLINE_STATE,
    &STORYLINE_DIRTY,
    &MACRO_USER,
    &MACRO_DIRTY,
    &RELATES_USER,
    &RELATES_DIRTY,
    &MENTIONS_USER,
    &LIFECYCLE_EVENT_MEMORY,
    &LIFECYCLE_EVENT_USER,
    &EXTRACTION_USER,
    &READABLE_BY_USER,
    &FACT_USER,
    &FACT_SLOT,
    &SOURCE_TEXT,
    &SEMANTIC_TEXT,
    &STORYLINE_TEXT,
    &MACRO_TEXT,
    &FACT_TEXT,
    &SEMANTIC_NOTE_TEXT,
    &RELATES_NOTE_TEXT,
    &SOURCE_EMBEDDING,
    &PERSON_EMBEDDING,
    &CONCEPT_EMBEDDING,
    &ENTITY_EMBEDDING,
    &STORYLINE_EMBEDDING,
    &MACRO_EMBEDDING,
    &RELATES_NOTES_EMBEDDING,
    &FACT_EMBEDDING,
    &PASSAGE_EMBEDDING,
];
