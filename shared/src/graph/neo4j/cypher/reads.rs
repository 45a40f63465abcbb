//! `cypher/reads/`: semantic nodes, relationships and mentions.

use super::{Statement, statement};

pub const NODE: Statement = statement!("reads/node.cypher", [entity_key]);
pub const NODES_FOR_USER: Statement =
    statement!("reads/nodes_for_user.cypher", [user_id, after, limit]);
pub const RELATIONSHIPS_FOR_USER: Statement = statement!(
    "reads/relationships_for_user.cypher",
    [user_id, after, limit]
);
pub const MENTIONS_FOR_USER: Statement = statement!("reads/mentions_for_user.cypher", [user_id]);

pub const ALL: &[&Statement] = &[
    &NODE,
    &NODES_FOR_USER,
    &RELATIONSHIPS_FOR_USER,
    &MENTIONS_FOR_USER,
];
