//! Note search on SQLite (`NoteSearchStore::search_notes`): the contentless FTS5 table
//! `notes_fts`, keyed by `note_docs.doc_id` and kept in step with `notes` by triggers
//! (migration 0006), ranked by bm25; scope, the owner's state, expiry and an insight's
//! `derived_from` Sources come from the graph tables in the same query.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use cosmo_core::domain::{MemoryKind, NoteHit, SearchScope, relationship_label};
use cosmo_core::graph::{GraphResult, NoteSearchStore};
use cosmo_core::query_file;
use sqlx::Row;
use sqlx::sqlite::SqliteRow;

use super::episodic::SYSTEM_AUTHOR;
use super::{SqliteGraph, micros};

/// `$1` user, `$2` archived owners too, `$3`/`$4` the `said_at` range, `$5` the FTS5
/// query, `$6` now (expired notes are left out), `$7` the insight author, `$8` the limit.
/// bm25 is lower-is-better: the score is its negation. The match is materialised first,
/// as in `text_search`, so the planner never re-runs it per note.
///
/// An insight's Sources are its `derived_from` links by note id; a link recorded before
/// note ids were kept (no `note_id`) counts for every insight on its node, as erasure
/// counts it.
const SEARCH_NOTES: &str = query_file!("note_search/search_notes.sql");

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
        said_at: super::time(r, "said_at")?,
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

    async fn insights_of(
        &self,
        user_id: &str,
        source_keys: &[String],
        at: DateTime<Utc>,
    ) -> GraphResult<Vec<NoteHit>> {
        if source_keys.is_empty() {
            return Ok(Vec::new());
        }
        let rows = sqlx::query(query_file!("note_search/insights_of.sql"))
            .bind(user_id)
            .bind(serde_json::to_string(source_keys).map_err(anyhow::Error::from)?)
            .bind(micros(at))
            .bind(SYSTEM_AUTHOR)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(hit).collect()
    }
}
