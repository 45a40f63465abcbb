//! `cypher/erasure/`: erasing a Source, a user or a fact. The statements of one erasure
//! run in one transaction; `source_links` write-locks the Source first.

use super::{Statement, statement};

// ---- one Source ----

pub const SOURCE_LINKS: Statement = statement!("erasure/source_links.cypher", [source_key]);
pub const BRIDGE_THREAD: Statement = statement!("erasure/bridge_thread.cypher", [source_key, at]);
pub const REMOVE_NODE_NOTES: Statement =
    statement!("erasure/remove_node_notes.cypher", [user_ids, source_key]);
pub const UNLINK_RELATIONSHIPS: Statement = statement!(
    "erasure/unlink_relationships.cypher",
    [user_ids, source_key]
);
pub const REMOVE_INSIGHTS: Statement =
    statement!("erasure/remove_insights.cypher", [source_key, added_by]);
pub const DELETE_EXTRACTIONS: Statement =
    statement!("erasure/delete_extractions.cypher", [source_keys]);
pub const DELETE_SOURCES: Statement = statement!("erasure/delete_sources.cypher", [source_keys]);
pub const ORPHAN_NODES: Statement = statement!("erasure/orphan_nodes.cypher", [entity_keys]);
pub const ORPHAN_RELATIONSHIPS: Statement =
    statement!("erasure/orphan_relationships.cypher", [rel_keys]);
pub const STORYLINES_LEFT: Statement =
    statement!("erasure/storylines_left.cypher", [storyline_ids]);
pub const MACROS_LEFT: Statement = statement!("erasure/macros_left.cypher", [macro_ids]);
pub const CLEAR_STORYLINES: Statement =
    statement!("erasure/clear_storylines.cypher", [storyline_ids, at]);
pub const CLEAR_MACROS: Statement = statement!("erasure/clear_macros.cypher", [macro_ids, at]);
pub const RECOUNT_NODES: Statement = statement!("erasure/recount_nodes.cypher", [entity_keys, at]);
pub const ANCHOR_FLAGS: Statement = statement!("erasure/anchor_flags.cypher", [entity_keys]);
pub const CLEAR_RELATIONSHIPS: Statement =
    statement!("erasure/clear_relationships.cypher", [rel_keys, at]);

// ---- deletions shared by every erasure ----

pub const FACT_CHAINS: Statement = statement!("erasure/fact_chains.cypher", [fact_ids]);
pub const DELETE_FACTS: Statement = statement!("erasure/delete_facts.cypher", [fact_ids]);
pub const DELETE_EVENTS: Statement = statement!("erasure/delete_events.cypher", [memory_keys]);
pub const NODE_DEPENDENTS: Statement = statement!("erasure/node_dependents.cypher", [entity_keys]);
pub const DELETE_RELATIONSHIPS: Statement =
    statement!("erasure/delete_relationships.cypher", [rel_keys]);
pub const DELETE_NODES: Statement = statement!("erasure/delete_nodes.cypher", [entity_keys]);
pub const DELETE_STORYLINES: Statement =
    statement!("erasure/delete_storylines.cypher", [storyline_ids]);
pub const DELETE_MACROS: Statement = statement!("erasure/delete_macros.cypher", [macro_ids]);

// ---- one user ----

pub const USER_GRAPH: Statement = statement!("erasure/user_graph.cypher", [user_id]);
pub const USER_LEFTOVERS: Statement = statement!("erasure/user_leftovers.cypher", [user_id]);
pub const USER_SOURCES: Statement = statement!("erasure/user_sources.cypher", [user_id]);
pub const DELETE_USER_LINKS: Statement = statement!("erasure/delete_user_links.cypher", [user_id]);
pub const LEAVE_SOURCES: Statement = statement!("erasure/leave_sources.cypher", [user_id, at]);
pub const DELETE_USER_EVENTS: Statement =
    statement!("erasure/delete_user_events.cypher", [user_id]);

pub const ALL: &[&Statement] = &[
    &SOURCE_LINKS,
    &BRIDGE_THREAD,
    &REMOVE_NODE_NOTES,
    &UNLINK_RELATIONSHIPS,
    &REMOVE_INSIGHTS,
    &DELETE_EXTRACTIONS,
    &DELETE_SOURCES,
    &ORPHAN_NODES,
    &ORPHAN_RELATIONSHIPS,
    &STORYLINES_LEFT,
    &MACROS_LEFT,
    &CLEAR_STORYLINES,
    &CLEAR_MACROS,
    &RECOUNT_NODES,
    &ANCHOR_FLAGS,
    &CLEAR_RELATIONSHIPS,
    &FACT_CHAINS,
    &DELETE_FACTS,
    &DELETE_EVENTS,
    &NODE_DEPENDENTS,
    &DELETE_RELATIONSHIPS,
    &DELETE_NODES,
    &DELETE_STORYLINES,
    &DELETE_MACROS,
    &USER_GRAPH,
    &USER_LEFTOVERS,
    &USER_SOURCES,
    &DELETE_USER_LINKS,
    &LEAVE_SOURCES,
    &DELETE_USER_EVENTS,
];
