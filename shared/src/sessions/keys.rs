//! The Source a chunk of a session becomes, named from user, session and first turn, so
//! posting the same chunk twice finds the first Source.

use crate::ids;

/// The external id of the Source made of a session's turns from `first_seq` on: the
/// Source's idempotency key, so storing it twice finds the first.
pub fn external_id(session_id: &str, first_seq: i64) -> String {
    format!("session:{session_id}:{first_seq}")
}

/// The entity key of that Source ([`crate::domain::input::SourceInput::identity_for`]
/// gives the same for a body with that `external_id`).
pub fn source_key(graph_user_id: &str, session_id: &str, first_seq: i64) -> String {
    ids::source_key(
        graph_user_id,
        &format!("external:{}", external_id(session_id, first_seq)),
    )
}
