//! `cypher/notes/`: note search (`NoteSearchStore::search_notes`) over the full-text indexes on
//! the nodes' and relationships' `note_texts` (`schema/semantic_note_text`,
//! `schema/relates_note_text`). Both take the scope (`user_id`, `include_archived`,
//! `since`, `until`), the time notes must still be live at (`at`), the Lucene `query`
//! and a page of owners (`skip`, `limit`).

use super::{Statement, statement};

pub const SEARCH_NODES: Statement = statement!(
    "notes/search_nodes.cypher",
    [
        user_id,
        include_archived,
        since,
        until,
        at,
        query,
        skip,
        limit
    ]
);
pub const SEARCH_RELATIONSHIPS: Statement = statement!(
    "notes/search_relationships.cypher",
    [
        user_id,
        include_archived,
        since,
        until,
        at,
        query,
        skip,
        limit
    ]
);

/// Run by `migrate()` in batches: when the notes written before notes knew when they
/// were said were said.
pub const FILL_SAID_AT_NODES: Statement = statement!("notes/fill_said_at_nodes.cypher", [limit]);
pub const FILL_SAID_AT_RELATIONSHIPS: Statement =
    statement!("notes/fill_said_at_relationships.cypher", [limit]);

/// The insights derived from given Sources (`NoteSearchStore::insights_of`).
pub const INSIGHTS_OF: Statement = statement!("notes/insights_of.cypher", [user_id, source_keys]);

/// The searches.
pub const ALL: &[&Statement] = &[&SEARCH_NODES, &SEARCH_RELATIONSHIPS];
/// The reads by Source.
pub const BY_SOURCE: &[&Statement] = &[&INSIGHTS_OF];
/// The data steps.
pub const FILLS: &[&Statement] = &[&FILL_SAID_AT_NODES, &FILL_SAID_AT_RELATIONSHIPS];
