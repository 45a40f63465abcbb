//! `cypher/search/`: the three signals of hybrid retrieval, one statement per signal and
//! kind of memory (the label is fixed in each file, picked from the closed `Target`
//! enum). Every one takes the scope: `user_id`, `include_archived`, `since`, `until`.

use super::{Statement, statement};

macro_rules! vector {
    ($file:literal) => {
        statement!(
            $file,
            [
                user_id,
                include_archived,
                since,
                until,
                embedding,
                norm,
                candidates,
                limit
            ]
        )
    };
}

macro_rules! text {
    ($file:literal) => {
        statement!($file, [user_id, include_archived, since, until, words])
    };
}

macro_rules! neighbours {
    ($file:literal) => {
        statement!(
            $file,
            [user_id, include_archived, since, until, seeds, limit]
        )
    };
}

pub const VECTOR_SOURCE: Statement = vector!("search/vector_source.cypher");
pub const VECTOR_NODE: Statement = vector!("search/vector_node.cypher");
pub const VECTOR_STORYLINE: Statement = vector!("search/vector_storyline.cypher");
pub const VECTOR_MACRO: Statement = vector!("search/vector_macro.cypher");
pub const VECTOR_FACT: Statement = vector!("search/vector_fact.cypher");

pub const TEXT_SOURCE: Statement = text!("search/text_source.cypher");
pub const TEXT_SOURCE_LUCENE: Statement = statement!(
    "search/text_source_lucene.cypher",
    [user_id, include_archived, since, until, query, limit]
);
pub const TEXT_NODE: Statement = text!("search/text_node.cypher");
pub const TEXT_STORYLINE: Statement = text!("search/text_storyline.cypher");
pub const TEXT_MACRO: Statement = text!("search/text_macro.cypher");
pub const TEXT_FACT: Statement = text!("search/text_fact.cypher");

pub const NEIGHBOURS_SOURCE: Statement = neighbours!("search/neighbours_source.cypher");
pub const NEIGHBOURS_NODE: Statement = neighbours!("search/neighbours_node.cypher");
pub const NEIGHBOURS_STORYLINE: Statement = neighbours!("search/neighbours_storyline.cypher");
pub const NEIGHBOURS_MACRO: Statement = neighbours!("search/neighbours_macro.cypher");
pub const NEIGHBOURS_FACT: Statement = neighbours!("search/neighbours_fact.cypher");

/// The over-fetched Source search of users with many Sources (`graph-neo4j/src/search.rs`).
pub const SOURCE_COUNTS: Statement = statement!("search/source_counts.cypher", [user_id]);
pub const VECTOR_SOURCE_FETCHED: Statement = statement!(
    "search/vector_source_fetched.cypher",
    [
        user_id,
        include_archived,
        since,
        until,
        embedding,
        norm,
        fetch,
        candidates
    ]
);
pub const TEXT_SOURCE_FETCHED: Statement = statement!(
    "search/text_source_fetched.cypher",
    [user_id, include_archived, since, until, query, fetch, limit]
);

pub const ALL: &[&Statement] = &[
    &VECTOR_SOURCE,
    &VECTOR_NODE,
    &VECTOR_STORYLINE,
    &VECTOR_MACRO,
    &VECTOR_FACT,
    &TEXT_SOURCE,
    &TEXT_NODE,
    &TEXT_STORYLINE,
    &TEXT_MACRO,
    &TEXT_FACT,
    &NEIGHBOURS_SOURCE,
    &NEIGHBOURS_NODE,
    &NEIGHBOURS_STORYLINE,
    &NEIGHBOURS_MACRO,
    &NEIGHBOURS_FACT,
    &SOURCE_COUNTS,
    &VECTOR_SOURCE_FETCHED,
    &TEXT_SOURCE_FETCHED,
    &TEXT_SOURCE_LUCENE,
];
