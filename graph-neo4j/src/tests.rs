//! Offline round trips: what a create statement would store (its `SET x.p = …` items and
//! map entries evaluated over the parameters the code binds, as a server stores them)
//! must decode to the value the SQLite store returns for the same input. This ties the
//! property names of the Cypher files to the decoder's, and checks the Bolt encodings
//! (DATETIME to the microsecond, f32 embeddings, JSON strings, note lists).

use chrono::{DateTime, Duration, Utc};
use cosmo_core::domain::input::SourceInput;
use cosmo_core::domain::*;
use cosmo_core::ids;
use neo4rs::{BoltList, BoltMap, BoltString, BoltType, Query, Row};
use regex::Regex;
use serde_json::json;

use super::bolt::Props;
use super::cypher::{Statement, owner, sources as s};
use super::{decode, rows, semantic as reads, sources};

mod links;
mod maintenance;
mod read_side;

pub(super) fn at() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-11-01T08:00:00.123456Z")
        .unwrap()
        .with_timezone(&Utc)
}

/// The properties a statement's assignments produce (nulls leave no property; the
/// transient `just_created` marker is removed by the statement itself).
pub(super) fn stored(statement: &Statement, params: &BoltMap, row: Option<&BoltType>) -> BoltMap {
    let row = match row {
        Some(BoltType::Map(m)) => Some(m),
        None => None,
        Some(other) => panic!("a row must be a map, got {other:?}"),
    };
    let expr = r"(\$\w+|row\.\w+|'[^']*'|\[\]|true|false|-?\d+(?:\.\d+)?)";
    let set = Regex::new(&format!(r"\b\w+\.(\w+)\s*=\s*{expr}")).unwrap();
    let entry = Regex::new(&format!(r"\b(\w+):\s*{expr}")).unwrap();
    let code: String = statement
        .text
        .lines()
        .map(|l| l.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n");
    let mut props = BoltMap::new();
    for re in [&entry, &set] {
        for c in re.captures_iter(&code) {
            let value = match &c[2] {
                p if p.starts_with('$') => params.value.get(&p[1..]).cloned().unwrap(),
                f if f.starts_with("row.") => row.unwrap().value.get(&f[4..]).cloned().unwrap(),
                "[]" => BoltType::List(BoltList::new()),
                "true" => true.into(),
                "false" => false.into(),
                l if l.starts_with('\'') => l.trim_matches('\'').into(),
                n if n.contains('.') => n.parse::<f64>().unwrap().into(),
                n => n.parse::<i64>().unwrap().into(),
            };
            if !matches!(value, BoltType::Null(_)) && &c[1] != "just_created" {
                props.put(BoltString::from(&c[1]), value);
            }
        }
    }
    props
}

pub(super) fn params(q: &Query) -> &BoltMap {
    q.get_params()
}

pub(super) fn row_of(columns: Vec<(&str, BoltType)>) -> Row {
    let (names, values): (Vec<_>, Vec<_>) = columns.into_iter().unzip();
    Row::new(
        names.into_iter().map(BoltType::from).collect(),
        BoltList::from(values),
    )
}

fn node_row(labels: &[&str], props: BoltMap) -> Row {
    row_of(vec![
        ("labels", BoltType::from(labels.to_vec())),
        ("node", BoltType::Map(props)),
    ])
}

#[test]
fn a_created_source_reads_back_as_written() {
    let body = json!({
        "user_id": "alice",
        "team_id": "team-1",
        "participants": ["bob"],
        "source_type": "text-note",
        "started_at": "2026-10-31T07:00:00.654321Z",
        "provenance": { "origin": "app", "confidence": 0.9, "nested": { "list": [1, 2] } },
        "raw_content": { "content": "Lunch with Sarah Chen." },
    });
    let new = SourceInput::parse(body)
        .unwrap()
        .into_new_source(None, at());
    let q = sources::create_query(&new).unwrap();
    let props = stored(&s::CREATE, params(&q), None);
    let read = decode::source(&Props::new("source", props)).unwrap();
    let expected = Source {
        entity_key: new.entity_key.clone(),
        user_id: new.user_id.clone(),
        team_id: new.team_id.clone(),
        participants: new.participants.clone(),
        source_type: new.source_type,
        raw_content: new.raw_content.clone(),
        provenance: new.provenance.clone(),
        context_type: new.context_type.clone(),
        started_at: new.started_at,
        ended_at: new.ended_at,
        sensitivity: new.sensitivity,
        idempotency_key: new.idempotency_key.clone(),
        external_id: new.external_id.clone(),
        content_hash: new.content_hash.clone(),
        content: String::new(),
        summary: String::new(),
        keywords: vec![],
        tags: vec![],
        embedding: None,
        embedded_with: None,
        processing_status: ProcessingStatus::Raw,
        processing_started_at: None,
        processing_completed_at: None,
        extraction_started_at: None,
        extraction_completed_at: None,
        processing_error: None,
        lifecycle: new.lifecycle.clone(),
    };
    assert_eq!(read, expected);
    assert!(read.team_id.is_some() && read.provenance.is_some() && read.started_at.is_some());
}

#[test]
fn a_re_indexed_source_reads_back_its_fingerprint() {
    let new = SourceInput::parse(json!({
        "user_id": "alice",
        "source_type": "text-note",
        "raw_content": { "content": "Lunch with Sarah Chen." },
    }))
    .unwrap()
    .into_new_source(None, at());
    let mut props = stored(
        &s::CREATE,
        params(&sources::create_query(&new).unwrap()),
        None,
    );
    let index = |fingerprint: &str| {
        s::SAVE_INDEX
            .bind()
            .p("entity_key", new.entity_key.as_str())
            .p(
                "embedding",
                super::bolt::embedding(Some(&[0.5f32, -0.25][..])),
            )
            .p("embedded_with", fingerprint)
            .p("at", at())
            .query()
            .unwrap()
    };
    for (k, v) in stored(&s::SAVE_INDEX, params(&index("offline:m:2")), None).value {
        props.put(k, v);
    }
    let read = decode::source(&Props::new("source", props.clone())).unwrap();
    assert_eq!(read.embedded_with.as_deref(), Some("offline:m:2"));
    assert_eq!(read.embedding, Some(vec![0.5, -0.25]));
    assert_eq!(read.summary, "", "the rest as it was");

    // '' (what `mark_unindexed` gives Sources processed before versions) reads as none.
    for (k, v) in stored(&s::SAVE_INDEX, params(&index("")), None).value {
        props.put(k, v);
    }
    let read = decode::source(&Props::new("source", props)).unwrap();
    assert_eq!(read.embedded_with, None);
}

pub(super) fn extraction_write(nodes: Vec<NodeUpsert>) -> ExtractionWrite {
    ExtractionWrite {
        source_key: "source-1".into(),
        user_id: "alice".into(),
        event_time: at(),
        at: at() + Duration::days(1),
        nodes,
        relationships: vec![],
        notes: vec![],
        storylines: vec![],
        is_source_owner: true,
    }
}

#[test]
fn merged_nodes_read_back_with_their_identity_and_defaults() {
    let w = extraction_write(vec![
        NodeUpsert {
            identity: NodeIdentity::person("Sarah Chen"),
            display_name: "Sarah Chen".into(),
            confidence: 0.8,
        },
        NodeUpsert {
            identity: NodeIdentity::concept("Hiring Plan"),
            display_name: "Hiring Plan".into(),
            confidence: 0.7,
        },
        NodeUpsert {
            identity: NodeIdentity::entity("Acme Corp", "organization"),
            display_name: "Acme Corp".into(),
            confidence: 0.9,
        },
    ]);
    for (n, label) in w.nodes.iter().zip(["Person", "Concept", "Entity"]) {
        let (statement, batch) = rows::node_rows(&w, n.identity.kind).unwrap();
        assert_eq!(batch.len(), 1);
        let q = statement
            .bind()
            .p("rows", BoltType::List(batch.clone().into()))
            .p("user_id", w.user_id.as_str())
            .p("at", w.at)
            .query()
            .unwrap();
        let props = stored(statement, params(&q), batch.first());
        let node = decode::node(&node_row(&["Semantic", label], props)).unwrap();
        let expected = SemanticNode {
            entity_key: ids::node_key(&w.user_id, &n.identity),
            user_id: w.user_id.clone(),
            identity: n.identity.clone(),
            name: n.display_name.clone(),
            description: String::new(),
            embedding: None,
            is_owner: false,
            created_by: w.user_id.clone(),
            counters: HierarchyCounters::default(),
            is_dirty: false,
            lifecycle: Lifecycle::new(n.confidence, TtlPolicy::Decay, w.at),
            notes: vec![],
        };
        assert_eq!(node, expected, "{label}");
    }
}

#[test]
fn the_owner_reads_back_as_owner() {
    let key = ids::node_key("alice", &NodeIdentity::person("Alice  Walker"));
    let q = reads::owner_create_query(&key, "alice", "Alice  Walker", at()).unwrap();
    let props = stored(&owner::CREATE, params(&q), None);
    let node = decode::node(&node_row(&["Person", "Semantic"], props)).unwrap();
    assert!(node.is_owner);
    assert_eq!(node.identity, NodeIdentity::person("Alice Walker"));
    assert_eq!(node.name, "Alice  Walker");
    assert_eq!(node.lifecycle, Lifecycle::owner(at()));
    assert_eq!(node.counters, HierarchyCounters::default());
}

#[test]
fn a_store_in_a_key_space_keeps_only_its_users_rows_of_a_global_scan() {
    let rows: Vec<String> = ["alice-t1", "bob-t2", "carol-t1", "dave-t1", "erin-t2"]
        .map(String::from)
        .to_vec();
    assert_eq!(
        super::in_key_space(Some("-t1"), rows.clone(), String::as_str, 2),
        ["alice-t1", "carol-t1"],
        "its own, in the server's order, at most the limit"
    );
    assert_eq!(
        super::in_key_space(None, rows.clone(), String::as_str, 2),
        rows,
        "outside a key space the server's answer is left as it is"
    );
}
