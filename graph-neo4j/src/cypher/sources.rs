//! `cypher/sources/`: Sources (Phase 0/1).

use super::{Statement, statement};

pub const CREATE: Statement = statement!(
    "sources/create.cypher",
    [
        entity_key,
        user_id,
        team_id,
        participants,
        source_type,
        raw_content,
        provenance,
        context_type,
        started_at,
        ended_at,
        sensitivity,
        idempotency_key,
        external_id,
        content_hash,
        salience,
        state,
        confidence,
        access_count,
        recall_frequency,
        last_recall_interval,
        decay_gradient,
        ttl_policy,
        pinned,
        created_at,
        updated_at,
    ]
);
pub const GET: Statement = statement!("sources/get.cypher", [entity_key]);
pub const FOR_USER: Statement = statement!("sources/for_user.cypher", [user_id, after, limit]);
pub const MARK_PROCESSING_STARTED: Statement =
    statement!("sources/mark_processing_started.cypher", [entity_key, at]);
pub const SAVE_PROCESSED: Statement = statement!(
    "sources/save_processed.cypher",
    [
        entity_key,
        content,
        summary,
        keywords,
        summary_terms,
        summary_counts,
        summary_len,
        content_terms,
        content_counts,
        content_len,
        keywords_terms,
        keywords_counts,
        keywords_len,
        tags,
        embedding,
        embedded_with,
        at
    ]
);
pub const SAVE_INDEX: Statement = statement!(
    "sources/save_index.cypher",
    [entity_key, embedding, embedded_with, at]
);
pub const SAVE_PASSAGES: Statement = statement!(
    "sources/save_passages.cypher",
    [entity_key, rows],
    rows: [ordinal, text, embedding]
);
pub const RECORD_PROCESSING_ERROR: Statement = statement!(
    "sources/record_processing_error.cypher",
    [entity_key, error, at]
);
pub const STUCK: Statement = statement!("sources/stuck.cypher", [before, limit]);
pub const STALE_INDEX: Statement = statement!("sources/stale_index.cypher", [embedded_with, limit]);
/// Not a schema command (it writes data, in batches): `migrate()` runs it after them.
pub const MARK_UNINDEXED: Statement = statement!("sources/mark_unindexed.cypher", [limit]);

pub const ALL: &[&Statement] = &[
    &CREATE,
    &GET,
    &FOR_USER,
    &MARK_PROCESSING_STARTED,
    &SAVE_PROCESSED,
    &SAVE_INDEX,
    &SAVE_PASSAGES,
    &RECORD_PROCESSING_ERROR,
    &STUCK,
    &STALE_INDEX,
    &MARK_UNINDEXED,
];
