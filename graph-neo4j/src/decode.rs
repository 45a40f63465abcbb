//! Domain values from the properties Neo4j returns (the inverse of the Cypher files'
//! writes; `cypher/README.md` lists the stored model).

use cosmo_core::domain::{
    Actor, ExtractionRecord, ExtractionStatus, HierarchyCounters, LifecycleEvent, Macro,
    MemoryKind, MemoryState, NodeIdentity, NodeKind, Note, NoteLifetime, ProcessingStatus,
    Relationship, SemanticNode, Source, SourceBrief, SourceMeta, Storyline,
};
use cosmo_core::graph::{GraphError, GraphResult};
use neo4rs::Row;

use super::bolt::{Props, never, string_column, strings_column};

pub fn source(p: &Props) -> GraphResult<Source> {
    Ok(Source {
        entity_key: p.string("entity_key")?,
        user_id: p.string("user_id")?,
        team_id: p.opt_string("team_id")?,
        participants: p.strings("participants")?,
        source_type: p.parse("source_type")?,
        raw_content: p.json("raw_content")?.unwrap_or_default(),
        provenance: p.json("provenance")?,
        context_type: p.opt_string("context_type")?,
        started_at: p.opt_time("started_at")?,
        ended_at: p.opt_time("ended_at")?,
        sensitivity: p.parse("sensitivity")?,
        idempotency_key: p.string("idempotency_key")?,
        external_id: p.opt_string("external_id")?,
        content_hash: p.string("content_hash")?,
        content: p.opt_string("content")?.unwrap_or_default(),
        summary: p.opt_string("summary")?.unwrap_or_default(),
        keywords: p.strings("keywords")?,
        tags: p.strings("tags")?,
        embedding: p.embedding("embedding")?,
        // '' is "none" (Sources marked by `sources/mark_unindexed`), as NULL on SQLite.
        embedded_with: p.opt_string("embedded_with")?.filter(|f| !f.is_empty()),
        processing_status: p.parse::<ProcessingStatus>("processing_status")?,
        processing_started_at: p.opt_time("processing_started_at")?,
        processing_completed_at: p.opt_time("processing_completed_at")?,
        extraction_started_at: p.opt_time("extraction_started_at")?,
        extraction_completed_at: p.opt_time("extraction_completed_at")?,
        processing_error: p.opt_string("processing_error")?,
        lifecycle: p.lifecycle()?,
    })
}

pub fn extraction(p: &Props) -> GraphResult<ExtractionRecord> {
    Ok(ExtractionRecord {
        source_key: p.string("source_key")?,
        user_id: p.string("user_id")?,
        status: p.parse::<ExtractionStatus>("status")?,
        requested_at: p.time("requested_at")?,
        started_at: p.opt_time("started_at")?,
        completed_at: p.opt_time("completed_at")?,
        error: p.opt_string("error")?,
    })
}

/// A semantic node from a row with `labels` and `node` columns.
pub fn node(row: &Row) -> GraphResult<SemanticNode> {
    let labels = strings_column(row, "labels")?;
    let kind = NodeKind::ALL
        .iter()
        .copied()
        .find(|k| labels.iter().any(|l| l == k.label()))
        .ok_or_else(|| {
            GraphError::Backend(anyhow::anyhow!("a :Semantic node with labels {labels:?}"))
        })?;
    let p = Props::from_row(row, "node")?;
    let (identity_name, display_name, entity_type) = match kind {
        NodeKind::Person => (p.string("canonical_name")?, p.string("name")?, None),
        NodeKind::Concept => (p.string("name")?, p.string("display_name")?, None),
        NodeKind::Entity => (
            p.string("name")?,
            p.string("display_name")?,
            Some(p.string("type")?),
        ),
    };
    let mut distinct_days = p.dates("distinct_days")?;
    distinct_days.sort_unstable();
    Ok(SemanticNode {
        entity_key: p.string("entity_key")?,
        user_id: p.string("user_id")?,
        identity: NodeIdentity {
            kind,
            name: identity_name,
            entity_type,
        },
        name: display_name,
        description: p.opt_string("description")?.unwrap_or_default(),
        embedding: p.embedding("embedding")?,
        is_owner: p.opt_string("owner_of")?.is_some(),
        created_by: p.string("created_by")?,
        counters: HierarchyCounters {
            source_count: p.int("source_count")?,
            first_mentioned_at: p.opt_time("first_mentioned_at")?,
            last_mentioned_at: p.opt_time("last_mentioned_at")?,
            distinct_source_days: p.int("distinct_source_days")?,
            distinct_days,
            has_meso: p.bool("has_meso")?,
            has_macro: p.bool("has_macro")?,
        },
        is_dirty: p.bool("is_dirty")?,
        lifecycle: p.lifecycle()?,
        notes: notes(&p)?,
    })
}

/// A semantic relationship from a row with `from_key`, `to_key` and `relationship`.
pub fn relationship(row: &Row) -> GraphResult<Relationship> {
    let endpoint = |name| {
        string_column(row, name)?
            .ok_or_else(|| GraphError::Backend(anyhow::anyhow!("a RELATES link without {name}")))
    };
    let p = Props::from_row(row, "relationship")?;
    Ok(Relationship {
        rel_key: p.string("rel_key")?,
        user_id: p.string("user_id")?,
        from_key: endpoint("from_key")?,
        to_key: endpoint("to_key")?,
        relationship_type: p.string("relationship_type")?,
        description: p.opt_string("description")?.unwrap_or_default(),
        attitude: p.string("attitude")?,
        proximity: p.float("proximity")?,
        strength: p.float("strength")?,
        notes_embedding: p.embedding("notes_embedding")?,
        is_dirty: p.bool("is_dirty")?,
        created_by: p.string("created_by")?,
        lifecycle: p.lifecycle()?,
        notes: notes(&p)?,
    })
}

/// Notes from their parallel lists, oldest first (then by id), as the SQLite store
/// orders them.
pub fn notes(p: &Props) -> GraphResult<Vec<Note>> {
    let ids = p.strings("note_ids")?;
    let texts = p.strings("note_texts")?;
    let added_by = p.strings("note_added_by")?;
    let sources = p.strings("note_source_ids")?;
    let dates = p.times("note_dates")?;
    let lifetimes = p.strings("note_lifetimes")?;
    let expires = p.times("note_expires_at")?;
    // Written since notes know when they were said; the migration fills it in for
    // older notes, and until it has, a note was said when it was noted.
    let said = p.times("note_said_at")?;
    let n = ids.len();
    if [
        texts.len(),
        added_by.len(),
        sources.len(),
        dates.len(),
        lifetimes.len(),
        expires.len(),
    ]
    .iter()
    .any(|len| *len != n)
    {
        return Err(GraphError::Backend(anyhow::anyhow!(
            "the note lists of a node or relationship have different lengths"
        )));
    }
    let never = never();
    let mut notes = Vec::with_capacity(n);
    for i in 0..n {
        notes.push(Note {
            note_id: ids[i].clone(),
            text: texts[i].clone(),
            added_by: added_by[i].clone(),
            source_id: Some(sources[i].clone()).filter(|s| !s.is_empty()),
            date_added: dates[i],
            said_at: said.get(i).copied().unwrap_or(dates[i]),
            lifetime: lifetimes[i]
                .parse::<NoteLifetime>()
                .map_err(|e| GraphError::Backend(e.into()))?,
            expires_at: Some(expires[i]).filter(|t| *t != never),
        });
    }
    notes.sort_by(|a, b| (a.date_added, &a.note_id).cmp(&(b.date_added, &b.note_id)));
    Ok(notes)
}

pub fn storyline(p: &Props) -> GraphResult<Storyline> {
    Ok(Storyline {
        storyline_id: p.string("storyline_id")?,
        user_id: p.string("user_id")?,
        anchor_key: p.string("anchor_key")?,
        description: p.opt_string("description")?.unwrap_or_default(),
        embedding: p.embedding("embedding")?,
        source_count: p.int("source_count")?,
        first_source_at: p.opt_time("first_source_at")?,
        last_source_at: p.opt_time("last_source_at")?,
        is_dirty: p.bool("is_dirty")?,
        lifecycle: p.lifecycle()?,
    })
}

pub fn macro_(p: &Props) -> GraphResult<Macro> {
    Ok(Macro {
        macro_id: p.string("macro_id")?,
        user_id: p.string("user_id")?,
        anchor_key: p.string("anchor_key")?,
        description: p.opt_string("description")?.unwrap_or_default(),
        embedding: p.embedding("embedding")?,
        storyline_count: p.int("storyline_count")?,
        total_source_count: p.int("total_source_count")?,
        first_event_at: p.opt_time("first_event_at")?,
        last_event_at: p.opt_time("last_event_at")?,
        is_dirty: p.bool("is_dirty")?,
        lifecycle: p.lifecycle()?,
    })
}

/// What a Storyline or consolidation needs of a Source: a map
/// `s {.entity_key, .user_id, .summary, event_at}`.
pub fn brief(p: &Props) -> GraphResult<SourceBrief> {
    Ok(SourceBrief {
        entity_key: p.string("entity_key")?,
        user_id: p.string("user_id")?,
        summary: p.opt_string("summary")?.unwrap_or_default(),
        event_time: p.time("event_at")?,
    })
}

/// What a view lists of a Source: a map `s {.entity_key, .user_id, .source_type,
/// .context_type, .summary, .state, event_at}`.
pub fn source_meta(p: &Props) -> GraphResult<SourceMeta> {
    Ok(SourceMeta {
        entity_key: p.string("entity_key")?,
        user_id: p.string("user_id")?,
        source_type: p.parse("source_type")?,
        context_type: p.opt_string("context_type")?,
        summary: p.opt_string("summary")?.unwrap_or_default(),
        event_time: p.time("event_at")?,
        state: p.parse::<MemoryState>("state")?,
    })
}

/// One `:LifecycleEvent` node.
pub fn event(p: &Props) -> GraphResult<LifecycleEvent> {
    Ok(LifecycleEvent {
        memory_kind: p.parse::<MemoryKind>("memory_kind")?,
        memory_key: p.string("memory_key")?,
        user_id: p.string("user_id")?,
        previous_state: p.parse::<MemoryState>("previous_state")?,
        new_state: p.parse::<MemoryState>("new_state")?,
        reason: p.string("reason")?,
        actor: p.parse::<Actor>("actor")?,
        at: p.time("at")?,
    })
}
