//! The parameter groups and `UNWIND` rows the writes send: lifecycle fields, one row per
//! distinct node identity, per relationship key, and per note target.

use std::collections::BTreeMap;

use cosmo_core::domain::{
    ExtractionWrite, Lifecycle, NodeKind, NoteWrite, RelationshipUpsert, TtlPolicy,
};
use cosmo_core::graph::GraphResult;
use cosmo_core::ids;
use neo4rs::BoltType;

use super::bolt::{list, never};
use super::cypher::{Bind, Statement, extraction as x};

/// The lifecycle fields every new memory starts with (the timestamps go separately).
pub fn lifecycle(l: &Lifecycle) -> [(&'static str, BoltType); 9] {
    [
        ("salience", l.salience.into()),
        ("state", l.state.as_str().into()),
        ("confidence", l.confidence.into()),
        ("access_count", l.access_count.into()),
        ("recall_frequency", l.recall_frequency.into()),
        ("last_recall_interval", l.last_recall_interval.into()),
        ("decay_gradient", l.decay_gradient.into()),
        ("ttl_policy", l.ttl_policy.as_str().into()),
        ("pinned", l.pinned.into()),
    ]
}

/// Binds [`lifecycle`] as parameters.
pub fn bind_lifecycle(mut b: Bind, l: &Lifecycle) -> Bind {
    for (name, value) in lifecycle(l) {
        b = b.p(name, value);
    }
    b
}

/// The MERGE statement of one label and one row per distinct identity of that label
/// (keyed by the node key the identity would get); the first mention of an identity
/// decides its display name.
pub fn node_rows(
    w: &ExtractionWrite,
    kind: NodeKind,
) -> GraphResult<(&'static Statement, Vec<BoltType>)> {
    let statement = match kind {
        NodeKind::Person => &x::MERGE_PERSON,
        NodeKind::Concept => &x::MERGE_CONCEPT,
        NodeKind::Entity => &x::MERGE_ENTITY,
    };
    let mut rows = BTreeMap::new();
    for n in w.nodes.iter().filter(|n| n.identity.kind == kind) {
        let key = ids::node_key(&w.user_id, &n.identity);
        if rows.contains_key(&key) {
            continue;
        }
        let l = Lifecycle::new(n.confidence, TtlPolicy::Decay, w.at);
        let entity_type = (kind == NodeKind::Entity).then(|| {
            let t = n.identity.entity_type.clone().unwrap_or_default();
            ("entity_type", BoltType::from(t))
        });
        // The searched name is the display name, as the SQLite store's `name`.
        let [name_terms, name_counts, name_len] = super::words::values(&n.display_name);
        let fields = [
            ("entity_key", key.as_str().into()),
            ("name", n.identity.name.as_str().into()),
            ("display_name", n.display_name.as_str().into()),
            ("name_terms", name_terms),
            ("name_counts", name_counts),
            ("name_len", name_len),
        ]
        .into_iter()
        .chain(lifecycle(&l))
        .chain(entity_type);
        rows.insert(key.clone(), statement.row(fields)?);
    }
    Ok((statement, rows.into_values().collect()))
}

/// The row of one semantic relationship between two resolved node keys.
pub fn relationship_row(
    rel: &RelationshipUpsert,
    key: &str,
    from: &str,
    to: &str,
    w: &ExtractionWrite,
) -> GraphResult<BoltType> {
    let l = Lifecycle::new(rel.confidence, TtlPolicy::Decay, w.at);
    let fields = [
        ("rel_key", key.into()),
        ("from_key", from.into()),
        ("to_key", to.into()),
        ("relationship_type", rel.relationship_type.as_str().into()),
        ("description", rel.description.as_str().into()),
        ("attitude", rel.attitude.as_str().into()),
        ("proximity", rel.proximity.into()),
        ("strength", rel.strength.into()),
    ];
    x::RELATIONSHIPS.row(fields.into_iter().chain(lifecycle(&l)))
}

/// One row of notes for one target, each note id once, as parallel lists (the expiry
/// of a note that never expires is [`never`]).
pub fn note_row(
    statement: &Statement,
    w: &ExtractionWrite,
    target: &str,
    notes: &[&NoteWrite],
) -> GraphResult<BoltType> {
    let never = never();
    let mut ids_seen = Vec::new();
    let (mut texts, mut lifetimes, mut expires) = (Vec::new(), Vec::new(), Vec::new());
    let mut said = Vec::new();
    for note in notes {
        let id = ids::note_id(target, &w.user_id, Some(&w.source_key), &note.text);
        if ids_seen.contains(&id) {
            continue;
        }
        ids_seen.push(id);
        texts.push(note.text.as_str());
        lifetimes.push(note.lifetime.as_str());
        expires.push(note.lifetime.expires_at(w.at).unwrap_or(never));
        said.push(note.said_at);
    }
    statement.row([
        ("target", target.into()),
        ("note_ids", list(ids_seen)),
        ("note_texts", list(texts)),
        ("note_lifetimes", list(lifetimes)),
        ("note_expires_at", list(expires)),
        ("note_said_at", list(said)),
    ])
}
