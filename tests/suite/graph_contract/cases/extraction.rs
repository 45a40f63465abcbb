//! Phase 2's write: MERGE by identity, mentions, counters, notes, relationships, and
//! that it is atomic and idempotent.

use cosmo_shared::domain::{
    ExtractionStatus, MemoryState, NodeKind, NodeRef, NoteLifetime, NoteTarget, ProcessingStatus,
    TtlPolicy,
};
use cosmo_shared::graph::{GraphError, GraphSnapshot};

use super::super::support::*;

pub async fn extraction_write_merges_links_and_notes(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    g.upsert_owner(&u.alice, "Alice Walker", t0())
        .await
        .unwrap();
    let s = source(
        &u.alice,
        "Sarah Chen from Acme Corp runs the hiring plan.",
        t0(),
    );
    g.create_source(&s).await.unwrap();
    let mut w = write(
        &s,
        &u.alice,
        t0() + days(1),
        vec![
            person("Sarah Chen", 0.8),
            organization("Acme Corp"),
            concept("Hiring Plan"),
        ],
    );
    w.relationships = vec![link(0, 1, "works_at"), {
        let mut r = link(0, 2, "owns");
        r.from = NodeRef::Owner;
        r
    }];
    w.notes = vec![
        note(
            NoteTarget::Node(NodeRef::Extracted(0)),
            "Runs the hiring plan.",
            NoteLifetime::Month,
        ),
        note(
            NoteTarget::Node(NodeRef::Extracted(0)),
            "Has a sister in Boston.",
            NoteLifetime::Forever,
        ),
        note(
            NoteTarget::Node(NodeRef::Extracted(0)),
            "Runs the hiring plan.",
            NoteLifetime::Month,
        ),
        note(
            NoteTarget::Relationship(0),
            "Joined Acme Corp in 2024.",
            NoteLifetime::Year,
        ),
    ];
    let out = g.write_extraction(&w).await.unwrap();
    assert_eq!(
        (
            out.nodes_created,
            out.mentions_created,
            out.relationships_created,
            out.notes_added
        ),
        (3, 3, 2, 3)
    );

    let snap = GraphSnapshot::of_user(g, &u.alice).await.unwrap();
    let sarah = snap.node_named("Sarah Chen").expect("person");
    assert_eq!(sarah.identity.kind, NodeKind::Person);
    assert_eq!(sarah.identity.name, "sarah-chen");
    assert_eq!(sarah.lifecycle.confidence, 0.8);
    assert_eq!(
        (sarah.lifecycle.salience, sarah.lifecycle.state),
        (0.5, MemoryState::Candidate)
    );
    assert_eq!(
        (
            sarah.lifecycle.access_count,
            sarah.lifecycle.recall_frequency,
            sarah.lifecycle.decay_gradient
        ),
        (0, 0, 1.0)
    );
    assert_eq!(sarah.lifecycle.ttl_policy, TtlPolicy::Decay);
    assert_eq!(sarah.created_by, &*u.alice);
    assert!(sarah.is_dirty, "new notes mark the node for consolidation");
    assert_eq!(
        sarah.notes.len(),
        2,
        "the same note from the same source is kept once"
    );
    let forever = sarah
        .notes
        .iter()
        .find(|n| n.lifetime == NoteLifetime::Forever)
        .unwrap();
    assert_eq!(forever.expires_at, None);
    let month = sarah
        .notes
        .iter()
        .find(|n| n.lifetime == NoteLifetime::Month)
        .unwrap();
    assert_eq!(month.expires_at, Some(t0() + days(31)));
    assert_eq!(
        (month.added_by.as_str(), month.source_id.as_deref()),
        (&*u.alice, Some(s.entity_key.as_str()))
    );
    assert_eq!(month.date_added, t0() + days(1));

    let acme = snap.node_named("Acme Corp").unwrap();
    assert_eq!(acme.identity.entity_type.as_deref(), Some("organization"));
    assert!(!acme.is_dirty, "no notes, nothing to consolidate");
    let works_at = snap
        .relationships
        .iter()
        .find(|r| r.relationship_type == "works_at")
        .unwrap();
    assert_eq!(
        (works_at.from_key.as_str(), works_at.to_key.as_str()),
        (sarah.entity_key.as_str(), acme.entity_key.as_str())
    );
    assert_eq!(
        (
            works_at.attitude.as_str(),
            works_at.proximity,
            works_at.strength
        ),
        ("positive", 0.6, 0.5)
    );
    assert_eq!(works_at.notes.len(), 1);
    assert!(works_at.is_dirty);
    assert_eq!(works_at.lifecycle.confidence, 0.8);
    let owner = snap.nodes.iter().find(|n| n.is_owner).unwrap();
    assert!(
        snap.relationships
            .iter()
            .any(|r| r.from_key == owner.entity_key && r.relationship_type == "owns")
    );

    assert_eq!(snap.mentions.len(), 3);
    assert!(
        snap.mentions
            .iter()
            .all(|m| m.source_key == s.entity_key && m.user_id == *u.alice)
    );
    let source = snap
        .sources
        .iter()
        .find(|x| x.entity_key == s.entity_key)
        .unwrap();
    assert_eq!(source.processing_status, ProcessingStatus::Extracted);
    assert_eq!(source.extraction_completed_at, Some(t0() + days(1)));
    assert_eq!(snap.extractions[0].status, ExtractionStatus::Extracted);
}

pub async fn extraction_write_is_idempotent(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    g.upsert_owner(&u.alice, "Alice Walker", t0())
        .await
        .unwrap();
    let s = source(&u.alice, "Sarah Chen and the hiring plan.", t0());
    g.create_source(&s).await.unwrap();
    let mut w = write(
        &s,
        &u.alice,
        t0(),
        vec![person("Sarah Chen", 0.8), concept("hiring plan")],
    );
    w.relationships = vec![link(0, 1, "owns")];
    w.notes = vec![
        note(
            NoteTarget::Node(NodeRef::Extracted(1)),
            "Due in March.",
            NoteLifetime::Week,
        ),
        note(
            NoteTarget::Relationship(0),
            "Sarah drafts it.",
            NoteLifetime::Month,
        ),
    ];
    g.write_extraction(&w).await.unwrap();
    let once = GraphSnapshot::of_user(g, &u.alice).await.unwrap();
    // A retry after a crash re-applies the same write later: nothing may change.
    w.at = t0() + days(2);
    let again = g.write_extraction(&w).await.unwrap();
    assert_eq!(
        (
            again.nodes_created,
            again.mentions_created,
            again.relationships_created,
            again.notes_added
        ),
        (0, 0, 0, 0)
    );
    assert!(again.already_complete);
    assert_eq!(GraphSnapshot::of_user(g, &u.alice).await.unwrap(), once);
    // A second run with different answers (a hosted model is not deterministic) adds
    // nothing either: the extraction is complete.
    let mut other = w.clone();
    other.nodes.push(concept("another topic"));
    other.notes.push(note(
        NoteTarget::Node(NodeRef::Extracted(0)),
        "A different note.",
        NoteLifetime::Month,
    ));
    assert!(g.write_extraction(&other).await.unwrap().already_complete);
    assert_eq!(GraphSnapshot::of_user(g, &u.alice).await.unwrap(), once);
}

pub async fn counters_count_each_source_once_on_event_time(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let day1 = source(&u.alice, "Sarah on day one.", t0());
    let day1_again = source(
        &u.alice,
        "Sarah later on day one.",
        t0() + chrono::Duration::hours(3),
    );
    let backfilled = source(&u.alice, "Sarah a month earlier.", t0() - days(30));
    for s in [&day1, &day1_again, &backfilled] {
        g.create_source(s).await.unwrap();
    }
    let now = t0() + days(40);
    for s in [&day1, &day1_again, &day1, &backfilled] {
        g.write_extraction(&write(s, &u.alice, now, vec![person("Sarah Chen", 0.9)]))
            .await
            .unwrap();
    }
    let sarah = GraphSnapshot::of_user(g, &u.alice)
        .await
        .unwrap()
        .node_named("Sarah Chen")
        .unwrap()
        .clone();
    let c = &sarah.counters;
    assert_eq!(
        c.source_count, 3,
        "three sources, one of them extracted twice"
    );
    assert_eq!(c.distinct_source_days, 2);
    assert_eq!(
        c.distinct_days,
        vec![(t0() - days(30)).date_naive(), t0().date_naive()]
    );
    assert_eq!(
        c.first_mentioned_at,
        Some(t0() - days(30)),
        "counted on event time, not ingestion time"
    );
    assert_eq!(c.last_mentioned_at, Some(t0() + chrono::Duration::hours(3)));
    assert!(!c.has_meso && !c.has_macro);
}

pub async fn users_get_separate_graphs(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let s = team_source(&u.alice, &[&*u.bob], "Sarah Chen joined.", t0());
    g.create_source(&s).await.unwrap();
    let a = g
        .write_extraction(&write(&s, &u.alice, t0(), vec![person("Sarah Chen", 0.8)]))
        .await
        .unwrap();
    let b = g
        .write_extraction(&write(&s, &u.bob, t0(), vec![person("Sarah Chen", 0.9)]))
        .await
        .unwrap();
    assert_ne!(
        a.node_keys[0], b.node_keys[0],
        "each user gets their own node"
    );
    let bob = GraphSnapshot::of_user(g, &u.bob).await.unwrap();
    assert_eq!(bob.nodes.len(), 1);
    assert_eq!(bob.nodes[0].lifecycle.confidence, 0.9);
    assert_eq!(bob.mentions.len(), 1);
    assert!(bob.sources.is_empty(), "the source belongs to its owner");
    assert_eq!(g.nodes_for_user(&u.alice, None, 10).await.unwrap().len(), 1);
    assert_eq!(g.nodes_for_user(&u.carol, None, 10).await.unwrap().len(), 0);
}

pub async fn failed_extraction_write_changes_nothing(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    // No profile, so no owner Person: a write naming the owner fails as a whole.
    let s = source(&u.alice, "Sarah Chen.", t0());
    g.create_source(&s).await.unwrap();
    let before = GraphSnapshot::of_user(g, &u.alice).await.unwrap();
    let mut w = write(
        &s,
        &u.alice,
        t0(),
        vec![person("Sarah Chen", 0.8), concept("hiring plan")],
    );
    w.notes = vec![note(
        NoteTarget::Node(NodeRef::Extracted(0)),
        "Leads hiring.",
        NoteLifetime::Month,
    )];
    w.relationships = vec![{
        let mut r = link(0, 1, "knows");
        r.to = NodeRef::Owner;
        r
    }];
    assert!(matches!(
        g.write_extraction(&w).await,
        Err(GraphError::Conflict(_))
    ));
    assert_eq!(
        GraphSnapshot::of_user(g, &u.alice).await.unwrap(),
        before,
        "no half-written extraction"
    );
}

pub async fn values_are_data_never_code(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let nasty = [
        "Robert'); DROP TABLE nodes;--",
        "x\"}) MATCH (n) DETACH DELETE n //",
        "$param {entity_key: 'x'}",
        "名前 with ünïcödé and \u{1f600}",
    ];
    let s = source(&u.alice, nasty[0], t0());
    g.create_source(&s).await.unwrap();
    let mut w = write(
        &s,
        &u.alice,
        t0(),
        nasty.iter().map(|n| concept(n)).collect(),
    );
    w.notes = nasty
        .iter()
        .map(|n| {
            note(
                NoteTarget::Node(NodeRef::Extracted(0)),
                n,
                NoteLifetime::Month,
            )
        })
        .collect();
    w.relationships = vec![link(0, 1, nasty[1])];
    g.write_extraction(&w).await.unwrap();
    let snap = GraphSnapshot::of_user(g, &u.alice).await.unwrap();
    assert_eq!(snap.nodes.len(), nasty.len());
    for n in nasty {
        assert!(
            snap.nodes.iter().any(|x| x.name == n),
            "{n} stored verbatim"
        );
    }
    assert_eq!(snap.relationships[0].relationship_type, nasty[1]);
    assert_eq!(snap.sources[0].raw_content["content"], nasty[0]);
}

pub async fn reads_page_through_everything(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let mut nodes = Vec::new();
    for i in 0..7 {
        let s = source(&u.alice, &format!("note {i}"), t0() + days(i));
        g.create_source(&s).await.unwrap();
        nodes.push(concept(&format!("topic {i}")));
        if i == 6 {
            g.write_extraction(&write(&s, &u.alice, t0(), nodes.clone()))
                .await
                .unwrap();
        }
    }
    let mut seen = Vec::new();
    let mut after: Option<String> = None;
    loop {
        let page = g
            .sources_for_user(&u.alice, after.as_deref(), 3)
            .await
            .unwrap();
        assert!(page.len() <= 3);
        if page.is_empty() {
            break;
        }
        after = page.last().map(|s| s.entity_key.clone());
        seen.extend(page.into_iter().map(|s| s.entity_key));
    }
    let mut sorted = seen.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(
        (seen.len(), sorted),
        (7, seen.clone()),
        "every source once, in key order"
    );
    let first = g.nodes_for_user(&u.alice, None, 4).await.unwrap();
    let rest = g
        .nodes_for_user(&u.alice, Some(&first[3].entity_key), 4)
        .await
        .unwrap();
    assert_eq!(first.len() + rest.len(), 7);
}
