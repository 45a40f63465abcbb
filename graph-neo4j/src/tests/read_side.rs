//! Round trips and consistency checks of the read side's statements: a stored fact
//! decodes to what the SQLite store returns, note-list rewrites keep the eight lists
//! parallel, and every search statement filters on the whole scope.

use cosmo_core::domain::*;
use neo4rs::BoltType;

use super::super::bolt::Props;
use super::super::cypher::{all, facts as fx, reads, search};
use super::super::decode;
use super::super::facts;
use super::{at, params, row_of, stored};

fn new_fact() -> NewFact {
    NewFact {
        fact_id: "fact-1".into(),
        user_id: "alice".into(),
        text: "Alice's favourite colour is green.".into(),
        category: Some("preference".into()),
        key: Some("favourite_colour".into()),
        value: Some("green".into()),
        confidence: 0.7,
        about: vec!["node-b".into(), "node-a".into()],
        source_keys: vec!["source-1".into()],
        embedding: Some(vec![0.25, -1.5, 3.0e-7]),
        at: at(),
    }
}

#[test]
fn a_stored_fact_reads_back_as_written() {
    let f = new_fact();
    let q = facts::create_query(&f).unwrap();
    let props = stored(&fx::CREATE, params(&q), None);
    let row = row_of(vec![
        ("fact", BoltType::Map(props)),
        ("about", BoltType::from(vec!["node-b", "node-a"])),
        ("source_keys", BoltType::from(vec!["source-1"])),
        ("supersedes", BoltType::from(vec!["fact-0"])),
    ]);
    let read = facts::fact(&row).unwrap();
    let expected = Fact {
        fact_id: f.fact_id.clone(),
        user_id: f.user_id.clone(),
        text: f.text.clone(),
        category: f.category.clone(),
        key: f.key.clone(),
        value: f.value.clone(),
        is_active: true,
        valid_from: f.at,
        said_at: f.at,
        valid_to: None,
        confirmed: false,
        supersedes: Some("fact-0".into()),
        about: vec!["node-a".into(), "node-b".into()],
        source_keys: f.source_keys.clone(),
        embedding: f.embedding.clone(),
        lifecycle: Lifecycle::new(f.confidence, TtlPolicy::Decay, f.at),
    };
    assert_eq!(read, expected);
}

#[test]
fn a_free_text_fact_has_no_slot() {
    let f = NewFact {
        category: None,
        key: None,
        value: None,
        embedding: None,
        ..new_fact()
    };
    let q = facts::create_query(&f).unwrap();
    let props = stored(&fx::CREATE, params(&q), None);
    let empty: Vec<&str> = Vec::new();
    let row = row_of(vec![
        ("fact", BoltType::Map(props)),
        ("about", BoltType::from(empty.clone())),
        ("source_keys", BoltType::from(empty.clone())),
        ("supersedes", BoltType::from(empty)),
    ]);
    let read = facts::fact(&row).unwrap();
    assert_eq!(
        (
            read.category,
            read.key,
            read.value,
            read.embedding,
            read.supersedes
        ),
        (None, None, None, None, None)
    );
}

#[test]
fn source_metas_project_what_the_decoder_reads() {
    let meta = reads::SOURCE_METAS
        .text
        .split("s {")
        .nth(1)
        .expect("a map projection");
    for field in [
        ".entity_key",
        ".user_id",
        ".source_type",
        ".context_type",
        ".summary",
        ".state",
        "event_at:",
    ] {
        assert!(meta.contains(field), "{field}");
    }
    let map = [
        ("entity_key", BoltType::from("s-1")),
        ("user_id", "alice".into()),
        ("source_type", "text-note".into()),
        ("summary", "Lunch.".into()),
        ("state", "active".into()),
        ("event_at", at().into()),
    ]
    .into_iter()
    .map(|(k, v)| (neo4rs::BoltString::from(k), v))
    .collect();
    let read = decode::source_meta(&Props::new("meta", map)).unwrap();
    assert_eq!(read.event_time, at());
    assert_eq!(read.context_type, None);
    assert_eq!(read.state, MemoryState::Active);
}

#[test]
fn note_list_rewrites_keep_the_lists_parallel() {
    let lists = [
        "note_ids",
        "note_texts",
        "note_added_by",
        "note_source_ids",
        "note_dates",
        "note_lifetimes",
        "note_expires_at",
    ];
    for s in all() {
        if !s.text.contains("x.note_ids = [i IN keep") {
            continue;
        }
        for list in lists {
            assert!(
                s.text
                    .contains(&format!("x.{list} = [i IN keep | x.{list}[i]]")),
                "cypher/{}: {list}",
                s.file
            );
        }
    }
}

#[test]
fn every_search_filters_on_the_whole_scope() {
    // (The one statement that only counts a user's Sources takes no scope.)
    let searches = search::ALL
        .iter()
        .filter(|s| s.file != search::SOURCE_COUNTS.file);
    for s in searches {
        for clause in [
            "$user_id",
            "OR $include_archived)",
            "$since IS NULL OR",
            "$until IS NULL OR",
        ] {
            assert!(s.text.contains(clause), "cypher/{}: {clause}", s.file);
        }
    }
}
