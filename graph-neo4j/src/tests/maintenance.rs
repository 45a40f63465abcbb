//! Offline checks of the maintenance statements: lifecycle writes and events read back
//! as written, pages project every lifecycle field, batches deduplicate as the SQLite
//! store's sequential writes would, and event ids agree with the SQLite store's.

use std::collections::BTreeSet;

use chrono::Duration;
use cosmo_core::domain::*;
use cosmo_core::graph::EpisodicConsolidation;
use cosmo_core::graph::ports::*;
use cosmo_core::ids;
use neo4rs::{BoltMap, BoltType};
use regex::Regex;

use super::super::bolt::{Props, never};
use super::super::cypher::{lifecycle as lc, maintenance as mt};
use super::super::{consolidation, decode, episodic, lifecycle};
use super::{at, params, stored};
use cosmo_graph_sqlite::SqliteGraph;

fn decayed() -> Lifecycle {
    Lifecycle {
        salience: 0.25,
        state: MemoryState::Active,
        access_count: 3,
        recall_frequency: 2,
        last_recall_interval: 1.5,
        decay_gradient: 1.1,
        last_accessed_at: Some(at() - Duration::days(3)),
        last_decayed_at: Some(at()),
        pinned: true,
        updated_at: at() + Duration::hours(1),
        ..Lifecycle::new(0.7, TtlPolicy::Ephemeral, at() - Duration::days(10))
    }
}

fn change(kind: MemoryKind, key: &str, lifecycle: Lifecycle) -> LifecycleChange {
    LifecycleChange {
        kind,
        key: key.into(),
        lifecycle,
        event: None,
    }
}

fn event() -> LifecycleEvent {
    LifecycleEvent {
        memory_kind: MemoryKind::Relationship,
        memory_key: "rel-1".into(),
        user_id: "alice".into(),
        previous_state: MemoryState::Active,
        new_state: MemoryState::Archived,
        reason: "decayed".into(),
        actor: Actor::System,
        at: at(),
    }
}

#[test]
fn applied_lifecycles_read_back_as_written() {
    for kind in [
        MemoryKind::Source,
        MemoryKind::Node,
        MemoryKind::Relationship,
        MemoryKind::Storyline,
        MemoryKind::Macro,
    ] {
        let l = decayed();
        let batches = lifecycle::change_batches(&[change(kind, "k", l.clone())]).unwrap();
        let [(statement, rows)] = batches.as_slice() else {
            panic!("one batch")
        };
        let q = statement
            .bind()
            .p("rows", BoltType::List(rows.clone().into()))
            .query()
            .unwrap();
        let mut props = stored(statement, params(&q), rows.first());
        // `created_at` is the memory's own; decay never writes it.
        props.put("created_at".into(), l.created_at.into());
        assert_eq!(
            Props::new("lifecycle", props).lifecycle().unwrap(),
            l,
            "{kind}"
        );
    }
    // A lifecycle without times removes them (null parameters leave no property).
    let l = Lifecycle::new(0.5, TtlPolicy::Decay, at());
    let row =
        lifecycle::change_row(&lc::APPLY_NODE, &change(MemoryKind::Node, "k", l.clone())).unwrap();
    let q = lc::APPLY_NODE
        .bind()
        .p("rows", BoltType::List(vec![row.clone()].into()))
        .query()
        .unwrap();
    let props = stored(&lc::APPLY_NODE, params(&q), Some(&row));
    assert!(!props.value.contains_key("last_accessed_at"));
    assert!(!props.value.contains_key("last_decayed_at"));
}

#[test]
fn lifecycle_reads_project_every_field() {
    let projected = Regex::new(r"\.(\w+)\s*[,}]").unwrap();
    let mut written: BTreeSet<String> = lc::APPLY_NODE
        .row_fields
        .iter()
        .filter(|f| **f != "key")
        .map(|f| (*f).to_owned())
        .collect();
    written.insert("created_at".into());
    for page in [
        &lc::PAGE_SOURCE,
        &lc::PAGE_NODE,
        &lc::PAGE_RELATIONSHIP,
        &lc::PAGE_STORYLINE,
        &lc::PAGE_MACRO,
        &lc::PAGE_FACT,
        &lc::GET_SOURCE,
        &lc::GET_NODE,
        &lc::GET_RELATIONSHIP,
        &lc::GET_STORYLINE,
        &lc::GET_MACRO,
        &lc::GET_FACT,
        &lc::LOCK_SOURCE,
        &lc::LOCK_NODE,
        &lc::LOCK_RELATIONSHIP,
        &lc::LOCK_STORYLINE,
        &lc::LOCK_MACRO,
        &lc::LOCK_FACT,
    ] {
        let map = page.text.split(" x {").nth(1).expect("a map projection");
        let fields: BTreeSet<String> = projected
            .captures_iter(map)
            .map(|c| c[1].to_owned())
            .collect();
        assert_eq!(fields, written, "cypher/{}", page.file);
    }
}

#[test]
fn later_changes_of_a_key_win_and_kinds_are_batched_apart() {
    let mut newer = decayed();
    newer.salience = 0.1;
    let changes = [
        change(MemoryKind::Node, "a", decayed()),
        change(MemoryKind::Source, "a", decayed()),
        change(MemoryKind::Node, "b", decayed()),
        change(MemoryKind::Node, "a", newer),
    ];
    let batches = lifecycle::change_batches(&changes).unwrap();
    let sizes: Vec<(&str, usize)> = batches.iter().map(|(s, r)| (s.file, r.len())).collect();
    assert_eq!(
        sizes,
        [
            ("lifecycle/apply_source.cypher", 1),
            ("lifecycle/apply_node.cypher", 2)
        ]
    );
    let BoltType::Map(a) = &batches[1].1[0] else {
        panic!("a map")
    };
    assert_eq!(a.value["key"], BoltType::from("a"));
    assert_eq!(a.value["salience"], BoltType::from(0.1));
}

#[test]
fn events_read_back_as_recorded() {
    let e = event();
    let row = lifecycle::event_row(&e).unwrap();
    let q = lc::RECORD_EVENTS
        .bind()
        .p("rows", BoltType::List(vec![row.clone()].into()))
        .query()
        .unwrap();
    let props = stored(&lc::RECORD_EVENTS, params(&q), Some(&row));
    assert_eq!(
        props.value["event_id"],
        BoltType::from(lifecycle::event_id(&e))
    );
    assert_eq!(decode::event(&Props::new("event", props)).unwrap(), e);
}

/// The SQLite store records the same event under the same id.
#[tokio::test]
async fn event_ids_agree_with_the_sqlite_store() {
    let dir = tempfile::tempdir().unwrap();
    let sqlite = SqliteGraph::open(&dir.path().join("graph.db"))
        .await
        .unwrap();
    cosmo_core::graph::StoreAdmin::migrate(&sqlite)
        .await
        .unwrap();
    let e = event();
    sqlite
        .apply_lifecycle(&[LifecycleChange {
            event: Some(e.clone()),
            ..change(MemoryKind::Relationship, "rel-1", decayed())
        }])
        .await
        .unwrap();
    let stored: Vec<String> = sqlx::query_scalar("SELECT event_id FROM lifecycle_events")
        .fetch_all(sqlite.pool())
        .await
        .unwrap();
    assert_eq!(stored, vec![lifecycle::event_id(&e)]);
}

#[test]
fn note_cleanup_removes_at_most_the_limit() {
    let expired = vec![
        ("a".to_owned(), vec!["1".to_owned(), "2".to_owned()]),
        ("b".to_owned(), vec!["3".to_owned(), "4".to_owned()]),
        ("c".to_owned(), vec!["5".to_owned()]),
    ];
    let rows = consolidation::removal_rows(&mt::REMOVE_NODE_NOTES, expired.clone(), 3).unwrap();
    let ids: Vec<(BoltType, BoltType)> = rows
        .iter()
        .map(|r| match r {
            BoltType::Map(m) => (m.value["target"].clone(), m.value["note_ids"].clone()),
            other => panic!("a map, got {other:?}"),
        })
        .collect();
    assert_eq!(
        ids,
        vec![
            (BoltType::from("a"), BoltType::from(vec!["1", "2"])),
            (BoltType::from("b"), BoltType::from(vec!["3"])),
        ]
    );
    assert!(
        consolidation::removal_rows(&mt::REMOVE_NODE_NOTES, expired, 0)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn the_insight_note_is_cosmos_and_has_no_source() {
    let c = EpisodicConsolidation {
        entity_key: "node-1".into(),
        user_id: "alice".into(),
        insight: "Alice met Sarah weekly.".into(),
        lifetime: NoteLifetime::Forever,
        source_keys: vec!["s1".into()],
        at: at(),
    };
    let q = episodic::insight_note_query(&c).unwrap();
    let p: &BoltMap = params(&q);
    assert_eq!(
        p.value["note_id"],
        BoltType::from(ids::note_id("node-1", "cosmo", None, &c.insight))
    );
    assert_eq!(p.value["added_by"], BoltType::from("cosmo"));
    assert_eq!(p.value["expires_at"], BoltType::from(never()));
    assert!(mt::INSIGHT_NOTE.text.contains("+ ['']"), "no source id");
    let year = EpisodicConsolidation {
        lifetime: NoteLifetime::Year,
        ..c
    };
    let q = episodic::insight_note_query(&year).unwrap();
    assert_eq!(
        params(&q).value["expires_at"],
        BoltType::from(at() + Duration::days(365))
    );
}

#[test]
fn briefs_come_oldest_first() {
    let brief = |key: &str, t| {
        let mut m = BoltMap::new();
        m.put("entity_key".into(), key.into());
        m.put("user_id".into(), "alice".into());
        m.put("summary".into(), "s".into());
        m.put("event_at".into(), BoltType::from(t));
        BoltType::Map(m)
    };
    let later = at() + Duration::days(1);
    let row = super::row_of(vec![(
        "briefs",
        BoltType::List(vec![brief("b", at()), brief("c", later), brief("a", at())].into()),
    )]);
    let read = super::super::hierarchy::briefs(&row, "briefs").unwrap();
    let keys: Vec<&str> = read.iter().map(|b| b.entity_key.as_str()).collect();
    assert_eq!(keys, ["a", "b", "c"]);
    assert_eq!(read[2].event_time, later);
}
