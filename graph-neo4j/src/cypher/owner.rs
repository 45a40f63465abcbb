//! `cypher/owner/`: the user's owner Person.

use super::{Statement, statement};

pub const GET: Statement = statement!("owner/get.cypher", [user_id]);
pub const LOOKUP: Statement = statement!("owner/lookup.cypher", [user_id, canonical_name]);
pub const PROMOTE: Statement = statement!(
    "owner/promote.cypher",
    [
        entity_key,
        user_id,
        canonical_name,
        name,
        name_terms,
        name_counts,
        name_len,
        state,
        salience,
        confidence,
        ttl_policy,
        at
    ]
);
pub const CREATE: Statement = statement!(
    "owner/create.cypher",
    [
        entity_key,
        user_id,
        canonical_name,
        name,
        name_terms,
        name_counts,
        name_len,
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
);

pub const ALL: &[&Statement] = &[&GET, &LOOKUP, &PROMOTE, &CREATE];
