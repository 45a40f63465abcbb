//! What the full-text index reads of a user's memories: the searched columns of each
//! kind ([`rows_sql`]) and one memory's row as an index [`Entry`].

use cosmo_core::domain::Target;
use cosmo_core::graph::text_rank;
use sqlx::Row;
use sqlx::sqlite::SqliteRow;

/// The searched text of the user's (`$1`) memories of `target`, whatever their state
/// and time, as columns `c0`–`c2` (empty when the kind has fewer): of every memory
/// (`some` false) or of the keys in `$2` (a JSON array).
pub(in crate::search) fn rows_sql(target: Target, some: bool) -> &'static str {
    macro_rules! both {
        ($($t:tt)+) => {
            if some {
                concat!($($t)+, " AND d.key IN (SELECT value FROM json_each($2))")
            } else {
                concat!($($t)+)
            }
        };
    }
    match target {
        Target::Source => both!(
            "SELECT d.key, d.visibility, d.at, s.summary AS c0, s.content AS c1,
                    s.keywords AS c2
             FROM source_participants p
             CROSS JOIN search_docs d ON d.target = 'source' AND d.key = p.source_key
             JOIN sources s ON s.entity_key = d.key
             WHERE p.user_id = $1"
        ),
        Target::Node => both!(
            "SELECT d.key, d.visibility, d.at, n.name AS c0, n.description AS c1, '' AS c2
             FROM search_docs d JOIN nodes n ON n.entity_key = d.key
             WHERE d.user_id = $1 AND d.target = 'node'"
        ),
        Target::Storyline => both!(
            "SELECT d.key, d.visibility, d.at, s.description AS c0, '' AS c1, '' AS c2
             FROM search_docs d JOIN storylines s ON s.storyline_id = d.key
             WHERE d.user_id = $1 AND d.target = 'storyline'"
        ),
        Target::Macro => both!(
            "SELECT d.key, d.visibility, d.at, m.description AS c0, '' AS c1, '' AS c2
             FROM search_docs d JOIN macros m ON m.macro_id = d.key
             WHERE d.user_id = $1 AND d.target = 'macro'"
        ),
        Target::Fact => both!(
            "SELECT d.key, d.visibility, d.at, f.text AS c0, coalesce(f.value, '') AS c1,
                    '' AS c2
             FROM search_docs d JOIN facts f ON f.fact_id = d.key
             WHERE d.user_id = $1 AND d.target = 'fact'"
        ),
    }
}

/// A memory as read from its row: its words with their column-weighted frequencies.
pub(in crate::search) struct Entry {
    pub(super) visibility: i64,
    pub(super) at: i64,
    pub(super) len: u32,
    pub(super) words: Vec<(String, f32)>,
}

impl Entry {
    pub(super) fn from_row(target: Target, row: &SqliteRow) -> sqlx::Result<(String, Entry)> {
        let column = |c: &str| -> sqlx::Result<&str> {
            Ok(row.try_get::<Option<&str>, _>(c)?.unwrap_or_default())
        };
        let text_rank::Analyzed { len, words } =
            text_rank::analyze(target, [column("c0")?, column("c1")?, column("c2")?]);
        Ok((
            row.try_get("key")?,
            Entry {
                visibility: row.try_get("visibility")?,
                at: row.try_get("at")?,
                len,
                words,
            },
        ))
    }
}
