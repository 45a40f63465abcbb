//! `cypher/links/`: typed links between Sources, `(:Source)-[:precedes]->(:Source)`
//! (temporal, the next Source of the thread) and `(:Source)-[:caused]->(:Source)`
//! (causal, cause to effect), and the Sources' `thread_key` and `causal_pending`.

use super::{Statement, statement};

pub const OWNER: Statement = statement!("links/owner.cypher", [entity_key]);
pub const JOIN: Statement = statement!("links/join.cypher", [entity_key, thread_key]);
pub const PLACE: Statement = statement!("links/place.cypher", [entity_key, thread_key, joined, at]);
pub const CAUSAL_CANDIDATES: Statement =
    statement!("links/causal_candidates.cypher", [after, window, limit]);
pub const SAVE_CAUSAL: Statement = statement!(
    "links/save_causal.cypher",
    [effect_key, at, rows],
    rows: [cause_key, confidence, inferred_by, evidence]
);
pub const OF_SOURCES: Statement = statement!("links/of_sources.cypher", [keys]);

pub const ALL: &[&Statement] = &[
    &OWNER,
    &JOIN,
    &PLACE,
    &CAUSAL_CANDIDATES,
    &SAVE_CAUSAL,
    &OF_SOURCES,
];
