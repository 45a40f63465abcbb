//! Turns the models' answers into one [`ExtractionWrite`]: the confidence/subpoint
//! filter, identity keys, and the note-taking agent's tool calls resolved to the nodes
//! and relationships they name.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use cosmo_shared::domain::names;
use cosmo_shared::domain::{
    NodeIdentity, NodeKind, NodeRef, NodeUpsert, NoteLifetime, NoteTarget, NoteWrite,
    RelationshipUpsert,
};
use cosmo_shared::llm::{AgentAction, ExtractedEntity, OWNER};

/// The filter keeps an extracted entity with `confidence ≥ 7/10` …
pub const MIN_CONFIDENCE: f64 = 7.0;
/// … and more than 2 subpoints.
pub const MIN_SUBPOINTS: usize = 3;

const MAX_NOTE_CHARS: usize = 2000;

/// The part of an [`cosmo_shared::domain::ExtractionWrite`] that comes from the models.
#[derive(Debug, Default, PartialEq)]
pub struct Plan {
    pub nodes: Vec<NodeUpsert>,
    pub relationships: Vec<RelationshipUpsert>,
    pub notes: Vec<NoteWrite>,
    /// Tool calls naming nothing we kept (logged, not applied).
    pub skipped_actions: usize,
}

pub fn identity(e: &ExtractedEntity) -> NodeIdentity {
    match e.kind {
        NodeKind::Person => NodeIdentity::person(&e.name),
        NodeKind::Concept => NodeIdentity::concept(&e.name),
        NodeKind::Entity => {
            NodeIdentity::entity(&e.name, e.entity_type.as_deref().unwrap_or("other"))
        }
    }
}

/// Applies the filter and merges duplicates (same identity) keeping the most confident.
pub fn keep(entities: Vec<ExtractedEntity>) -> Vec<ExtractedEntity> {
    let mut kept: BTreeMap<NodeIdentity, ExtractedEntity> = BTreeMap::new();
    let mut order = Vec::new();
    for e in entities {
        let id = identity(&e);
        let passes = e.confidence >= MIN_CONFIDENCE
            && e.subpoints.len() >= MIN_SUBPOINTS
            && !id.name.is_empty();
        if !passes {
            continue;
        }
        match kept.get(&id) {
            Some(existing) if existing.confidence >= e.confidence => {}
            Some(_) => {
                kept.insert(id, e);
            }
            None => {
                order.push(id.clone());
                kept.insert(id, e);
            }
        }
    }
    order
        .into_iter()
        .filter_map(|id| kept.remove(&id))
        .collect()
}

/// Builds nodes, relationships and notes. `owner` is the owner Person's identity when
/// the user has a profile: `@owner` then names it (or the extracted node that is it).
/// `said_at` dates a note by its text: when the turn it came from was said.
pub fn build(
    kept: &[ExtractedEntity],
    actions: &[AgentAction],
    owner: Option<&NodeIdentity>,
    said_at: &dyn Fn(&str) -> DateTime<Utc>,
) -> Plan {
    let mut plan = Plan::default();
    let mut by_name: BTreeMap<String, Vec<(NodeKind, usize)>> = BTreeMap::new();
    let mut owner_ref = owner.map(|_| NodeRef::Owner);
    for (i, e) in kept.iter().enumerate() {
        let id = identity(e);
        if Some(&id) == owner {
            owner_ref = Some(NodeRef::Extracted(i));
        }
        by_name
            .entry(names::normalise(&e.name))
            .or_default()
            .push((e.kind, i));
        plan.nodes.push(NodeUpsert {
            identity: id,
            display_name: e.name.trim().to_owned(),
            confidence: (e.confidence / 10.0).clamp(0.0, 1.0),
        });
    }
    let resolve = |name: &str, kind: Option<NodeKind>| -> Option<NodeRef> {
        if name == OWNER {
            return owner_ref;
        }
        let matches = by_name.get(&names::normalise(name))?;
        let hit = kind
            .and_then(|k| matches.iter().find(|(mk, _)| *mk == k))
            .or_else(|| matches.first());
        hit.map(|(_, i)| NodeRef::Extracted(*i))
    };
    let mut rel_index: BTreeMap<(NodeRef, NodeRef, String), usize> = BTreeMap::new();
    for action in actions {
        match action {
            AgentAction::AddNote {
                kind,
                name,
                note,
                lifetime,
            } => match (resolve(name, Some(*kind)), clean_note(note)) {
                (Some(node), Some(text)) => {
                    push_note(&mut plan, NoteTarget::Node(node), text, *lifetime, said_at)
                }
                _ => plan.skipped_actions += 1,
            },
            AgentAction::CreateRelationship {
                from,
                to,
                relationship_type,
                description,
                attitude,
                proximity,
                strength,
                confidence,
            } => match (resolve(from, None), resolve(to, None)) {
                (Some(f), Some(t)) if f != t => {
                    let rel_type = relationship_type_name(relationship_type);
                    rel_index
                        .entry((f, t, rel_type.clone()))
                        .or_insert_with(|| {
                            plan.relationships.push(RelationshipUpsert {
                                from: f,
                                to: t,
                                relationship_type: rel_type,
                                description: description.trim().to_owned(),
                                attitude: attitude_name(attitude),
                                proximity: proximity.clamp(0.0, 1.0),
                                strength: strength.clamp(0.0, 1.0),
                                confidence: confidence.clamp(0.0, 1.0),
                            });
                            plan.relationships.len() - 1
                        });
                }
                _ => plan.skipped_actions += 1,
            },
            AgentAction::AddNoteToRelationship {
                from,
                to,
                relationship_type,
                note,
                lifetime,
            } => {
                let key = resolve(from, None)
                    .zip(resolve(to, None))
                    .map(|(f, t)| (f, t, relationship_type_name(relationship_type)));
                match (
                    key.and_then(|k| rel_index.get(&k).copied()),
                    clean_note(note),
                ) {
                    (Some(i), Some(text)) => push_note(
                        &mut plan,
                        NoteTarget::Relationship(i),
                        text,
                        *lifetime,
                        said_at,
                    ),
                    _ => plan.skipped_actions += 1,
                }
            }
        }
    }
    plan
}

fn push_note(
    plan: &mut Plan,
    target: NoteTarget,
    text: String,
    lifetime: NoteLifetime,
    said_at: &dyn Fn(&str) -> DateTime<Utc>,
) {
    if !plan
        .notes
        .iter()
        .any(|n| n.target == target && n.text == text)
    {
        plan.notes.push(NoteWrite {
            target,
            said_at: said_at(&text),
            text,
            lifetime,
        });
    }
}

fn clean_note(note: &str) -> Option<String> {
    let text: String = note.split_whitespace().collect::<Vec<_>>().join(" ");
    let text: String = text.chars().take(MAX_NOTE_CHARS).collect();
    (!text.is_empty()).then_some(text)
}

/// `Works With` → `works_with`; anything unusable → `related_to`. Relationship types are
/// data (a property), never Cypher, but stay a tidy vocabulary.
pub fn relationship_type_name(raw: &str) -> String {
    let mut out = String::new();
    for c in raw.trim().chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('_') && !out.is_empty() {
            out.push('_');
        }
    }
    let out = out
        .trim_end_matches('_')
        .chars()
        .take(64)
        .collect::<String>();
    if out.is_empty() {
        "related_to".to_owned()
    } else {
        out
    }
}

fn attitude_name(raw: &str) -> String {
    match raw.trim().to_lowercase().as_str() {
        a @ ("positive" | "negative" | "mixed" | "neutral") => a.to_owned(),
        _ => "neutral".to_owned(),
    }
}

#[cfg(test)]
mod tests;
