//! Note search on SQLite (`NoteSearchStore::search_notes`): the contentless FTS5 table
//! `notes_fts`, keyed by `note_docs.doc_id` and kept in step with `notes` by triggers
//! (migration 0006), ranked by bm25; scope, the owner's state, expiry and an insight's
//! `derived_from` Sources come from the graph tables in the same query.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use cosmo_core::domain::{MemoryKind, NoteHit, SearchScope, relationship_label};
use cosmo_core::graph::{GraphResult, NoteSearchStore};
use sqlx::Row;
use sqlx::sqlite::SqliteRow;

use super::episodic::SYSTEM_AUTHOR;
use super::{SqliteGraph, micros};

/// `$1` user, `$2` archived owners too, `$3`/`$4` the `date_added` range, `$5` the FTS5
/// query, `$6` now (expired notes are left out), `$7` the insight author, `$8` the limit.
/// bm25 is lower-is-better: the score is its negation. The match is materialised first,
/// as in `text_search`, so the planner never re-runs it per note.
///
/// An insight's Sources are its `derived_from` links by note id; a link recorded before
/// note ids were kept (no `note_id`) counts for every insight on its node, as erasure
/// counts it.
const SEARCH_NOTES: &str = "
WITH m AS MATERIALIZED (
    SELECT rowid AS doc_id, -bm25(notes_fts) AS score FROM notes_fts WHERE notes_fts MATCH $5)
SELECT n.owner_kind, n.owner_key, n.note_id, n.text, n.added_by, n.source_id, n.date_added,
       m.score AS score,
       o.name AS node_name, r.from_key, a.name AS from_name, r.relationship_type,
       r.to_key, b.name AS to_name,
       (SELECT json_group_array(source_key) FROM (
            SELECT DISTINCT df.source_key FROM derived_from df
            WHERE n.owner_kind = 'node' AND n.source_id IS NULL AND df.entity_key = n.owner_key
              AND (df.note_id = n.note_id OR (df.note_id IS NULL AND n.added_by = $7))
            ORDER BY df.source_key)) AS derived_from
FROM m
JOIN note_docs d ON d.doc_id = m.doc_id
JOIN notes n ON n.owner_key = d.owner_key AND n.note_id = d.note_id
LEFT JOIN nodes o ON n.owner_kind = 'node' AND o.entity_key = n.owner_key
LEFT JOIN relationships r ON n.owner_kind = 'relationship' AND r.rel_key = n.owner_key
LEFT JOIN nodes a ON a.entity_key = r.from_key
LEFT JOIN nodes b ON b.entity_key = r.to_key
WHERE n.user_id = $1
  AND coalesce(o.user_id, r.user_id) = $1
  AND (coalesce(o.state, r.state) <> 'archived' OR $2)
  AND n.date_added >= $3 AND n.date_added < $4
  AND (n.expires_at IS NULL OR n.expires_at > $6)
ORDER BY score DESC, n.owner_key, n.note_id
LIMIT $8";

/// An FTS5 query matching any of the terms, each a quoted string (never syntax), as
/// `text_search` builds it.
fn fts_query(terms: &[String]) -> Option<String> {
    let quoted: Vec<String> = terms
        .iter()
        .map(|t| t.trim())
        .filter(|t| !t.is_empty())
        .map(|t| format!("\"{}\"", t.replace('"', "\"\"")))
        .collect();
    (!quoted.is_empty()).then(|| quoted.join(" OR "))
}

fn hit(r: &SqliteRow) -> GraphResult<NoteHit> {
    let owner_kind = match r.try_get::<&str, _>("owner_kind")? {
        "relationship" => MemoryKind::Relationship,
        _ => MemoryKind::Node,
    };
    let owner_key: String = r.try_get("owner_key")?;
    let about = match owner_kind {
        MemoryKind::Relationship => vec![
            r.try_get::<Option<String>, _>("from_key")?
                .unwrap_or_default(),
            r.try_get::<Option<String>, _>("to_key")?
                .unwrap_or_default(),
        ],
        _ => vec![owner_key.clone()],
    };
    let owner = match owner_kind {
        MemoryKind::Relationship => relationship_label(
            &r.try_get::<Option<String>, _>("from_name")?
                .unwrap_or_default(),
            &r.try_get::<Option<String>, _>("relationship_type")?
                .unwrap_or_default(),
            &r.try_get::<Option<String>, _>("to_name")?
                .unwrap_or_default(),
        ),
        _ => r
            .try_get::<Option<String>, _>("node_name")?
            .unwrap_or_default(),
    };
    Ok(NoteHit {
        note_id: r.try_get("note_id")?,
        text: r.try_get("text")?,
        owner_kind,
        owner_key,
        owner,
        about,
        source_id: r.try_get("source_id")?,
        date_added: super::time(r, "date_added")?,
        added_by: r.try_get("added_by")?,
        score: r.try_get("score")?,
        derived_from: super::json_list(r, "derived_from")?,
    })
}

#[async_trait]
impl NoteSearchStore for SqliteGraph {
    async fn search_notes(
        &self,
        scope: &SearchScope,
        terms: &[String],
        at: DateTime<Utc>,
        limit: usize,
    ) -> GraphResult<Vec<NoteHit>> {
        let Some(query) = fts_query(terms) else {
            return Ok(Vec::new());
        };
        if limit == 0 {
            return Ok(Vec::new());
        }
        let rows = sqlx::query(SEARCH_NOTES)
            .bind(scope.user_id.as_str())
            .bind(scope.include_archived)
            .bind(scope.since.map_or(i64::MIN, micros))
            .bind(scope.until.map_or(i64::MAX, micros))
            .bind(query)
            .bind(micros(at))
            .bind(SYSTEM_AUTHOR)
            .bind(i64::try_from(limit).unwrap_or(i64::MAX))
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(hit).collect()
    }
}
