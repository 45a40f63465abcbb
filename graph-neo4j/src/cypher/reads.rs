//! `cypher/reads/`: semantic nodes, relationships and mentions; the read side's views
//! (Source metadata, a node's Sources and Storylines, the links around nodes).

use super::{Statement, statement};

pub const NODE: Statement = statement!("reads/node.cypher", [entity_key]);
pub const NODES_FOR_USER: Statement =
    statement!("reads/nodes_for_user.cypher", [user_id, after, limit]);
pub const RELATIONSHIPS_FOR_USER: Statement = statement!(
    "reads/relationships_for_user.cypher",
    [user_id, after, limit]
);
pub const MENTIONS_FOR_USER: Statement = statement!("reads/mentions_for_user.cypher", [user_id]);
pub const SOURCE_METAS: Statement = statement!("reads/source_metas.cypher", [keys]);
pub const PASSAGES: Statement = statement!("reads/passages.cypher", [source_keys]);
pub const NODE_SOURCES: Statement = statement!("reads/node_sources.cypher", [entity_key, limit]);
pub const STORYLINES_ABOUT: Statement = statement!("reads/storylines_about.cypher", [anchor_key]);
pub const RELATIONSHIPS_OF: Statement =
    statement!("reads/relationships_of.cypher", [user_id, node_keys, limit]);

pub const ALL: &[&Statement] = &[
    &NODE,
    &NODES_FOR_USER,
    &RELATIONSHIPS_FOR_USER,
    &MENTIONS_FOR_USER,
    &SOURCE_METAS,
    &PASSAGES,
    &NODE_SOURCES,
    &STORYLINES_ABOUT,
    &RELATIONSHIPS_OF,
];
