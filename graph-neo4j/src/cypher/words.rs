//! `cypher/words/`: the searched words of memories written before they were stored,
//! filled in once at migration (`neo4j::words`).

use super::{Statement, statement};

pub const MISSING_SOURCE: Statement = statement!("words/missing_source.cypher", [limit]);
pub const MISSING_NODE: Statement = statement!("words/missing_node.cypher", [limit]);
pub const MISSING_STORYLINE: Statement = statement!("words/missing_storyline.cypher", [limit]);
pub const MISSING_MACRO: Statement = statement!("words/missing_macro.cypher", [limit]);
pub const MISSING_FACT: Statement = statement!("words/missing_fact.cypher", [limit]);

pub const SET_SOURCE: Statement = statement!(
    "words/set_source.cypher",
    [rows],
    rows: [
        key, c0, c0_terms, c0_counts, c0_len, c1, c1_terms, c1_counts, c1_len, c2, c2_terms,
        c2_counts, c2_len
    ]
);
pub const SET_NODE: Statement = statement!(
    "words/set_node.cypher",
    [rows],
    rows: [key, c0, c0_terms, c0_counts, c0_len, c1, c1_terms, c1_counts, c1_len]
);
pub const SET_STORYLINE: Statement = statement!(
    "words/set_storyline.cypher",
    [rows],
    rows: [key, c0, c0_terms, c0_counts, c0_len]
);
pub const SET_MACRO: Statement = statement!(
    "words/set_macro.cypher",
    [rows],
    rows: [key, c0, c0_terms, c0_counts, c0_len]
);
pub const SET_FACT: Statement = statement!(
    "words/set_fact.cypher",
    [rows],
    rows: [key, c0, c0_terms, c0_counts, c0_len, c1, c1_terms, c1_counts, c1_len]
);

pub const ALL: &[&Statement] = &[
    &MISSING_SOURCE,
    &MISSING_NODE,
    &MISSING_STORYLINE,
    &MISSING_MACRO,
    &MISSING_FACT,
    &SET_SOURCE,
    &SET_NODE,
    &SET_STORYLINE,
    &SET_MACRO,
    &SET_FACT,
];
