//! `cypher/extraction/`: per-(Source, user) extraction records and the statements of
//! one extraction write (Phase 2), which run together in one transaction.

use super::{Statement, statement};

pub const REQUEST: Statement = statement!("extraction/request.cypher", [source_key, user_id, at]);
pub const GET: Statement = statement!("extraction/get.cypher", [source_key, user_id]);
pub const FOR_SOURCE: Statement = statement!("extraction/for_source.cypher", [source_key]);
pub const MARK_STARTED: Statement =
    statement!("extraction/mark_started.cypher", [source_key, user_id, at]);
pub const MARK_SOURCE_STARTED: Statement = statement!(
    "extraction/mark_source_started.cypher",
    [source_key, user_id, at]
);
pub const RECORD_ERROR: Statement = statement!(
    "extraction/record_error.cypher",
    [source_key, user_id, status, error, at]
);
pub const STUCK: Statement = statement!("extraction/stuck.cypher", [before, limit]);
pub const UNREQUESTED_TEAM_SOURCES: Statement = statement!(
    "extraction/unrequested_team_sources.cypher",
    [user_id, limit]
);

// ---- The extraction write ----

pub const START_WRITE: Statement =
    statement!("extraction/start_write.cypher", [source_key, user_id]);

/// The fields of a node row, shared by the three MERGE statements (plus `entity_type`
/// for Entities).
macro_rules! merge_node {
    ($file:literal $(, $extra:ident)?) => {
        statement!(
            $file,
            [rows, user_id, at],
            rows: [
                entity_key,
                name,
                display_name,
                name_terms,
                name_counts,
                name_len,
                $($extra,)?
                salience,
                state,
                confidence,
                access_count,
                recall_frequency,
                last_recall_interval,
                decay_gradient,
                ttl_policy,
                pinned,
            ]
        )
    };
}

pub const MERGE_PERSON: Statement = merge_node!("extraction/merge_person.cypher");
pub const MERGE_CONCEPT: Statement = merge_node!("extraction/merge_concept.cypher");
pub const MERGE_ENTITY: Statement = merge_node!("extraction/merge_entity.cypher", entity_type);

pub const MENTIONS: Statement = statement!(
    "extraction/mentions.cypher",
    [
        source_key,
        entity_keys,
        user_id,
        at,
        event_time,
        event_day,
        initial_salience
    ]
);
pub const RELATIONSHIPS: Statement = statement!(
    "extraction/relationships.cypher",
    [rows, user_id, source_key, at],
    rows: [
        rel_key,
        from_key,
        to_key,
        relationship_type,
        description,
        attitude,
        proximity,
        strength,
        salience,
        state,
        confidence,
        access_count,
        recall_frequency,
        last_recall_interval,
        decay_gradient,
        ttl_policy,
        pinned,
    ]
);
pub const NODE_NOTES: Statement = statement!(
    "extraction/node_notes.cypher",
    [rows, user_id, source_key, at],
    rows: [target, note_ids, note_texts, note_lifetimes, note_expires_at, note_said_at]
);
pub const RELATIONSHIP_NOTES: Statement = statement!(
    "extraction/relationship_notes.cypher",
    [rows, user_id, source_key, at],
    rows: [target, note_ids, note_texts, note_lifetimes, note_expires_at, note_said_at]
);
pub const JOIN_STORYLINES: Statement = statement!(
    "extraction/join_storylines.cypher",
    [source_key, storyline_ids, user_id, event_time, at]
);
pub const JOIN_MACROS: Statement = statement!(
    "extraction/join_macros.cypher",
    [storyline_ids, event_time, at]
);
pub const COMPLETE: Statement = statement!("extraction/complete.cypher", [source_key, user_id, at]);
pub const COMPLETE_SOURCE: Statement =
    statement!("extraction/complete_source.cypher", [source_key, at]);

pub const ALL: &[&Statement] = &[
    &REQUEST,
    &GET,
    &FOR_SOURCE,
    &MARK_STARTED,
    &MARK_SOURCE_STARTED,
    &RECORD_ERROR,
    &STUCK,
    &UNREQUESTED_TEAM_SOURCES,
    &START_WRITE,
    &MERGE_PERSON,
    &MERGE_CONCEPT,
    &MERGE_ENTITY,
    &MENTIONS,
    &RELATIONSHIPS,
    &NODE_NOTES,
    &RELATIONSHIP_NOTES,
    &JOIN_STORYLINES,
    &JOIN_MACROS,
    &COMPLETE,
    &COMPLETE_SOURCE,
];
