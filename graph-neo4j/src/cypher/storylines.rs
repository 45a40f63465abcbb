//! `cypher/storylines/` and `cypher/macros/`: the meso and macro levels.

use super::{Statement, statement};

/// The lifecycle parameters of a promoted memory (Storyline, Macro).
macro_rules! promoted {
    ($file:literal, [$($param:ident),* $(,)?]) => {
        statement!(
            $file,
            [
                $($param,)*
                salience,
                state,
                confidence,
                access_count,
                recall_frequency,
                last_recall_interval,
                decay_gradient,
                ttl_policy,
                pinned,
                at,
            ]
        )
    };
}

pub const ANCHOR_USER: Statement = statement!("storylines/anchor_user.cypher", [anchor_key]);
pub const CREATE: Statement = promoted!(
    "storylines/create.cypher",
    [
        anchor_key,
        storyline_id,
        user_id,
        description,
        description_terms,
        description_counts,
        description_len,
        embedding
    ]
);
pub const INCLUDE_SOURCES: Statement = statement!(
    "storylines/include_sources.cypher",
    [storyline_id, source_keys]
);
pub const REFRESH: Statement = statement!("storylines/refresh.cypher", [storyline_id]);
pub const ATTACH: Statement =
    statement!("storylines/attach.cypher", [storyline_id, anchor_key, at]);
pub const JOIN_MACRO: Statement = statement!(
    "storylines/join_macro.cypher",
    [storyline_id, anchor_key, at]
);
pub const GET: Statement = statement!("storylines/get.cypher", [storyline_id]);
pub const SOURCES: Statement = statement!("storylines/sources.cypher", [storyline_id]);
pub const FOR_USER: Statement = statement!("storylines/for_user.cypher", [user_id]);
pub const CANDIDATES_PERSON: Statement = statement!(
    "storylines/candidates_person.cypher",
    [name, user_id, since, limit]
);
pub const CANDIDATES_CONCEPT: Statement = statement!(
    "storylines/candidates_concept.cypher",
    [name, user_id, since, limit]
);
pub const CANDIDATES_ENTITY: Statement = statement!(
    "storylines/candidates_entity.cypher",
    [name, entity_type, user_id, since, limit]
);

pub const CREATE_MACRO: Statement = promoted!(
    "macros/create.cypher",
    [
        anchor_key,
        user_id,
        macro_id,
        description,
        description_terms,
        description_counts,
        description_len,
        embedding
    ]
);
pub const GROUP_MACRO: Statement =
    statement!("macros/group.cypher", [macro_id, storyline_ids, user_id]);
pub const REFRESH_MACRO: Statement = statement!("macros/refresh.cypher", [macro_id]);
pub const ATTACH_MACRO: Statement = statement!("macros/attach.cypher", [macro_id, anchor_key, at]);
pub const GET_MACRO: Statement = statement!("macros/get.cypher", [macro_id]);

pub const ALL: &[&Statement] = &[
    &ANCHOR_USER,
    &CREATE,
    &INCLUDE_SOURCES,
    &REFRESH,
    &ATTACH,
    &JOIN_MACRO,
    &GET,
    &SOURCES,
    &FOR_USER,
    &CANDIDATES_PERSON,
    &CANDIDATES_CONCEPT,
    &CANDIDATES_ENTITY,
    &CREATE_MACRO,
    &GROUP_MACRO,
    &REFRESH_MACRO,
    &ATTACH_MACRO,
    &GET_MACRO,
];
