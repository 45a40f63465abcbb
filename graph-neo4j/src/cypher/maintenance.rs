//! The maintenance jobs' statements: Storyline and Macro promotion and refresh
//! (`cypher/storylines/`, `cypher/macros/`), description consolidation and note cleanup
//! (`cypher/consolidation/`), episodic consolidation (`cypher/episodic/`).

use super::{Statement, statement};

// ---- Storylines and Macros ----

pub const STORYLINE_CANDIDATES: Statement = statement!(
    "storylines/promotion_candidates.cypher",
    [min_sources, min_days, first_before, limit]
);
pub const DIRTY_STORYLINES: Statement =
    statement!("storylines/dirty.cypher", [active_since, limit]);
pub const STORYLINE_BRIEFS: Statement =
    statement!("storylines/briefs.cypher", [storyline_id, limit]);
pub const DESCRIBE_STORYLINE: Statement = statement!(
    "storylines/describe.cypher",
    [
        storyline_id,
        description,
        description_terms,
        description_counts,
        description_len,
        embedding,
        at
    ]
);
pub const MACRO_CANDIDATES: Statement =
    statement!("macros/promotion_candidates.cypher", [first_before, limit]);
pub const DIRTY_MACROS: Statement = statement!("macros/dirty.cypher", [limit]);
pub const MACRO_STORYLINES: Statement = statement!("macros/storylines.cypher", [macro_id]);
pub const DESCRIBE_MACRO: Statement = statement!(
    "macros/describe.cypher",
    [
        macro_id,
        description,
        description_terms,
        description_counts,
        description_len,
        embedding,
        at
    ]
);

// ---- Description consolidation and note cleanup ----

pub const DIRTY_NODES: Statement = statement!("consolidation/dirty_nodes.cypher", [limit]);
pub const DIRTY_RELATIONSHIPS: Statement =
    statement!("consolidation/dirty_relationships.cypher", [limit]);
pub const CONSOLIDATE_NODE: Statement = statement!(
    "consolidation/node.cypher",
    [
        entity_key,
        description,
        description_terms,
        description_counts,
        description_len,
        embedding,
        at
    ]
);
pub const CONSOLIDATE_RELATIONSHIP: Statement = statement!(
    "consolidation/relationship.cypher",
    [rel_key, description, notes_embedding, at]
);
pub const EXPIRED_NODE_NOTES: Statement = statement!(
    "consolidation/expired_node_notes.cypher",
    [now, limit, key_space]
);
pub const EXPIRED_RELATIONSHIP_NOTES: Statement = statement!(
    "consolidation/expired_relationship_notes.cypher",
    [now, limit, key_space]
);
pub const COUNT_EXPIRED_NOTES: Statement =
    statement!("consolidation/count_expired_notes.cypher", [now, key_space]);
pub const REMOVE_NODE_NOTES: Statement = statement!(
    "consolidation/remove_node_notes.cypher",
    [rows, now],
    rows: [target, note_ids]
);
pub const REMOVE_RELATIONSHIP_NOTES: Statement = statement!(
    "consolidation/remove_relationship_notes.cypher",
    [rows, now],
    rows: [target, note_ids]
);

// ---- Episodic consolidation ----

pub const FADED_SOURCES: Statement = statement!(
    "episodic/faded_sources.cypher",
    [older_than, salience_below, limit]
);
pub const SOURCE_CLUSTERS: Statement = statement!(
    "episodic/source_clusters.cypher",
    [
        older_than,
        min_sources,
        anchor_share,
        anchor_min_sources,
        limit
    ]
);
pub const INSIGHT_NOTE: Statement = statement!(
    "episodic/insight_note.cypher",
    [
        entity_key,
        note_id,
        text,
        added_by,
        lifetime,
        expires_at,
        at,
        source_keys
    ]
);
pub const DERIVE: Statement = statement!(
    "episodic/derive.cypher",
    [entity_key, source_keys, user_id, note_id, at]
);
pub const ARCHIVE_SOURCES: Statement = statement!(
    "episodic/archive_sources.cypher",
    [source_keys, user_id, at]
);
pub const DERIVED_SOURCES: Statement = statement!("episodic/derived_sources.cypher", [entity_key]);

pub const ALL: &[&Statement] = &[
    &STORYLINE_CANDIDATES,
    &DIRTY_STORYLINES,
    &STORYLINE_BRIEFS,
    &DESCRIBE_STORYLINE,
    &MACRO_CANDIDATES,
    &DIRTY_MACROS,
    &MACRO_STORYLINES,
    &DESCRIBE_MACRO,
    &DIRTY_NODES,
    &DIRTY_RELATIONSHIPS,
    &CONSOLIDATE_NODE,
    &CONSOLIDATE_RELATIONSHIP,
    &EXPIRED_NODE_NOTES,
    &EXPIRED_RELATIONSHIP_NOTES,
    &COUNT_EXPIRED_NOTES,
    &REMOVE_NODE_NOTES,
    &REMOVE_RELATIONSHIP_NOTES,
    &FADED_SOURCES,
    &SOURCE_CLUSTERS,
    &INSIGHT_NOTE,
    &DERIVE,
    &ARCHIVE_SOURCES,
    &DERIVED_SOURCES,
];
