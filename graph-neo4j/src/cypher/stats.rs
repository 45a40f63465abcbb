//! `cypher/stats/`: a user's memory in numbers (`memory_stats`), one grouped count per
//! kind of memory, each found through the `user_id` index of its label or type.

use super::{Statement, statement};

pub const SOURCES: Statement = statement!("stats/sources.cypher", [user_id]);
pub const NODES: Statement = statement!("stats/nodes.cypher", [user_id]);
pub const RELATIONSHIPS: Statement = statement!("stats/relationships.cypher", [user_id]);
pub const AGGREGATES: Statement = statement!("stats/aggregates.cypher", [user_id]);
pub const EXTRACTIONS: Statement = statement!("stats/extractions.cypher", [user_id]);
pub const MENTIONS: Statement = statement!("stats/mentions.cypher", [user_id]);
pub const SOURCE_LINKS: Statement = statement!("stats/source_links.cypher", [user_id]);

pub const ALL: &[&Statement] = &[
    &SOURCES,
    &NODES,
    &RELATIONSHIPS,
    &AGGREGATES,
    &EXTRACTIONS,
    &MENTIONS,
    &SOURCE_LINKS,
];
