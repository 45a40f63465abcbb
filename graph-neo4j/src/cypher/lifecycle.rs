//! `cypher/lifecycle/`: lifecycle pages, reads (`get_*`), locked reads (`lock_*`, for
//! read-decide-write updates) and batched lifecycle writes for each memory kind (the
//! label and key are fixed per file, picked from the closed `MemoryKind` enum), decay's
//! set-based statements (`decay_page_*` per kind, then `decay_nodes` or
//! `decay_relationships` over the page's element ids), and the lifecycle event log.

use super::{Statement, statement};

macro_rules! page {
    ($file:literal) => {
        statement!($file, [after, limit])
    };
}

/// The fields of a lifecycle row, shared by the five apply statements.
macro_rules! apply {
    ($file:literal) => {
        statement!(
            $file,
            [rows],
            rows: [
                key,
                salience,
                state,
                confidence,
                access_count,
                recall_frequency,
                last_recall_interval,
                decay_gradient,
                last_accessed_at,
                last_decayed_at,
                ttl_policy,
                pinned,
                updated_at,
            ]
        )
    };
}

pub const PAGE_SOURCE: Statement = page!("lifecycle/page_source.cypher");
pub const PAGE_NODE: Statement = page!("lifecycle/page_node.cypher");
pub const PAGE_RELATIONSHIP: Statement = page!("lifecycle/page_relationship.cypher");
pub const PAGE_STORYLINE: Statement = page!("lifecycle/page_storyline.cypher");
pub const PAGE_MACRO: Statement = page!("lifecycle/page_macro.cypher");
pub const PAGE_FACT: Statement = page!("lifecycle/page_fact.cypher");

pub const GET_SOURCE: Statement = statement!("lifecycle/get_source.cypher", [key]);
pub const GET_NODE: Statement = statement!("lifecycle/get_node.cypher", [key]);
pub const GET_RELATIONSHIP: Statement = statement!("lifecycle/get_relationship.cypher", [key]);
pub const GET_STORYLINE: Statement = statement!("lifecycle/get_storyline.cypher", [key]);
pub const GET_MACRO: Statement = statement!("lifecycle/get_macro.cypher", [key]);
pub const GET_FACT: Statement = statement!("lifecycle/get_fact.cypher", [key]);

pub const LOCK_SOURCE: Statement = statement!("lifecycle/lock_source.cypher", [keys]);
pub const LOCK_NODE: Statement = statement!("lifecycle/lock_node.cypher", [keys]);
pub const LOCK_RELATIONSHIP: Statement = statement!("lifecycle/lock_relationship.cypher", [keys]);
pub const LOCK_STORYLINE: Statement = statement!("lifecycle/lock_storyline.cypher", [keys]);
pub const LOCK_MACRO: Statement = statement!("lifecycle/lock_macro.cypher", [keys]);
pub const LOCK_FACT: Statement = statement!("lifecycle/lock_fact.cypher", [keys]);

pub const APPLY_SOURCE: Statement = apply!("lifecycle/apply_source.cypher");
pub const APPLY_NODE: Statement = apply!("lifecycle/apply_node.cypher");
pub const APPLY_RELATIONSHIP: Statement = apply!("lifecycle/apply_relationship.cypher");
pub const APPLY_STORYLINE: Statement = apply!("lifecycle/apply_storyline.cypher");
pub const APPLY_MACRO: Statement = apply!("lifecycle/apply_macro.cypher");
pub const APPLY_FACT: Statement = apply!("lifecycle/apply_fact.cypher");

pub const RECORD_EVENTS: Statement = statement!(
    "lifecycle/record_events.cypher",
    [rows],
    rows: [
        event_id,
        memory_kind,
        memory_key,
        user_id,
        previous_state,
        new_state,
        reason,
        actor,
        at,
    ]
);
pub const EVENTS: Statement = statement!("lifecycle/events.cypher", [memory_key]);

pub const DECAY_PAGE_SOURCE: Statement = page!("lifecycle/decay_page_source.cypher");
pub const DECAY_PAGE_NODE: Statement = page!("lifecycle/decay_page_node.cypher");
pub const DECAY_PAGE_RELATIONSHIP: Statement = page!("lifecycle/decay_page_relationship.cypher");
pub const DECAY_PAGE_STORYLINE: Statement = page!("lifecycle/decay_page_storyline.cypher");
pub const DECAY_PAGE_MACRO: Statement = page!("lifecycle/decay_page_macro.cypher");
pub const DECAY_PAGE_FACT: Statement = page!("lifecycle/decay_page_fact.cypher");

/// Decay's arithmetic over one page, for nodes and for relationships.
macro_rules! decay {
    ($file:literal) => {
        statement!(
            $file,
            [
                ids,
                as_of,
                base_rate,
                confident_candidate,
                archive_below,
                ephemeral_seconds,
            ]
        )
    };
}

pub const DECAY_NODES: Statement = decay!("lifecycle/decay_nodes.cypher");
pub const DECAY_RELATIONSHIPS: Statement = decay!("lifecycle/decay_relationships.cypher");

pub const ALL: &[&Statement] = &[
    &PAGE_SOURCE,
    &PAGE_NODE,
    &PAGE_RELATIONSHIP,
    &PAGE_STORYLINE,
    &PAGE_MACRO,
    &PAGE_FACT,
    &GET_SOURCE,
    &GET_NODE,
    &GET_RELATIONSHIP,
    &GET_STORYLINE,
    &GET_MACRO,
    &GET_FACT,
    &LOCK_SOURCE,
    &LOCK_NODE,
    &LOCK_RELATIONSHIP,
    &LOCK_STORYLINE,
    &LOCK_MACRO,
    &LOCK_FACT,
    &APPLY_SOURCE,
    &APPLY_NODE,
    &APPLY_RELATIONSHIP,
    &APPLY_STORYLINE,
    &APPLY_MACRO,
    &APPLY_FACT,
    &RECORD_EVENTS,
    &EVENTS,
    &DECAY_PAGE_SOURCE,
    &DECAY_PAGE_NODE,
    &DECAY_PAGE_RELATIONSHIP,
    &DECAY_PAGE_STORYLINE,
    &DECAY_PAGE_MACRO,
    &DECAY_PAGE_FACT,
    &DECAY_NODES,
    &DECAY_RELATIONSHIPS,
];
