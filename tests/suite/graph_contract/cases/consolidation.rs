//! Maintenance: description consolidation, note cleanup and episodic consolidation.

use chrono::{DateTime, Duration, Utc};
use cosmo_shared::domain::input::SourceInput;
use cosmo_shared::domain::{
    Actor, LifecycleEvent, MemoryKind, MemoryState, NodeRef, NodeUpsert, Note, NoteLifetime,
    NoteTarget, ProcessedContent, Relationship, SemanticNode, SourceBrief, TtlPolicy,
};
use cosmo_shared::graph::{ClusterRules, EpisodicConsolidation, SourceCluster};
use cosmo_shared::graph::{GraphSnapshot, GraphStore};
use serde_json::json;

use super::super::support::*;

async fn relationship(g: &dyn GraphStore, user: &str, key: &str) -> Relationship {
    g.relationships_for_user(user, None, 1000)
        .await
        .unwrap()
        .into_iter()
        .find(|r| r.rel_key == key)
        .expect("relationship exists")
}

async fn node(g: &dyn GraphStore, key: &str) -> SemanticNode {
    g.node(key).await.unwrap().expect("node exists")
}

fn node_keys(v: &[SemanticNode]) -> Vec<&str> {
    v.iter().map(|n| n.entity_key.as_str()).collect()
}

pub async fn dirty_nodes_and_relationships_are_consolidated(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let forever = NoteLifetime::Forever;
    let (_, nodes) = extracted(
        g,
        &u.alice,
        "Sarah, Acme, hiring and the budget.",
        t0(),
        vec![
            person("Sarah Chen", 0.9),
            organization("Acme Corp"),
            concept("Hiring"),
            concept("Budget"),
        ],
        |w| {
            w.relationships = vec![
                link(0, 1, "works_at"),
                link(0, 2, "owns"),
                link(2, 1, "funded_by"),
            ];
            w.notes = vec![
                note(
                    NoteTarget::Node(NodeRef::Extracted(0)),
                    "Leads hiring.",
                    forever,
                ),
                note(
                    NoteTarget::Node(NodeRef::Extracted(0)),
                    "Likes tea.",
                    forever,
                ),
                note(
                    NoteTarget::Node(NodeRef::Extracted(2)),
                    "Two roles.",
                    forever,
                ),
                note(NoteTarget::Node(NodeRef::Extracted(3)), "Tight.", forever),
                note(NoteTarget::Relationship(0), "Since 2024.", forever),
                note(NoteTarget::Relationship(2), "Acme pays.", forever),
            ];
        },
    )
    .await;
    let (sarah, acme, hiring, budget) = (&nodes[0], &nodes[1], &nodes[2], &nodes[3]);
    let rels = g.relationships_for_user(&u.alice, None, 100).await.unwrap();
    let rel = |t: &str| {
        rels.iter()
            .find(|r| r.relationship_type == t)
            .unwrap()
            .rel_key
            .clone()
    };
    let (works_at, owns, funded_by) = (rel("works_at"), rel("owns"), rel("funded_by"));
    assert!(!node(g, acme).await.is_dirty, "no notes, not dirty");

    // Recency of access decides the order; never accessed comes last.
    for (key, day) in [(sarah, 2), (hiring, 5)] {
        set_lifecycle(g, MemoryKind::Node, key, &u.alice, |l| {
            l.last_accessed_at = Some(t0() + days(day))
        })
        .await;
    }
    set_lifecycle(g, MemoryKind::Relationship, &funded_by, &u.alice, |l| {
        l.last_accessed_at = Some(t0() + days(7))
    })
    .await;
    set_lifecycle(g, MemoryKind::Relationship, &owns, &u.alice, |l| {
        l.last_accessed_at = Some(t0() + days(9))
    })
    .await;

    let dirty = g.dirty_nodes(10).await.unwrap();
    assert_eq!(
        dirty,
        vec![
            node(g, hiring).await,
            node(g, sarah).await,
            node(g, budget).await
        ],
        "dirty nodes only, most recently accessed first, never accessed last, with their notes"
    );
    assert_eq!(dirty[1].notes.len(), 2);
    assert_eq!(
        node_keys(&g.dirty_nodes(2).await.unwrap()),
        vec![hiring.as_str(), sarah.as_str()],
        "limit"
    );
    let dirty = g.dirty_relationships(10).await.unwrap();
    assert_eq!(
        dirty,
        vec![
            relationship(g, &u.alice, &funded_by).await,
            relationship(g, &u.alice, &works_at).await
        ],
        "dirty relationships only (not `owns`), most recently accessed first, with their notes"
    );
    assert_eq!(dirty[1].notes[0].text, "Since 2024.");
    assert_eq!(g.dirty_relationships(1).await.unwrap().len(), 1);

    // Nodes: a new embedding replaces the old one; none keeps it.
    let before = node(g, sarah).await;
    g.consolidate_node(
        sarah,
        "Sarah leads hiring.",
        Some(&[0.1, 0.2]),
        t0() + days(8),
    )
    .await
    .unwrap();
    let after = node(g, sarah).await;
    assert_eq!(
        (
            after.description.as_str(),
            after.embedding.clone(),
            after.is_dirty,
            after.lifecycle.updated_at
        ),
        (
            "Sarah leads hiring.",
            Some(vec![0.1, 0.2]),
            false,
            t0() + days(8)
        )
    );
    assert_eq!(after.notes, before.notes, "notes stay");
    assert_eq!(
        node_keys(&g.dirty_nodes(10).await.unwrap()),
        vec![hiring.as_str(), budget.as_str()]
    );
    extracted(
        g,
        &u.alice,
        "Sarah at Acme again.",
        t0() + days(9),
        vec![person("Sarah Chen", 0.9), organization("Acme Corp")],
        |w| {
            w.relationships = vec![link(0, 1, "works_at")];
            w.notes = vec![
                note(
                    NoteTarget::Node(NodeRef::Extracted(0)),
                    "Moved teams.",
                    forever,
                ),
                note(NoteTarget::Relationship(0), "Now part-time.", forever),
            ];
        },
    )
    .await;
    assert!(
        node(g, sarah).await.is_dirty,
        "a new note makes it dirty again"
    );
    g.consolidate_node(sarah, "Sarah moved teams.", None, t0() + days(10))
        .await
        .unwrap();
    let after = node(g, sarah).await;
    assert_eq!(
        (
            after.description.as_str(),
            after.embedding.clone(),
            after.is_dirty
        ),
        ("Sarah moved teams.", Some(vec![0.1, 0.2]), false),
        "no new embedding: the old one stays"
    );
    assert_eq!(after.notes.len(), 3);

    // Relationships likewise, with their notes embedding.
    let before = relationship(g, &u.alice, &works_at).await;
    assert!(before.is_dirty);
    g.consolidate_relationship(
        &works_at,
        "Works at Acme.",
        Some(&[0.3, 0.4]),
        t0() + days(11),
    )
    .await
    .unwrap();
    let after = relationship(g, &u.alice, &works_at).await;
    assert_eq!(
        (
            after.description.as_str(),
            after.notes_embedding.clone(),
            after.is_dirty,
            after.lifecycle.updated_at
        ),
        (
            "Works at Acme.",
            Some(vec![0.3, 0.4]),
            false,
            t0() + days(11)
        )
    );
    assert_eq!(after.notes, before.notes);
    assert_eq!(after.notes.len(), 2);
    g.consolidate_relationship(&works_at, "Works part-time at Acme.", None, t0() + days(12))
        .await
        .unwrap();
    let after = relationship(g, &u.alice, &works_at).await;
    assert_eq!(
        (
            after.description.as_str(),
            after.notes_embedding.clone(),
            after.is_dirty
        ),
        ("Works part-time at Acme.", Some(vec![0.3, 0.4]), false)
    );
    let left: Vec<String> = g
        .dirty_relationships(10)
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.rel_key)
        .collect();
    assert_eq!(left, vec![funded_by]);
}

pub async fn expired_notes_are_deleted_in_batches(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    // Long before the other cases' times: on a shared server the cleanup removes expired
    // notes of every test, and this one must not reach theirs.
    let b = t0() - days(4000);
    let (_, nodes) = extracted(
        g,
        &u.alice,
        "Sarah at Acme, long ago.",
        b,
        vec![person("Sarah Chen", 0.9), organization("Acme Corp")],
        |w| {
            w.relationships = vec![link(0, 1, "works_at")];
            let sarah = NoteTarget::Node(NodeRef::Extracted(0));
            w.notes = vec![
                note(sarah, "week one", NoteLifetime::Week),
                note(sarah, "a month", NoteLifetime::Month),
                note(sarah, "a year", NoteLifetime::Year),
                note(sarah, "forever", NoteLifetime::Forever),
                note(
                    NoteTarget::Node(NodeRef::Extracted(1)),
                    "acme week",
                    NoteLifetime::Week,
                ),
                note(NoteTarget::Relationship(0), "rel week", NoteLifetime::Week),
                note(
                    NoteTarget::Relationship(0),
                    "rel forever",
                    NoteLifetime::Forever,
                ),
            ];
        },
    )
    .await;
    extracted(
        g,
        &u.alice,
        "Sarah a day later.",
        b + days(1),
        vec![person("Sarah Chen", 0.9)],
        |w| {
            w.notes = vec![note(
                NoteTarget::Node(NodeRef::Extracted(0)),
                "week two",
                NoteLifetime::Week,
            )]
        },
    )
    .await;
    let (sarah, acme) = (&nodes[0], &nodes[1]);
    let rel_key = g.relationships_for_user(&u.alice, None, 10).await.unwrap()[0]
        .rel_key
        .clone();
    let sarah_before = node(g, sarah).await;
    let rel_before = relationship(g, &u.alice, &rel_key).await;
    assert_eq!(sarah_before.notes.len(), 5);
    let texts = |notes: &[Note]| -> Vec<String> { notes.iter().map(|n| n.text.clone()).collect() };
    let without = |notes: &[Note], gone: &[&str]| -> Vec<Note> {
        notes
            .iter()
            .filter(|n| !gone.contains(&n.text.as_str()))
            .cloned()
            .collect()
    };

    // The dry run's count: what a removal at that time takes, removing nothing.
    let expired_at = |t: DateTime<Utc>| async move { g.count_expired_notes(t).await.unwrap() };
    assert_eq!(expired_at(b + days(7) - Duration::seconds(1)).await, 0);
    assert_eq!(expired_at(b + days(7)).await, 3);
    assert_eq!(
        expired_at(b + days(400)).await,
        6,
        "all but the forever notes"
    );
    assert_eq!(
        node(g, sarah).await.notes,
        sarah_before.notes,
        "counting removes nothing"
    );
    assert_eq!(
        g.delete_expired_notes(b + days(7) - Duration::seconds(1), 100)
            .await
            .unwrap(),
        0,
        "nothing has expired yet"
    );
    assert_eq!(
        g.delete_expired_notes(b + days(7), 100).await.unwrap(),
        3,
        "the three week notes of the first Source expire at exactly a week"
    );
    assert_eq!(
        expired_at(b + days(7)).await,
        0,
        "removed ones are not counted"
    );
    assert_eq!(
        node(g, sarah).await.notes,
        without(&sarah_before.notes, &["week one"]),
        "the other notes stay, intact and in order"
    );
    assert!(node(g, acme).await.notes.is_empty());
    assert_eq!(
        relationship(g, &u.alice, &rel_key).await.notes,
        without(&rel_before.notes, &["rel week"])
    );

    // At most `limit` per call: week two, the month and the year note.
    let now = b + days(400);
    assert_eq!(expired_at(now).await, 3);
    assert_eq!(g.delete_expired_notes(now, 2).await.unwrap(), 2);
    assert_eq!(g.delete_expired_notes(now, 2).await.unwrap(), 1);
    assert_eq!(g.delete_expired_notes(now, 2).await.unwrap(), 0);
    assert_eq!(
        texts(&node(g, sarah).await.notes),
        vec!["forever".to_owned()],
        "forever notes never expire"
    );
    assert_eq!(
        texts(&relationship(g, &u.alice, &rel_key).await.notes),
        vec!["rel forever".to_owned()]
    );
}

/// Sets a Source's salience, pin and state, as decay and the API would.
/// Sets a Source's `ttl_policy` to `keep_forever` (its salience as it is).
async fn keep_forever(g: &dyn GraphStore, key: &str) {
    set_lifecycle(g, MemoryKind::Source, key, "", |l| {
        l.ttl_policy = TtlPolicy::KeepForever
    })
    .await;
}

async fn fade(g: &dyn GraphStore, key: &str, salience: f64, pinned: bool, state: MemoryState) {
    set_lifecycle(g, MemoryKind::Source, key, "", |l| {
        l.salience = salience;
        l.pinned = pinned;
        l.state = state;
    })
    .await;
}

pub async fn faded_sources_are_old_unpinned_and_unarchived(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    g.upsert_owner(&u.alice, "Alice Walker", t0())
        .await
        .unwrap();
    let candidate = MemoryState::Candidate;
    // A team Source: alice's extraction mentions her own Person (left out), Sarah and
    // Acme; bob's extraction of it has a Sarah of his own (not alice's to consolidate).
    let shared = team_source(&u.alice, &[&*u.bob], "Sarah at Acme with Alice.", t0());
    g.create_source(&shared).await.unwrap();
    let a = g
        .write_extraction(&write(
            &shared,
            &u.alice,
            t0(),
            vec![
                person("Alice Walker", 1.0),
                person("Sarah Chen", 0.9),
                organization("Acme Corp"),
            ],
        ))
        .await
        .unwrap();
    let owner = g.owner(&u.alice).await.unwrap().unwrap().entity_key;
    assert_eq!(a.node_keys[0], owner, "the owner Person is mentioned");
    g.write_extraction(&write(
        &shared,
        &u.bob,
        t0(),
        vec![person("Sarah Chen", 0.9)],
    ))
    .await
    .unwrap();
    fade(g, &shared.entity_key, 0.1, false, candidate).await;

    let (quiet, quiet_nodes) = extracted(
        g,
        &u.alice,
        "Nothing much, the weather.",
        t0() + days(1),
        vec![concept("Weather")],
        |_| {},
    )
    .await;
    fade(g, &quiet, 0.05, false, MemoryState::Active).await;
    let (kept, _) = extracted(
        g,
        &u.alice,
        "Kept forever, the weather.",
        t0() + days(1),
        vec![concept("Weather")],
        |_| {},
    )
    .await;
    fade(g, &kept, 0.05, false, MemoryState::Active).await;
    keep_forever(g, &kept).await;
    // Linked to no node: no insight could carry what it held, so it is not offered.
    let (bare, _) = extracted(g, &u.alice, "Nothing at all.", t0(), vec![], |_| {}).await;
    fade(g, &bare, 0.1, false, candidate).await;
    let (at_bar, _) = extracted(g, &u.alice, "At the bar.", t0(), vec![], |_| {}).await;
    fade(g, &at_bar, 0.2, false, candidate).await;
    let (recent, _) = extracted(g, &u.alice, "Recent.", t0() + days(20), vec![], |_| {}).await;
    fade(g, &recent, 0.1, false, candidate).await;
    let (pinned, _) = extracted(g, &u.alice, "Pinned.", t0(), vec![], |_| {}).await;
    fade(g, &pinned, 0.1, true, candidate).await;
    let (archived, _) = extracted(g, &u.alice, "Archived.", t0(), vec![], |_| {}).await;
    fade(g, &archived, 0.1, false, MemoryState::Archived).await;
    let (bobs, bob_nodes) = extracted(
        g,
        &u.bob,
        "Bob's garden.",
        t0() + days(2),
        vec![concept("Garden")],
        |_| {},
    )
    .await;
    fade(g, &bobs, 0.1, false, candidate).await;

    let mut found = g.faded_sources(t0() + days(10), 0.2, 100).await.unwrap();
    found.sort_by(|x, y| x.0.entity_key.cmp(&y.0.entity_key));
    for (_, nodes) in &mut found {
        nodes.sort();
    }
    let mut alice_nodes = vec![a.node_keys[1].clone(), a.node_keys[2].clone()];
    alice_nodes.sort();
    let mut want: Vec<(SourceBrief, Vec<String>)> = vec![
        (brief_of(g, &shared.entity_key).await, alice_nodes),
        (brief_of(g, &quiet).await, quiet_nodes),
        (brief_of(g, &bobs).await, bob_nodes),
    ];
    want.sort_by(|x, y| x.0.entity_key.cmp(&y.0.entity_key));
    assert_eq!(
        found, want,
        "old Sources below the bar with the non-owner nodes their owner's extraction \
         mentions; not at the bar, recent, pinned, kept forever, archived or linked to no node"
    );
    assert_eq!(
        g.faded_sources(t0() + days(10), 0.2, 2)
            .await
            .unwrap()
            .len(),
        2,
        "limit"
    );
    assert!(
        g.faded_sources(t0(), 0.2, 100).await.unwrap().is_empty(),
        "only Sources that happened before the cut-off"
    );
}

/// Three old Sources of alice about Sarah (two also about Acme), and Sources about Sarah
/// that must stay out of her cluster. Returns (sarah, acme, the three old Sources).
async fn sarah_cluster(g: &dyn GraphStore, u: &Users) -> (String, String, Vec<String>) {
    g.upsert_owner(&u.alice, "Alice Walker", t0())
        .await
        .unwrap();
    let me = person("Alice Walker", 1.0);
    let sarah = person("Sarah Chen", 0.9);
    let mut old = Vec::new();
    let mut keys = Vec::new();
    for d in [2, 0, 1] {
        let mut nodes = vec![me.clone(), sarah.clone()];
        if d < 2 {
            nodes.push(organization("Acme Corp"));
        }
        let (key, n) = extracted(
            g,
            &u.alice,
            &format!("Sarah, day {d}."),
            t0() + days(d),
            nodes,
            |_| {},
        )
        .await;
        old.push(key);
        keys = n;
    }
    extracted(
        g,
        &u.alice,
        "Sarah, recently.",
        t0() + days(20),
        vec![me.clone(), sarah.clone()],
        |_| {},
    )
    .await;
    let (pinned, _) = extracted(
        g,
        &u.alice,
        "Sarah, pinned.",
        t0() + days(3),
        vec![me.clone(), sarah.clone()],
        |_| {},
    )
    .await;
    fade(g, &pinned, 0.5, true, MemoryState::Candidate).await;
    let (kept, _) = extracted(
        g,
        &u.alice,
        "Sarah, kept forever.",
        t0() + days(3),
        vec![me.clone(), sarah.clone()],
        |_| {},
    )
    .await;
    keep_forever(g, &kept).await;
    let (archived, _) = extracted(
        g,
        &u.alice,
        "Sarah, archived.",
        t0() + days(4),
        vec![me.clone(), sarah.clone()],
        |_| {},
    )
    .await;
    fade(g, &archived, 0.5, false, MemoryState::Archived).await;
    // bob's Source that alice extracted too: not alice's to archive.
    let bobs = team_source(
        &u.bob,
        &[&*u.alice],
        "Sarah in bob's notes.",
        t0() + days(5),
    );
    g.create_source(&bobs).await.unwrap();
    for user in [&u.bob, &u.alice] {
        g.write_extraction(&write(&bobs, user, t0() + days(5), vec![sarah.clone()]))
            .await
            .unwrap();
    }
    assert_eq!(
        node(g, &keys[1]).await.counters.source_count,
        8,
        "alice's Sarah is mentioned by 8 Sources"
    );
    (keys[1].clone(), keys[2].clone(), old)
}

/// The plain cluster rule (enough old Sources sharing one node) without the
/// shared-anchor cut.
fn seed_rule(older_than: DateTime<Utc>, min_sources: usize) -> ClusterRules {
    ClusterRules::without_anchor_cut(older_than, min_sources)
}

fn sorted_cluster(mut c: SourceCluster) -> SourceCluster {
    c.sources.sort_by(|a, b| a.entity_key.cmp(&b.entity_key));
    c
}

pub async fn source_clusters_group_a_users_old_sources(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let (sarah, acme, old) = sarah_cluster(g, &u).await;
    let cluster = |entity_key: &str, mut sources: Vec<SourceBrief>| {
        sources.sort_by(|a, b| a.entity_key.cmp(&b.entity_key));
        SourceCluster {
            entity_key: entity_key.to_owned(),
            user_id: u.alice.clone(),
            sources,
        }
    };
    let cutoff = t0() + days(10);
    let found: Vec<SourceCluster> = g
        .source_clusters(&seed_rule(cutoff, 3), 100)
        .await
        .unwrap()
        .into_iter()
        .map(sorted_cluster)
        .collect();
    assert_eq!(
        found,
        vec![cluster(&sarah, briefs_of(g, &old).await)],
        "a node with 3 old Sources of its user; not the owner Person, not recent, pinned, \
         kept forever, archived or other users' Sources"
    );
    let mut found: Vec<SourceCluster> = g
        .source_clusters(&seed_rule(cutoff, 2), 100)
        .await
        .unwrap()
        .into_iter()
        .map(sorted_cluster)
        .collect();
    found.sort_by(|a, b| a.entity_key.cmp(&b.entity_key));
    let mut want = vec![
        cluster(&sarah, briefs_of(g, &old).await),
        cluster(&acme, briefs_of(g, &old[1..]).await),
    ];
    want.sort_by(|a, b| a.entity_key.cmp(&b.entity_key));
    assert_eq!(found, want, "at least 2 Sources: acme too");
    assert_eq!(
        g.source_clusters(&seed_rule(cutoff, 2), 1)
            .await
            .unwrap()
            .len(),
        1,
        "limit"
    );
    assert!(
        g.source_clusters(&seed_rule(cutoff, 4), 100)
            .await
            .unwrap()
            .is_empty(),
        "nobody has 4 old Sources of their own"
    );
    assert!(
        g.source_clusters(&seed_rule(t0() + days(2), 3), 100)
            .await
            .unwrap()
            .is_empty(),
        "only Sources that happened before the cut-off count"
    );
}

pub async fn consolidating_sources_archives_them_once(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let (sarah, _, old) = sarah_cluster(g, &u).await;
    let before = GraphSnapshot::of_user(g, &u.alice).await.unwrap();
    let sarah_before = node(g, &sarah).await;
    assert!(!sarah_before.is_dirty);
    let at = t0() + days(30);
    let c = EpisodicConsolidation {
        entity_key: sarah.clone(),
        user_id: u.alice.clone(),
        insight: "Sarah and alice met three days running at the start of November.".into(),
        lifetime: NoteLifetime::Year,
        source_keys: old.clone(),
        at,
    };
    assert_eq!(
        g.consolidate_sources(&c).await.unwrap(),
        3,
        "three Sources archived"
    );

    let after = node(g, &sarah).await;
    assert!(after.is_dirty, "the new note makes the node dirty");
    assert_eq!(after.notes.len(), sarah_before.notes.len() + 1, "one note");
    let insight = after
        .notes
        .iter()
        .find(|n| n.text == c.insight)
        .expect("the insight is a note");
    assert_eq!(
        (
            insight.added_by.as_str(),
            insight.source_id.as_deref(),
            insight.date_added,
            insight.lifetime,
            insight.expires_at
        ),
        ("cosmo", None, at, NoteLifetime::Year, Some(at + days(365))),
        "written by cosmo, from no single Source"
    );
    let mut derived = old.clone();
    derived.sort();
    assert_eq!(
        g.derived_sources(&sarah).await.unwrap(),
        derived,
        "derived_from each consolidated Source"
    );
    for key in &old {
        let was = before
            .sources
            .iter()
            .find(|s| &s.entity_key == key)
            .unwrap();
        let now = g.source(key).await.unwrap().unwrap();
        assert_eq!(now.lifecycle.state, MemoryState::Archived);
        assert_eq!(
            (&now.raw_content, &now.summary, now.lifecycle.salience),
            (&was.raw_content, &was.summary, was.lifecycle.salience),
            "archived, raw content kept"
        );
        assert_eq!(
            g.lifecycle_events(key).await.unwrap(),
            vec![LifecycleEvent {
                memory_kind: MemoryKind::Source,
                memory_key: key.clone(),
                user_id: u.alice.clone(),
                previous_state: was.lifecycle.state,
                new_state: MemoryState::Archived,
                reason: "consolidated".into(),
                actor: Actor::System,
                at,
            }]
        );
    }
    let others: Vec<_> = before
        .sources
        .iter()
        .filter(|s| !old.contains(&s.entity_key))
        .collect();
    for s in others {
        assert_eq!(
            g.source(&s.entity_key).await.unwrap().as_ref(),
            Some(s),
            "other Sources untouched"
        );
    }
    assert!(
        g.source_clusters(&seed_rule(t0() + days(10), 1), 100)
            .await
            .unwrap()
            .iter()
            .all(|c| c.sources.iter().all(|s| !old.contains(&s.entity_key))),
        "archived Sources are not clustered again"
    );
    assert!(
        g.faded_sources(t0() + days(10), 1.0, 100)
            .await
            .unwrap()
            .iter()
            .all(|(s, _)| !old.contains(&s.entity_key)),
        "nor faded"
    );

    // Repeating it changes nothing, even once the node was consolidated (clean).
    g.consolidate_node(&sarah, "Sarah.", None, at + days(1))
        .await
        .unwrap();
    let once = GraphSnapshot::of_user(g, &u.alice).await.unwrap();
    let mut events = Vec::new();
    for key in &old {
        events.push(g.lifecycle_events(key).await.unwrap());
    }
    assert_eq!(
        g.consolidate_sources(&c).await.unwrap(),
        0,
        "none archived again"
    );
    assert_eq!(
        GraphSnapshot::of_user(g, &u.alice).await.unwrap(),
        once,
        "a repeated consolidation writes nothing"
    );
    for (key, e) in old.iter().zip(&events) {
        assert_eq!(&g.lifecycle_events(key).await.unwrap(), e, "events once");
    }
    assert_eq!(g.derived_sources(&sarah).await.unwrap(), derived);
}

// ---- received time, shared anchors, each Source once ----

/// Like `extracted`, for a Source that happened at `happened` but reached Cosmo at
/// `received` (a back-fill of history).
async fn backfilled(
    g: &dyn GraphStore,
    user: &str,
    text: &str,
    happened: DateTime<Utc>,
    received: DateTime<Utc>,
    nodes: Vec<NodeUpsert>,
) -> (String, Vec<String>) {
    let body = json!({
        "user_id": user, "source_type": "text-note", "started_at": happened.to_rfc3339(),
        "raw_content": { "content": text },
    });
    let s = SourceInput::parse(body)
        .unwrap()
        .into_new_source(None, received);
    g.create_source(&s).await.unwrap();
    let processed = ProcessedContent {
        content: text.to_owned(),
        summary: format!("Summary of {text}"),
        keywords: Vec::new(),
        tags: Vec::new(),
        embedding: vec![0.5, 0.5],
        passages: Vec::new(),
        embedded_with: EMBEDDED_WITH.into(),
    };
    assert!(
        g.save_processed(&s.entity_key, &processed, received)
            .await
            .unwrap()
    );
    let out = g
        .write_extraction(&write(&s, user, received, nodes))
        .await
        .unwrap();
    (s.entity_key, out.node_keys)
}

fn keys_of_faded(found: &[(SourceBrief, Vec<String>)]) -> Vec<String> {
    let mut keys: Vec<String> = found.iter().map(|(s, _)| s.entity_key.clone()).collect();
    keys.sort();
    keys
}

pub async fn back_filled_sources_wait_until_received_long_enough(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    // Five sessions about Sarah that happened in November, posted on day 20, and a
    // faded one posted with them; a faded note that was posted when it happened.
    let received = t0() + days(20);
    let mut sessions = Vec::new();
    let mut sarah = String::new();
    for d in 0..5 {
        let (key, nodes) = backfilled(
            g,
            &u.alice,
            &format!("Sarah, session {d}."),
            t0() + days(d),
            received,
            vec![person("Sarah Chen", 0.9)],
        )
        .await;
        sessions.push(key);
        sarah = nodes[0].clone();
    }
    let (faded_backfill, _) = backfilled(
        g,
        &u.alice,
        "An old faded note about tea.",
        t0(),
        received,
        vec![concept("Tea")],
    )
    .await;
    fade(g, &faded_backfill, 0.1, false, MemoryState::Candidate).await;
    let (faded_live, _) = extracted(
        g,
        &u.alice,
        "A faded live note about tea.",
        t0(),
        vec![concept("Tea")],
        |_| {},
    )
    .await;
    fade(g, &faded_live, 0.1, false, MemoryState::Candidate).await;

    for (cutoff, why) in [
        (
            t0() + days(10),
            "happened long ago, received after the cut-off",
        ),
        (received, "received exactly at the cut-off is not before it"),
    ] {
        assert!(
            g.source_clusters(&seed_rule(cutoff, 5), 100)
                .await
                .unwrap()
                .is_empty(),
            "no cluster: {why}"
        );
        assert_eq!(
            keys_of_faded(&g.faded_sources(cutoff, 0.2, 100).await.unwrap()),
            vec![faded_live.clone()],
            "only the faded Source received before the cut-off: {why}"
        );
    }

    let later = received + Duration::seconds(1);
    let found: Vec<SourceCluster> = g
        .source_clusters(&seed_rule(later, 5), 100)
        .await
        .unwrap()
        .into_iter()
        .map(sorted_cluster)
        .collect();
    let mut want = briefs_of(g, &sessions).await;
    want.sort_by(|a, b| a.entity_key.cmp(&b.entity_key));
    assert_eq!(
        found,
        vec![SourceCluster {
            entity_key: sarah,
            user_id: u.alice.clone(),
            sources: want,
        }],
        "once received before the cut-off, the back-fill clusters"
    );
    let mut both = vec![faded_backfill, faded_live];
    both.sort();
    assert_eq!(
        keys_of_faded(&g.faded_sources(later, 0.2, 100).await.unwrap()),
        both
    );
}

pub async fn shared_anchors_make_no_cluster(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    g.upsert_owner(&u.alice, "Alice Walker", t0())
        .await
        .unwrap();
    // Twelve sessions of alice's conversation history with Melanie: both speak in every
    // one; pottery comes up in the first six (exactly half), camping in the last seven.
    let (mut sessions, mut melanie, mut pottery, mut camping) =
        (Vec::new(), String::new(), String::new(), String::new());
    for d in 0..12 {
        let mut nodes = vec![person("Alice Walker", 1.0), person("Melanie Brooks", 0.9)];
        if d < 6 {
            nodes.push(concept("Pottery"));
        }
        if d >= 5 {
            nodes.push(concept("Camping"));
        }
        let (key, n) = extracted(
            g,
            &u.alice,
            &format!("Session {d} with Melanie."),
            t0() + days(d),
            nodes,
            |_| {},
        )
        .await;
        sessions.push(key);
        if d == 5 {
            (melanie, pottery, camping) = (n[1].clone(), n[2].clone(), n[3].clone());
        }
    }
    // Neither bob's own Sources nor his team Source that alice's graph mentions pottery
    // from are alice's: they count in no share of hers.
    for d in 0..3 {
        extracted(g, &u.bob, &format!("Bob's note {d}."), t0(), vec![], |_| {}).await;
    }
    let team = team_source(&u.bob, &[&*u.alice], "Pottery at bob's.", t0() + days(3));
    g.create_source(&team).await.unwrap();
    g.write_extraction(&write(
        &team,
        &u.alice,
        t0() + days(3),
        vec![concept("Pottery")],
    ))
    .await
    .unwrap();

    let cutoff = t0() + days(30);
    let rules = ClusterRules {
        older_than: cutoff,
        min_sources: 5,
        anchor_share: 0.5,
        anchor_min_sources: 10,
    };
    let clusters = |rules: ClusterRules| async move {
        g.source_clusters(&rules, 100)
            .await
            .unwrap()
            .into_iter()
            .map(|c| (c.entity_key, c.sources.len()))
            .collect::<Vec<_>>()
    };
    let pottery_only = vec![(pottery.clone(), 6)];
    assert_eq!(
        clusters(rules).await,
        pottery_only,
        "Melanie (12 of 12) and camping (7 of 12) are shared anchors; pottery (6 of 12) is \
         not more than half"
    );
    let found = g.source_clusters(&rules, 100).await.unwrap();
    let mut want = briefs_of(g, &sessions[..6]).await;
    want.sort_by(|a, b| a.entity_key.cmp(&b.entity_key));
    assert_eq!(
        found.into_iter().map(sorted_cluster).collect::<Vec<_>>(),
        vec![SourceCluster {
            entity_key: pottery.clone(),
            user_id: u.alice.clone(),
            sources: want,
        }],
        "with alice's own Sources only"
    );
    assert_eq!(
        clusters(seed_rule(cutoff, 5)).await,
        vec![
            (melanie.clone(), 12),
            (camping.clone(), 7),
            (pottery.clone(), 6)
        ],
        "the seed's rule alone: every one, biggest first"
    );
    assert_eq!(
        clusters(ClusterRules {
            anchor_min_sources: 13,
            ..rules
        })
        .await,
        clusters(seed_rule(cutoff, 5)).await,
        "below the minimum history the cut does not apply"
    );
    assert_eq!(
        clusters(ClusterRules {
            anchor_min_sources: 12,
            ..rules
        })
        .await,
        pottery_only,
        "at it, it does"
    );
    let mut wider = clusters(ClusterRules {
        anchor_share: 0.6,
        ..rules
    })
    .await;
    wider.sort();
    let mut want = vec![(camping.clone(), 7), (pottery.clone(), 6)];
    want.sort();
    assert_eq!(wider, want, "camping is 7 of 12, under 0.6");

    // The share is of alice's whole history: archiving or pinning the late sessions
    // leaves pottery 6 of 12 (not 6 of the 7 left), and Melanie an anchor.
    for key in &sessions[8..] {
        fade(g, key, 0.5, false, MemoryState::Archived).await;
    }
    fade(g, &sessions[7], 0.5, true, MemoryState::Active).await;
    assert_eq!(clusters(rules).await, pottery_only);
}

pub async fn a_source_in_several_clusters_is_archived_and_counted_once(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let both = || vec![person("Sarah Chen", 0.9), organization("Acme Corp")];
    let (both_a, nodes) = extracted(g, &u.alice, "Sarah at Acme.", t0(), both(), |_| {}).await;
    let (sarah, acme) = (nodes[0].clone(), nodes[1].clone());
    let (both_b, _) = extracted(
        g,
        &u.alice,
        "Sarah at Acme again.",
        t0() + days(1),
        both(),
        |_| {},
    )
    .await;
    let (sarah_only, _) = extracted(
        g,
        &u.alice,
        "Sarah alone.",
        t0() + days(2),
        vec![person("Sarah Chen", 0.9)],
        |_| {},
    )
    .await;
    let (acme_only, _) = extracted(
        g,
        &u.alice,
        "Acme alone.",
        t0() + days(3),
        vec![organization("Acme Corp")],
        |_| {},
    )
    .await;
    let (pinned, _) = extracted(
        g,
        &u.alice,
        "Sarah, pinned.",
        t0() + days(4),
        vec![person("Sarah Chen", 0.9)],
        |_| {},
    )
    .await;
    fade(g, &pinned, 0.5, true, MemoryState::Active).await;

    let at = t0() + days(30);
    let insight = |entity_key: &str, text: &str, keys: &[&String]| EpisodicConsolidation {
        entity_key: entity_key.to_owned(),
        user_id: u.alice.clone(),
        insight: text.to_owned(),
        lifetime: NoteLifetime::Year,
        source_keys: keys.iter().map(|k| (*k).clone()).collect(),
        at,
    };
    let about_sarah = insight(
        &sarah,
        "Sarah keeps coming up.",
        &[&both_a, &both_b, &sarah_only, &pinned],
    );
    let about_acme = insight(
        &acme,
        "Acme keeps coming up.",
        &[&both_a, &both_b, &acme_only, &acme_only],
    );
    assert_eq!(
        g.consolidate_sources(&about_sarah).await.unwrap(),
        3,
        "three archived; the pinned one stays"
    );
    assert_eq!(
        g.consolidate_sources(&about_acme).await.unwrap(),
        1,
        "only the Acme-only Source is new, counted once though named twice"
    );

    let sorted = |keys: &[&String]| {
        let mut v: Vec<String> = keys.iter().map(|k| (*k).clone()).collect();
        v.sort();
        v
    };
    assert_eq!(
        g.derived_sources(&sarah).await.unwrap(),
        sorted(&[&both_a, &both_b, &sarah_only, &pinned]),
        "provenance from each node it concerns"
    );
    assert_eq!(
        g.derived_sources(&acme).await.unwrap(),
        sorted(&[&both_a, &both_b, &acme_only])
    );
    for (node_key, text) in [(&sarah, &about_sarah.insight), (&acme, &about_acme.insight)] {
        assert!(
            node(g, node_key)
                .await
                .notes
                .iter()
                .any(|n| &n.text == text),
            "each node has its insight"
        );
    }
    for key in [&both_a, &both_b, &sarah_only, &acme_only] {
        let events = g.lifecycle_events(key).await.unwrap();
        assert_eq!(
            events
                .iter()
                .map(|e| (e.new_state, e.reason.as_str()))
                .collect::<Vec<_>>(),
            vec![(MemoryState::Archived, "consolidated")],
            "archived once: {key}"
        );
    }
    let kept = g.source(&pinned).await.unwrap().unwrap();
    assert_eq!(
        (kept.lifecycle.state, kept.lifecycle.pinned),
        (MemoryState::Active, true)
    );
    assert!(g.lifecycle_events(&pinned).await.unwrap().is_empty());

    for c in [&about_sarah, &about_acme] {
        assert_eq!(
            g.consolidate_sources(c).await.unwrap(),
            0,
            "a repeat archives nothing"
        );
    }
}
