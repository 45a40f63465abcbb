//! Phase 2's write in one Neo4j transaction: nodes, mentions and hierarchy counters,
//! relationships, notes, Storylines and completion (docs/architecture.md, "Phase 2").
//! Each step only changes something the first time, so applying the same write again is a
//! no-op; batches go through `UNWIND $rows`, one statement per step (per label for the
//! MERGEs).

use std::collections::BTreeMap;

use async_trait::async_trait;
use cosmo_core::domain::{
    ExtractionOutcome, ExtractionStatus, ExtractionWrite, Lifecycle, LifecycleEvent, MemoryState,
    NodeKind, NodeRef, NoteTarget, NoteWrite,
};
use cosmo_core::graph::{ExtractionStore, GraphError, GraphResult};
use cosmo_core::ids;
use neo4rs::{BoltType, Txn};

use super::bolt::{bool_column, int_column, list, string_column, strings_column};
use super::cypher::extraction as x;
use super::lifecycle::record_events;
use super::{Neo4jGraph, finish, rows, txn_rows};

/// Every index a write refers to exists (before anything is sent).
fn check_references(w: &ExtractionWrite) -> GraphResult<()> {
    let node = |r: NodeRef| match r {
        NodeRef::Extracted(i) if i >= w.nodes.len() => Err(missing(i)),
        _ => Ok(()),
    };
    for rel in &w.relationships {
        node(rel.from)?;
        node(rel.to)?;
    }
    for note in &w.notes {
        match note.target {
            NoteTarget::Node(r) => node(r)?,
            NoteTarget::Relationship(i) if i >= w.relationships.len() => return Err(missing(i)),
            NoteTarget::Relationship(_) => {}
        }
    }
    Ok(())
}

fn missing(i: usize) -> GraphError {
    GraphError::Conflict(format!("reference to missing item {i}"))
}

async fn write(txn: &mut Txn, w: &ExtractionWrite) -> GraphResult<ExtractionOutcome> {
    let mut out = ExtractionOutcome::default();
    let q = x::START_WRITE
        .bind()
        .p("source_key", w.source_key.as_str())
        .p("user_id", w.user_id.as_str());
    let start = txn_rows(txn, q.query()?).await?;
    let start = start
        .first()
        .ok_or_else(|| anyhow::anyhow!("extraction/start_write.cypher returned no row"))?;
    // A completed extraction is never applied again (a retry, or a second run with
    // different model answers): nothing is written.
    if string_column(start, "status")?.as_deref() == Some(ExtractionStatus::Extracted.as_str()) {
        out.already_complete = true;
        return Ok(out);
    }
    // Every index the write refers to exists (before anything is written).
    check_references(w)?;
    if !bool_column(start, "source_exists")? {
        return Err(GraphError::NotFound(format!("source {}", w.source_key)));
    }
    let owner_key = string_column(start, "owner_key")?;
    let resolve = |r: NodeRef, node_keys: &[String]| -> GraphResult<String> {
        match r {
            NodeRef::Extracted(i) => node_keys.get(i).cloned().ok_or_else(|| missing(i)),
            NodeRef::Owner => owner_key.clone().ok_or_else(|| {
                GraphError::Conflict(format!(
                    "user {} has no owner Person (no profile)",
                    w.user_id
                ))
            }),
        }
    };
    // Fail before writing anything when the write names an owner the user lacks.
    let names_owner = w
        .relationships
        .iter()
        .any(|r| r.from == NodeRef::Owner || r.to == NodeRef::Owner)
        || w.notes
            .iter()
            .any(|n| n.target == NoteTarget::Node(NodeRef::Owner));
    if names_owner {
        resolve(NodeRef::Owner, &[])?;
    }

    // Nodes: MERGE each distinct identity once, per label.
    let mut keys: BTreeMap<String, (String, bool)> = BTreeMap::new();
    for kind in NodeKind::ALL {
        let (statement, batch) = rows::node_rows(w, *kind)?;
        if batch.is_empty() {
            continue;
        }
        let q = statement
            .bind()
            .p("rows", BoltType::List(batch.into()))
            .p("user_id", w.user_id.as_str())
            .p("at", w.at);
        for row in txn_rows(txn, q.query()?).await? {
            let requested = string_column(&row, "requested_key")?.unwrap_or_default();
            let actual = string_column(&row, "entity_key")?.unwrap_or_default();
            let created = bool_column(&row, "created")?;
            keys.insert(requested, (actual, created));
        }
    }
    for n in &w.nodes {
        let (key, _) = keys
            .get(&ids::node_key(&w.user_id, &n.identity))
            .ok_or_else(|| {
                anyhow::anyhow!("MERGE returned no node for {}", n.identity.key_string())
            })?;
        out.node_keys.push(key.clone());
    }
    out.nodes_created = keys.values().filter(|(_, created)| *created).count();

    // Mentions, and the hierarchy counters once per (Source, node).
    let mut distinct: Vec<&str> = out.node_keys.iter().map(String::as_str).collect();
    distinct.sort_unstable();
    distinct.dedup();
    if !distinct.is_empty() {
        let q = x::MENTIONS
            .bind()
            .p("source_key", w.source_key.as_str())
            .p("entity_keys", list(distinct))
            .p("user_id", w.user_id.as_str())
            .p("at", w.at)
            .p("event_time", w.event_time)
            .p("event_day", w.event_time.date_naive())
            .p("initial_salience", Lifecycle::INITIAL_SALIENCE);
        let rows = txn_rows(txn, q.query()?).await?;
        if let Some(row) = rows.first() {
            out.mentions_created =
                usize::try_from(int_column(row, "created_count")?).unwrap_or_default();
            let confirmed = strings_column(row, "confirmed_keys")?;
            let revived = strings_column(row, "revived_keys")?;
            confirm(txn, w, confirmed, revived).await?;
        }
    }

    // Relationships, MERGEd by their deterministic key.
    let mut rel_keys = Vec::with_capacity(w.relationships.len());
    let mut rel_rows = BTreeMap::new();
    for rel in &w.relationships {
        let (from, to) = (
            resolve(rel.from, &out.node_keys)?,
            resolve(rel.to, &out.node_keys)?,
        );
        let key = ids::relationship_key(&w.user_id, &from, &to, &rel.relationship_type);
        if !rel_rows.contains_key(&key) {
            let row = rows::relationship_row(rel, &key, &from, &to, w)?;
            rel_rows.insert(key.clone(), row);
        }
        rel_keys.push(key);
    }
    if !rel_rows.is_empty() {
        let q = x::RELATIONSHIPS
            .bind()
            .p("rows", BoltType::List(rel_rows.into_values().collect()))
            .p("user_id", w.user_id.as_str())
            .p("source_key", w.source_key.as_str())
            .p("at", w.at);
        out.relationships_created = count(txn, q.query()?, "created_count").await?;
    }

    // Notes, deduplicated by id; a target turns dirty only when one is added.
    let mut node_notes: BTreeMap<String, Vec<&NoteWrite>> = BTreeMap::new();
    let mut rel_notes: BTreeMap<String, Vec<&NoteWrite>> = BTreeMap::new();
    for note in &w.notes {
        match note.target {
            NoteTarget::Node(r) => node_notes
                .entry(resolve(r, &out.node_keys)?)
                .or_default()
                .push(note),
            NoteTarget::Relationship(i) => rel_notes
                .entry(rel_keys.get(i).cloned().ok_or_else(|| missing(i))?)
                .or_default()
                .push(note),
        }
    }
    for (statement, notes) in [
        (&x::NODE_NOTES, node_notes),
        (&x::RELATIONSHIP_NOTES, rel_notes),
    ] {
        if notes.is_empty() {
            continue;
        }
        let batch = notes
            .into_iter()
            .map(|(target, notes)| rows::note_row(statement, w, &target, &notes))
            .collect::<GraphResult<Vec<_>>>()?;
        let q = statement
            .bind()
            .p("rows", BoltType::List(batch.into()))
            .p("user_id", w.user_id.as_str())
            .p("source_key", w.source_key.as_str())
            .p("at", w.at);
        out.notes_added += count(txn, q.query()?, "added").await?;
    }

    // Storylines (and their Macros) take the Source once.
    let mut storylines: Vec<&str> = w.storylines.iter().map(String::as_str).collect();
    storylines.sort_unstable();
    storylines.dedup();
    if !storylines.is_empty() {
        let q = x::JOIN_STORYLINES
            .bind()
            .p("source_key", w.source_key.as_str())
            .p("storyline_ids", list(storylines))
            .p("user_id", w.user_id.as_str())
            .p("event_time", w.event_time)
            .p("at", w.at);
        let rows = txn_rows(txn, q.query()?).await?;
        let joined = match rows.first() {
            Some(row) => strings_column(row, "joined_ids")?,
            None => Vec::new(),
        };
        out.storylines_joined = joined.len();
        if !joined.is_empty() {
            let q = x::JOIN_MACROS
                .bind()
                .p("storyline_ids", list(joined))
                .p("event_time", w.event_time)
                .p("at", w.at);
            txn_rows(txn, q.query()?).await?;
        }
    }

    // Completion: done for this (Source, user); the Source itself for its owner.
    let q = x::COMPLETE
        .bind()
        .p("source_key", w.source_key.as_str())
        .p("user_id", w.user_id.as_str())
        .p("at", w.at);
    txn_rows(txn, q.query()?).await?;
    if w.is_source_owner {
        let q = x::COMPLETE_SOURCE
            .bind()
            .p("source_key", w.source_key.as_str())
            .p("at", w.at);
        txn_rows(txn, q.query()?).await?;
    }
    Ok(out)
}

/// Candidates a second Source confirmed and archived nodes it revived
/// (`mentions.cypher` made them active): their `re_mentioned` events, in the same
/// transaction.
async fn confirm(
    txn: &mut Txn,
    w: &ExtractionWrite,
    confirmed: Vec<String>,
    revived: Vec<String>,
) -> GraphResult<()> {
    let events: Vec<LifecycleEvent> = confirmed
        .into_iter()
        .map(|key| w.re_mentioned(key, MemoryState::Candidate))
        .chain(
            revived
                .into_iter()
                .map(|key| w.re_mentioned(key, MemoryState::Archived)),
        )
        .collect();
    record_events(txn, &events.iter().collect::<Vec<_>>()).await
}

/// The single integer a counting statement returns.
pub(super) async fn count(txn: &mut Txn, q: neo4rs::Query, column: &str) -> GraphResult<usize> {
    let rows = txn_rows(txn, q).await?;
    let n = match rows.first() {
        Some(row) => int_column(row, column)?,
        None => 0,
    };
    Ok(usize::try_from(n).unwrap_or_default())
}

#[async_trait]
impl ExtractionStore for Neo4jGraph {
    async fn write_extraction(&self, w: &ExtractionWrite) -> GraphResult<ExtractionOutcome> {
        self.retrying(|| async {
            let mut txn = self.begin().await?;
            let result = write(&mut txn, w).await;
            finish(txn, result).await
        })
        .await
    }
}
