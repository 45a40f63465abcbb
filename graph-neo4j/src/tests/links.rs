//! Round trips of relationships, notes, Storylines and Macros, and of single values.

use chrono::Duration;
use cosmo_core::domain::*;
use cosmo_core::ids;
use neo4rs::{BoltMap, BoltType};

use super::super::bolt::{Props, embedding, never};
use super::super::cypher::{extraction as x, storylines as st};
use super::super::{decode, rows, storylines};
use super::{at, extraction_write, params, row_of, stored};

#[test]
fn relationships_and_notes_read_back() {
    let mut w = extraction_write(vec![]);
    let rel = RelationshipUpsert {
        from: NodeRef::Owner,
        to: NodeRef::Owner,
        relationship_type: "x\"}) MATCH (n) DETACH DELETE n //".into(),
        description: "d".into(),
        attitude: "positive".into(),
        proximity: 0.6,
        strength: 0.5,
        confidence: 0.8,
    };
    let row = rows::relationship_row(&rel, "rel-1", "a", "b", &w).unwrap();
    let q = x::RELATIONSHIPS
        .bind()
        .p("rows", BoltType::List(vec![row.clone()].into()))
        .p("user_id", "alice")
        .p("source_key", "source-1")
        .p("at", w.at)
        .query()
        .unwrap();
    let mut props = stored(&x::RELATIONSHIPS, params(&q), Some(&row));
    w.notes = ["Month note.", "Forever note.", "Month note."]
        .into_iter()
        .zip([
            NoteLifetime::Month,
            NoteLifetime::Forever,
            NoteLifetime::Month,
        ])
        .map(|(text, lifetime)| NoteWrite {
            target: NoteTarget::Relationship(0),
            text: text.into(),
            lifetime,
            said_at: w.event_time,
        })
        .collect();
    let notes: Vec<&NoteWrite> = w.notes.iter().collect();
    let BoltType::Map(note_row) =
        rows::note_row(&x::RELATIONSHIP_NOTES, &w, "rel-1", &notes).unwrap()
    else {
        panic!("a map")
    };
    // What `relationship_notes.cypher` appends to empty lists.
    for field in [
        "note_ids",
        "note_texts",
        "note_lifetimes",
        "note_expires_at",
        "note_said_at",
    ] {
        props.put(field.into(), note_row.value[field].clone());
    }
    let repeat = |v: BoltType| BoltType::from(vec![v; 2]);
    props.put("note_added_by".into(), repeat("alice".into()));
    props.put("note_source_ids".into(), repeat("source-1".into()));
    props.put("note_dates".into(), repeat(w.at.into()));
    let read = decode::relationship(&row_of(vec![
        ("from_key", "a".into()),
        ("to_key", "b".into()),
        ("relationship", BoltType::Map(props)),
    ]))
    .unwrap();
    assert_eq!(
        (
            read.rel_key.as_str(),
            read.from_key.as_str(),
            read.to_key.as_str()
        ),
        ("rel-1", "a", "b")
    );
    assert_eq!(read.relationship_type, rel.relationship_type);
    assert_eq!((read.proximity, read.strength), (0.6, 0.5));
    assert_eq!(read.lifecycle, Lifecycle::new(0.8, TtlPolicy::Decay, w.at));
    assert_eq!(
        read.notes.len(),
        2,
        "the same note from the same source once"
    );
    let mut ids: Vec<String> = ["Month note.", "Forever note."]
        .iter()
        .map(|t| ids::note_id("rel-1", "alice", Some("source-1"), t))
        .collect();
    ids.sort();
    assert_eq!(
        read.notes
            .iter()
            .map(|n| n.note_id.clone())
            .collect::<Vec<_>>(),
        ids
    );
    for note in &read.notes {
        assert_eq!(
            (note.added_by.as_str(), note.source_id.as_deref()),
            ("alice", Some("source-1"))
        );
        assert_eq!(note.date_added, w.at);
        assert_eq!(note.said_at, w.event_time);
        let expected = match note.lifetime {
            NoteLifetime::Forever => None,
            _ => Some(w.at + Duration::days(30)),
        };
        assert_eq!(note.expires_at, expected);
    }
}

#[test]
fn storylines_and_macros_read_back() {
    let new = NewStoryline {
        storyline_id: "st-1".into(),
        user_id: "alice".into(),
        anchor_key: "anchor".into(),
        description: "Sarah's updates.".into(),
        embedding: Some(vec![1.0, 0.0, 0.1, -3.25e-7]),
        source_keys: vec![],
        at: at(),
    };
    let q = storylines::create_storyline_query(&new).unwrap();
    let read = decode::storyline(&Props::new(
        "storyline",
        stored(&st::CREATE, params(&q), None),
    ));
    let read = read.unwrap();
    assert_eq!(
        read.embedding, new.embedding,
        "f32 embeddings survive exactly"
    );
    assert_eq!(
        (read.source_count, read.first_source_at, read.is_dirty),
        (0, None, false)
    );
    assert_eq!(read.lifecycle, Lifecycle::promoted(at()));
    assert_eq!(read.anchor_key, "anchor");

    let new = NewMacro {
        macro_id: "m-1".into(),
        user_id: "alice".into(),
        anchor_key: "anchor".into(),
        description: "Working with Sarah.".into(),
        embedding: None,
        storyline_ids: vec![],
        at: at(),
    };
    let q = storylines::create_macro_query(&new).unwrap();
    let read = decode::macro_(&Props::new(
        "macro",
        stored(&st::CREATE_MACRO, params(&q), None),
    ));
    let read = read.unwrap();
    assert_eq!(
        (
            read.storyline_count,
            read.total_source_count,
            read.embedding
        ),
        (0, 0, None)
    );
    assert_eq!(read.lifecycle, Lifecycle::promoted(at()));
}

#[test]
fn values_survive_their_bolt_encoding() {
    let v = [0.1f32, -2.5, 1e-8, f32::MAX];
    let mut map = BoltMap::new();
    map.put("e".into(), embedding(Some(&v)));
    map.put("t".into(), at().into());
    map.put("never".into(), never().into());
    let p = Props::new("test", map);
    assert_eq!(p.embedding("e").unwrap().as_deref(), Some(&v[..]));
    assert_eq!(p.time("t").unwrap(), at(), "to the microsecond");
    assert_eq!(p.time("never").unwrap(), never());
    assert_eq!(p.embedding("missing").unwrap(), None);
    assert!(p.strings("missing").unwrap().is_empty());
}
