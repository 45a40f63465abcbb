//! `cypher/facts/`: facts. Every write of a user's facts runs in one transaction that
//! takes `lock_user` first.

use super::{Statement, statement};

pub const LOCK_USER: Statement = statement!("facts/lock_user.cypher", [user_id]);
pub const GET: Statement = statement!("facts/get.cypher", [fact_id]);
pub const LOCKED: Statement = statement!("facts/locked.cypher", [fact_id]);
pub const LIVE_SLOT: Statement =
    statement!("facts/live_slot.cypher", [user_id, category, fact_key]);
pub const LIVE_TEXT: Statement = statement!("facts/live_text.cypher", [user_id, text]);
pub const CREATE: Statement = statement!(
    "facts/create.cypher",
    [
        fact_id,
        user_id,
        text,
        text_terms,
        text_counts,
        text_len,
        category,
        fact_key,
        value,
        value_terms,
        value_counts,
        value_len,
        embedding,
        at,
        salience,
        state,
        confidence,
        access_count,
        recall_frequency,
        last_recall_interval,
        decay_gradient,
        ttl_policy,
        pinned,
    ]
);
/// Run by `migrate()` in batches: when the facts written before facts knew when they
/// were said were said.
pub const FILL_SAID_AT: Statement = statement!("facts/fill_said_at.cypher", [limit]);
pub const ABOUT: Statement = statement!("facts/about.cypher", [fact_id, entity_keys]);
pub const CITE: Statement = statement!("facts/cite.cypher", [fact_id, source_keys]);
pub const SUPERSEDE: Statement = statement!("facts/supersede.cypher", [fact_id, supersedes]);
pub const END: Statement = statement!("facts/end.cypher", [fact_id, at]);
pub const CONFIRM: Statement = statement!("facts/confirm.cypher", [fact_id, state, at]);
pub const SUPERSEDED_BY: Statement = statement!("facts/superseded_by.cypher", [fact_id]);
pub const CHAIN: Statement = statement!("facts/chain.cypher", [fact_id]);
pub const SOURCES: Statement = statement!("facts/sources.cypher", [fact_id]);
pub const ABOUT_NAMES: Statement = statement!("facts/about_names.cypher", [fact_id]);
pub const FOR_USER: Statement = statement!(
    "facts/for_user.cypher",
    [user_id, include_inactive, confirmed_only, limit]
);
pub const WEAK: Statement = statement!(
    "facts/weak.cypher",
    [user_id, salience_below, confidence_below, limit]
);

pub const ALL: &[&Statement] = &[
    &LOCK_USER,
    &GET,
    &LOCKED,
    &LIVE_SLOT,
    &LIVE_TEXT,
    &CREATE,
    &ABOUT,
    &CITE,
    &SUPERSEDE,
    &END,
    &CONFIRM,
    &SUPERSEDED_BY,
    &CHAIN,
    &SOURCES,
    &ABOUT_NAMES,
    &FOR_USER,
    &WEAK,
    &FILL_SAID_AT,
];
