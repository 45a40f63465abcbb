//! Phase 2's write in one SQLite transaction: nodes, mentions and hierarchy counters,
//! relationships, notes, Storylines and completion (docs/architecture.md, "Phase 2").
//! Each step only changes something the first time: a second application of the same
//! write is a no-op.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use cosmo_core::domain::{
    ExtractionOutcome, ExtractionWrite, Lifecycle, MemoryState, NodeRef, NodeUpsert, NoteTarget,
    TtlPolicy,
};
use cosmo_core::graph::{ExtractionStore, GraphError, GraphResult};
use cosmo_core::ids;
use cosmo_core::query_file;

use super::{SqliteGraph, micros};

type Tx = crate::WriteTx;

const MARK_NODE_DIRTY: &str = query_file!("extraction/mark_node_dirty.sql");
const MARK_REL_DIRTY: &str = query_file!("extraction/mark_relationship_dirty.sql");

fn out_key(keys: &[String], i: usize) -> GraphResult<String> {
    keys.get(i)
        .cloned()
        .ok_or_else(|| GraphError::Conflict(format!("reference to missing item {i}")))
}

/// MERGE by identity; ON CREATE the lifecycle defaults. Returns (entity key, created).
async fn merge_node(
    tx: &mut Tx,
    user_id: &str,
    n: &NodeUpsert,
    at: DateTime<Utc>,
) -> GraphResult<(String, bool)> {
    let entity_type = n.identity.entity_type.clone().unwrap_or_default();
    let existing: Option<String> = sqlx::query_scalar(query_file!("extraction/find_node.sql"))
        .bind(user_id)
        .bind(n.identity.kind.as_str())
        .bind(&n.identity.name)
        .bind(&entity_type)
        .fetch_optional(&mut **tx)
        .await?;
    if let Some(key) = existing {
        return Ok((key, false));
    }
    let key = ids::node_key(user_id, &n.identity);
    let lc = Lifecycle::new(n.confidence, TtlPolicy::Decay, at);
    sqlx::query(query_file!("extraction/insert_node.sql"))
        .bind(&key)
        .bind(user_id)
        .bind(n.identity.kind.as_str())
        .bind(&n.identity.name)
        .bind(&entity_type)
        .bind(&n.display_name)
        .bind(lc.salience)
        .bind(lc.state.as_str())
        .bind(lc.confidence)
        .bind(lc.decay_gradient)
        .bind(lc.ttl_policy.as_str())
        .bind(micros(at))
        .execute(&mut **tx)
        .await?;
    Ok((key, true))
}

/// `(Source)-[:mentions]->(node)`, and the hierarchy counters only when the link is new:
/// a Source counts once per node, on its event time.
async fn mention(tx: &mut Tx, w: &ExtractionWrite, key: &str) -> GraphResult<bool> {
    let created = sqlx::query(query_file!("extraction/insert_mention.sql"))
        .bind(&w.source_key)
        .bind(key)
        .bind(&w.user_id)
        .bind(micros(w.at))
        .execute(&mut **tx)
        .await?
        .rows_affected()
        == 1;
    if !created {
        return Ok(false);
    }
    let new_day = sqlx::query(query_file!("extraction/insert_node_day.sql"))
        .bind(key)
        .bind(w.event_time.date_naive().to_string())
        .execute(&mut **tx)
        .await?
        .rows_affected();
    let event = micros(w.event_time);
    sqlx::query(query_file!("extraction/count_node_mention.sql"))
        .bind(key)
        .bind(event)
        .bind(new_day as i64)
        .bind(micros(w.at))
        .execute(&mut **tx)
        .await?;
    confirm(tx, w, key).await?;
    Ok(true)
}

/// A candidate mentioned by a second Source is confirmed by it: `candidate → active`.
/// (Retrieval confirms memories too; this is how themes that keep coming up become
/// eligible for Storylines before anyone searched for them.) An archived node a new
/// Source mentions is part of what is being said again: `archived → active`, decaying
/// from now and at least as salient as a new memory, as a restore leaves it. Both are
/// logged as `re_mentioned`; a pinned node keeps its state.
async fn confirm(tx: &mut Tx, w: &ExtractionWrite, key: &str) -> GraphResult<()> {
    let confirmed = sqlx::query(query_file!("extraction/confirm_candidate.sql"))
        .bind(key)
        .bind(micros(w.at))
        .execute(&mut **tx)
        .await?
        .rows_affected();
    let revived = sqlx::query(query_file!("extraction/revive_archived.sql"))
        .bind(key)
        .bind(micros(w.at))
        .bind(Lifecycle::INITIAL_SALIENCE)
        .execute(&mut **tx)
        .await?
        .rows_affected();
    let previous_state = match (confirmed, revived) {
        (1, _) => MemoryState::Candidate,
        (_, 1) => MemoryState::Archived,
        _ => return Ok(()),
    };
    let event = w.re_mentioned(key.to_owned(), previous_state);
    super::lifecycle::record_event(tx, &event).await
}

/// The Source joins a Storyline; its stats and its Macro's move once.
async fn join_storyline(tx: &mut Tx, w: &ExtractionWrite, storyline_id: &str) -> GraphResult<bool> {
    let joined = sqlx::query(query_file!("extraction/join_storyline.sql"))
        .bind(storyline_id)
        .bind(&w.source_key)
        .bind(&w.user_id)
        .execute(&mut **tx)
        .await?
        .rows_affected()
        == 1;
    if !joined {
        return Ok(false);
    }
    let (event, at) = (micros(w.event_time), micros(w.at));
    sqlx::query(query_file!("extraction/count_storyline_source.sql"))
        .bind(storyline_id)
        .bind(event)
        .bind(at)
        .execute(&mut **tx)
        .await?;
    sqlx::query(query_file!("extraction/count_macro_source.sql"))
        .bind(storyline_id)
        .bind(event)
        .bind(at)
        .execute(&mut **tx)
        .await?;
    Ok(true)
}

/// Completion: the extraction is complete for this (Source, user); the Source itself is
/// `extracted` once its owner's extraction is.
async fn complete(tx: &mut Tx, w: &ExtractionWrite) -> GraphResult<()> {
    let at = micros(w.at);
    sqlx::query(query_file!("extraction/complete_extraction.sql"))
        .bind(&w.source_key)
        .bind(&w.user_id)
        .bind(at)
        .execute(&mut **tx)
        .await?;
    if w.is_source_owner {
        sqlx::query(query_file!("extraction/mark_source_extracted.sql"))
            .bind(&w.source_key)
            .bind(at)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

#[async_trait]
impl ExtractionStore for SqliteGraph {
    async fn write_extraction(&self, w: &ExtractionWrite) -> GraphResult<ExtractionOutcome> {
        let mut tx = self.begin().await?;
        let mut out = ExtractionOutcome::default();
        let status: Option<String> =
            sqlx::query_scalar(query_file!("extraction/extraction_status.sql"))
                .bind(&w.source_key)
                .bind(&w.user_id)
                .fetch_optional(&mut *tx)
                .await?;
        if status.as_deref() == Some("extracted") {
            out.already_complete = true;
            return Ok(out);
        }

        let owner_key: Option<String> =
            sqlx::query_scalar(query_file!("extraction/owner_node.sql"))
                .bind(&w.user_id)
                .fetch_optional(&mut *tx)
                .await?;
        for node in &w.nodes {
            let (key, created) = merge_node(&mut tx, &w.user_id, node, w.at).await?;
            out.nodes_created += usize::from(created);
            out.node_keys.push(key);
        }
        let resolve = |r: NodeRef| -> GraphResult<String> {
            match r {
                NodeRef::Extracted(i) => out_key(&out.node_keys, i),
                NodeRef::Owner => owner_key.clone().ok_or_else(|| {
                    GraphError::Conflict(format!(
                        "user {} has no owner Person (no profile)",
                        w.user_id
                    ))
                }),
            }
        };

        for key in out.node_keys.clone() {
            out.mentions_created += usize::from(mention(&mut tx, w, &key).await?);
        }

        let mut rel_keys = Vec::with_capacity(w.relationships.len());
        for rel in &w.relationships {
            let (from, to) = (resolve(rel.from)?, resolve(rel.to)?);
            let key = ids::relationship_key(&w.user_id, &from, &to, &rel.relationship_type);
            let lc = Lifecycle::new(rel.confidence, TtlPolicy::Decay, w.at);
            let created = sqlx::query(query_file!("extraction/insert_relationship.sql"))
                .bind(&key)
                .bind(&w.user_id)
                .bind(&from)
                .bind(&to)
                .bind(&rel.relationship_type)
                .bind(&rel.description)
                .bind(&rel.attitude)
                .bind(rel.proximity)
                .bind(rel.strength)
                .bind(lc.salience)
                .bind(lc.state.as_str())
                .bind(lc.confidence)
                .bind(lc.decay_gradient)
                .bind(lc.ttl_policy.as_str())
                .bind(micros(w.at))
                .execute(&mut *tx)
                .await?
                .rows_affected()
                == 1;
            out.relationships_created += usize::from(created);
            // Provenance: erasing every Source a relationship came from erases it.
            sqlx::query(query_file!("extraction/insert_relationship_source.sql"))
                .bind(&key)
                .bind(&w.source_key)
                .execute(&mut *tx)
                .await?;
            rel_keys.push(key);
        }

        for note in &w.notes {
            let (owner_kind, target, mark_dirty) = match note.target {
                NoteTarget::Node(r) => ("node", resolve(r)?, MARK_NODE_DIRTY),
                NoteTarget::Relationship(i) => {
                    ("relationship", out_key(&rel_keys, i)?, MARK_REL_DIRTY)
                }
            };
            let note_id = ids::note_id(&target, &w.user_id, Some(&w.source_key), &note.text);
            let added = sqlx::query(query_file!("extraction/insert_note.sql"))
                .bind(&target)
                .bind(&note_id)
                .bind(owner_kind)
                .bind(&w.user_id)
                .bind(&note.text)
                .bind(&w.source_key)
                .bind(micros(w.at))
                .bind(note.lifetime.as_str())
                .bind(note.lifetime.expires_at(w.at).map(micros))
                .bind(micros(note.said_at))
                .execute(&mut *tx)
                .await?
                .rows_affected()
                == 1;
            if added {
                out.notes_added += 1;
                sqlx::query(mark_dirty)
                    .bind(&target)
                    .bind(micros(w.at))
                    .execute(&mut *tx)
                    .await?;
            }
        }

        for storyline_id in &w.storylines {
            out.storylines_joined += usize::from(join_storyline(&mut tx, w, storyline_id).await?);
        }

        complete(&mut tx, w).await?;
        tx.commit().await?;
        Ok(out)
    }
}
