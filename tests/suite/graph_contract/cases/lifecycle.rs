//! Maintenance: lifecycle pages, lifecycle writes and the event log; candidates confirmed
//! by a second Source; completed extractions are final.

use std::collections::BTreeMap;

use chrono::Duration;
use cosmo_shared::domain::{
    Actor, Lifecycle, LifecycleChange, LifecycleEvent, MemoryKind, MemoryLifecycle, MemoryState,
    NewMacro, NewStoryline, NodeRef, NoteLifetime, NoteTarget, TtlPolicy,
};
use cosmo_shared::graph::{GraphSnapshot, GraphStore};
use cosmo_shared::ids;
use cosmo_shared::lifecycle::{self, LifecycleParams};

use super::super::support::*;

const KINDS: [MemoryKind; 5] = [
    MemoryKind::Source,
    MemoryKind::Node,
    MemoryKind::Relationship,
    MemoryKind::Storyline,
    MemoryKind::Macro,
];

/// Memories of every kind for alice and bob; the keys of each kind with their user.
async fn one_of_each(g: &dyn GraphStore, u: &Users) -> BTreeMap<MemoryKind, Vec<(String, String)>> {
    let mut all: BTreeMap<MemoryKind, Vec<(String, String)>> = BTreeMap::new();
    let mut add = |kind, key: &str, user: &str| {
        all.entry(kind)
            .or_default()
            .push((key.to_owned(), user.to_owned()))
    };
    let owner = g
        .upsert_owner(&u.alice, "Alice Walker", t0())
        .await
        .unwrap();
    add(MemoryKind::Node, &owner.entity_key, &u.alice);

    let mut alice_sources = Vec::new();
    let mut alice_nodes = Vec::new();
    for d in 0..3 {
        let (key, nodes) = extracted(
            g,
            &u.alice,
            &format!("Sarah Chen and the hiring plan, day {d}"),
            t0() + days(d),
            vec![person("Sarah Chen", 0.9), concept("Hiring Plan")],
            |w| w.relationships = vec![link(0, 1, "owns")],
        )
        .await;
        add(MemoryKind::Source, &key, &u.alice);
        alice_sources.push(key);
        alice_nodes = nodes;
    }
    for n in &alice_nodes {
        add(MemoryKind::Node, n, &u.alice);
    }
    let mut bob_sources = Vec::new();
    let mut bob_nodes = Vec::new();
    for d in 0..2 {
        let (key, nodes) = extracted(
            g,
            &u.bob,
            &format!("Dana and the garden, day {d}"),
            t0() + days(d),
            vec![concept("Garden"), person("Dana Park", 0.8)],
            |w| w.relationships = vec![link(1, 0, "tends")],
        )
        .await;
        add(MemoryKind::Source, &key, &u.bob);
        bob_sources.push(key);
        bob_nodes = nodes;
    }
    for n in &bob_nodes {
        add(MemoryKind::Node, n, &u.bob);
    }
    for (user, nodes, rel_type) in [
        (&u.alice, &alice_nodes, "owns"),
        (&u.bob, &bob_nodes, "tends"),
    ] {
        let rels = g.relationships_for_user(user, None, 100).await.unwrap();
        assert_eq!(rels.len(), 1, "one relationship for {user}");
        assert_eq!(rels[0].relationship_type, rel_type);
        assert!(nodes.contains(&rels[0].from_key));
        add(MemoryKind::Relationship, &rels[0].rel_key, user);
    }

    for (user, anchor, sources) in [
        (&u.alice, &alice_nodes[0], &alice_sources),
        (&u.bob, &bob_nodes[0], &bob_sources),
    ] {
        let storyline_id = ids::storyline_id(anchor, &sources[0]);
        g.create_storyline(&NewStoryline {
            storyline_id: storyline_id.clone(),
            user_id: user.clone(),
            anchor_key: anchor.clone(),
            description: "A storyline.".into(),
            embedding: Some(vec![1.0, 0.0]),
            source_keys: sources.clone(),
            at: t0() + days(5),
        })
        .await
        .unwrap();
        add(MemoryKind::Storyline, &storyline_id, user);
        if *user == u.alice {
            let macro_id = ids::macro_id(anchor);
            g.create_macro(&NewMacro {
                macro_id: macro_id.clone(),
                user_id: user.clone(),
                anchor_key: anchor.clone(),
                description: "A macro.".into(),
                embedding: None,
                storyline_ids: vec![storyline_id],
                at: t0() + days(6),
            })
            .await
            .unwrap();
            add(MemoryKind::Macro, &macro_id, user);
        }
    }
    for keys in all.values_mut() {
        keys.sort();
    }
    all
}

/// Every memory of `kind`, in pages of `limit`, checking each page's size.
async fn walk(g: &dyn GraphStore, kind: MemoryKind, limit: usize) -> Vec<MemoryLifecycle> {
    let mut seen: Vec<MemoryLifecycle> = Vec::new();
    loop {
        let after = seen.last().map(|m| m.key.clone());
        let page = g
            .lifecycle_page(kind, after.as_deref(), limit)
            .await
            .unwrap();
        assert!(page.len() <= limit, "{kind}: a page holds at most {limit}");
        if page.is_empty() {
            return seen;
        }
        seen.extend(page);
        assert!(seen.len() < 1000, "{kind}: paging does not end");
    }
}

pub async fn lifecycle_pages_walk_every_memory_once(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let expected = one_of_each(g, &u).await;
    for kind in KINDS {
        let want = &expected[&kind];
        let seen = walk(g, kind, 2).await;
        let keys: Vec<(String, String)> = seen
            .iter()
            .map(|m| (m.key.clone(), m.user_id.clone()))
            .collect();
        assert_eq!(
            &keys, want,
            "{kind}: pages of 2 cover every memory of every user exactly once, in key order"
        );
        for m in &seen {
            assert_eq!(m.kind, kind);
            assert_eq!(
                m.lifecycle,
                read_lifecycle(g, kind, &m.key, &m.user_id).await,
                "{kind} {}: the page carries the stored lifecycle",
                m.key
            );
        }
        assert_eq!(
            g.lifecycle_page(kind, None, 100).await.unwrap(),
            seen,
            "{kind}: one big page is the same walk"
        );
        let after_first = g
            .lifecycle_page(kind, Some(&seen[0].key), 100)
            .await
            .unwrap();
        assert_eq!(
            after_first,
            seen[1..].to_vec(),
            "{kind}: `after` starts strictly after the key"
        );
        let last = &seen.last().unwrap().key;
        assert!(
            g.lifecycle_page(kind, Some(last), 100)
                .await
                .unwrap()
                .is_empty(),
            "{kind}: nothing after the last key"
        );
    }
}

pub async fn decay_pages_decide_as_the_pure_function_does(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let expected = one_of_each(g, &u).await;
    let params = LifecycleParams::default();
    // A year on: every decaying memory falls below the archive threshold.
    let at = t0() + days(400);
    let mut all_archived = 0;
    for kind in KINDS {
        let before = walk(g, kind, 100).await;
        // Pinned after the first page, before the one that holds it: the walk sees it.
        let late = before.last().unwrap().clone();
        let was_pinned = before.len() > 2;
        let pinned = Lifecycle {
            pinned: true,
            ..late.lifecycle.clone()
        };

        let (mut pages, mut examined, mut changed, mut archived) = (0, 0, 0, 0);
        let mut after: Option<String> = None;
        loop {
            let page = g
                .decay_page(kind, after.as_deref(), 2, at, &params)
                .await
                .unwrap();
            assert!(page.examined <= 2, "{kind}: a page holds at most its limit");
            assert_eq!(
                page.last_key.is_none(),
                page.examined == 0,
                "{kind}: a page names its last key when it holds one"
            );
            if pages == 0 && was_pinned {
                g.apply_lifecycle(&[LifecycleChange {
                    kind,
                    key: late.key.clone(),
                    lifecycle: pinned.clone(),
                    event: None,
                }])
                .await
                .unwrap();
            }
            pages += 1;
            (examined, changed, archived) = (
                examined + page.examined,
                changed + page.changed,
                archived + page.archived,
            );
            if page.examined < 2 {
                break;
            }
            after = page.last_key;
            assert!(pages < 100, "{kind}: paging does not end");
        }
        assert_eq!(
            examined,
            expected[&kind].len(),
            "{kind}: the pages examine every memory of every user once"
        );

        let (mut want_changed, mut want_archived) = (0, 0);
        for m in &before {
            let then = if was_pinned && m.key == late.key {
                MemoryLifecycle {
                    lifecycle: pinned.clone(),
                    ..m.clone()
                }
            } else {
                m.clone()
            };
            let want = lifecycle::decay_change(&then, at, &params);
            let now = read_lifecycle(g, kind, &m.key, &m.user_id).await;
            super::decay::assert_decayed(
                &now,
                want.as_ref().map_or(&then.lifecycle, |c| &c.lifecycle),
                store.decay_tolerance(),
                &format!("{kind} {}", m.key),
            );
            let events = g.lifecycle_events(&m.key).await.unwrap();
            if let Some(e) = want.as_ref().and_then(|c| c.event.clone()) {
                assert_eq!(
                    events.last(),
                    Some(&e),
                    "{kind} {}: its event is logged",
                    m.key
                );
                want_archived += 1;
            }
            want_changed += usize::from(want.is_some());
        }
        assert_eq!(
            (changed, archived),
            (want_changed, want_archived),
            "{kind}: the pages count what changed and what was archived"
        );
        all_archived += archived;

        // The same time again changes nothing.
        let again = g.decay_page(kind, None, 100, at, &params).await.unwrap();
        assert_eq!(again.examined, expected[&kind].len());
        assert_eq!(
            (again.changed, again.archived),
            (0, 0),
            "{kind}: a second run for the same time writes nothing"
        );
    }
    assert!(
        all_archived > 0,
        "a year on, decaying memories are archived"
    );
}

/// A lifecycle unlike the defaults in every field (`created_at` is never rewritten).
fn everything_changed(i: i64, old: &Lifecycle, state: MemoryState) -> Lifecycle {
    let ms = Duration::milliseconds;
    Lifecycle {
        salience: 0.31 + i as f64 * 0.07,
        state,
        confidence: 0.62 + i as f64 * 0.03,
        access_count: 11 + i,
        recall_frequency: 4 + i,
        last_recall_interval: 2.5 + i as f64,
        decay_gradient: 1.35 - i as f64 * 0.05,
        last_accessed_at: Some(t0() + days(30 + i) + ms(250)),
        last_decayed_at: Some(t0() + days(31 + i) + ms(500)),
        ttl_policy: if i % 2 == 0 {
            TtlPolicy::KeepForever
        } else {
            TtlPolicy::Ephemeral
        },
        pinned: true,
        created_at: old.created_at,
        updated_at: t0() + days(32 + i) + ms(750),
    }
}

fn event(
    kind: MemoryKind,
    key: &str,
    user: &str,
    from: MemoryState,
    to: MemoryState,
    reason: &str,
    at: chrono::DateTime<chrono::Utc>,
) -> LifecycleEvent {
    LifecycleEvent {
        memory_kind: kind,
        memory_key: key.to_owned(),
        user_id: user.to_owned(),
        previous_state: from,
        new_state: to,
        reason: reason.to_owned(),
        actor: Actor::System,
        at,
    }
}

pub async fn apply_lifecycle_writes_every_field(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let all = one_of_each(g, &u).await;
    let mut before = BTreeMap::new();
    for kind in KINDS {
        before.insert(kind, g.lifecycle_page(kind, None, 100).await.unwrap());
    }
    let source_before = g.source(&all[&MemoryKind::Source][0].0).await.unwrap();

    // One memory of each kind, each to a different state, all in one batch.
    let targets = [
        (MemoryKind::Source, MemoryState::Archived, "ttl_expired"),
        (MemoryKind::Node, MemoryState::Core, "frequently_accessed"),
        (MemoryKind::Relationship, MemoryState::Active, "accessed"),
        (
            MemoryKind::Storyline,
            MemoryState::Core,
            "frequently_accessed",
        ),
        (MemoryKind::Macro, MemoryState::Archived, "decayed"),
    ];
    let mut changes = Vec::new();
    for (i, (kind, state, reason)) in targets.into_iter().enumerate() {
        let (key, user) = &all[&kind][0];
        let old = read_lifecycle(g, kind, key, user).await;
        let new = everything_changed(i as i64, &old, state);
        let mut e = event(kind, key, user, old.state, state, reason, new.updated_at);
        e.actor = if i == 2 { Actor::User } else { Actor::System };
        changes.push(LifecycleChange {
            kind,
            key: key.clone(),
            lifecycle: new,
            event: Some(e),
        });
    }
    // Extraction may have confirmed a node already (`re_mentioned`): those events stay.
    let mut events_before = BTreeMap::new();
    for c in &changes {
        events_before.insert(c.key.clone(), g.lifecycle_events(&c.key).await.unwrap());
    }
    g.apply_lifecycle(&changes).await.unwrap();
    g.apply_lifecycle(&changes).await.unwrap();

    for c in &changes {
        let (kind, key) = (c.kind, &c.key);
        let user = &c.event.as_ref().unwrap().user_id;
        assert_eq!(
            read_lifecycle(g, kind, key, user).await,
            c.lifecycle,
            "{kind}: its own read returns every lifecycle field as written"
        );
        let page = g.lifecycle_page(kind, None, 100).await.unwrap();
        let m = page.iter().find(|m| &m.key == key).unwrap();
        assert_eq!(
            (&m.lifecycle, &m.user_id),
            (&c.lifecycle, user),
            "{kind}: the lifecycle page returns what was written"
        );
        assert_eq!(
            g.lifecycle_events(key).await.unwrap(),
            [events_before[key].clone(), vec![c.event.clone().unwrap()]].concat(),
            "{kind}: the event is recorded once although the change was applied twice"
        );
    }
    // Nothing else moved.
    for kind in KINDS {
        let changed = &changes.iter().find(|c| c.kind == kind).unwrap().key;
        let after = g.lifecycle_page(kind, None, 100).await.unwrap();
        let keep = |v: &Vec<MemoryLifecycle>| -> Vec<MemoryLifecycle> {
            v.iter().filter(|m| &m.key != changed).cloned().collect()
        };
        assert_eq!(
            keep(&after),
            keep(&before[&kind]),
            "{kind}: other memories untouched"
        );
    }
    let source_before = source_before.unwrap();
    let source_after = g.source(&source_before.entity_key).await.unwrap().unwrap();
    assert_eq!(
        source_after,
        cosmo_shared::domain::Source {
            lifecycle: changes[0].lifecycle.clone(),
            ..source_before
        },
        "only the lifecycle of the Source changed"
    );

    // A change without an event records none.
    let (other, _) = all[&MemoryKind::Node]
        .iter()
        .find(|(k, _)| k != &changes[1].key)
        .unwrap()
        .clone();
    let old = read_lifecycle(g, MemoryKind::Node, &other, &u.alice).await;
    let other_events = g.lifecycle_events(&other).await.unwrap();
    let quiet = LifecycleChange {
        kind: MemoryKind::Node,
        key: other.clone(),
        lifecycle: Lifecycle {
            salience: 0.12,
            last_decayed_at: Some(t0() + days(40)),
            updated_at: t0() + days(40),
            ..old
        },
        event: None,
    };
    g.apply_lifecycle(std::slice::from_ref(&quiet))
        .await
        .unwrap();
    assert_eq!(
        g.node(&other).await.unwrap().unwrap().lifecycle,
        quiet.lifecycle
    );
    assert_eq!(
        g.lifecycle_events(&other).await.unwrap(),
        other_events,
        "a change without an event records none"
    );

    // Events come back oldest first, whatever order they were written in.
    let node = &changes[1];
    let first = node.event.clone().unwrap();
    let later = event(
        MemoryKind::Node,
        &node.key,
        &first.user_id,
        MemoryState::Core,
        MemoryState::Archived,
        "decayed",
        t0() + days(90),
    );
    let earlier = event(
        MemoryKind::Node,
        &node.key,
        &first.user_id,
        MemoryState::Candidate,
        MemoryState::Active,
        "accessed",
        t0() + days(10),
    );
    for e in [&later, &earlier] {
        g.apply_lifecycle(&[LifecycleChange {
            kind: MemoryKind::Node,
            key: node.key.clone(),
            lifecycle: Lifecycle {
                state: e.new_state,
                updated_at: e.at,
                ..node.lifecycle.clone()
            },
            event: Some(e.clone()),
        }])
        .await
        .unwrap();
    }
    let mut want = events_before[&node.key].clone();
    want.extend([earlier, first, later]);
    want.sort_by_key(|e| e.at);
    assert_eq!(
        g.lifecycle_events(&node.key).await.unwrap(),
        want,
        "events oldest first, whatever order they were written in"
    );
}

pub async fn candidates_are_confirmed_by_a_second_source(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let first = team_source(&u.alice, &[&*u.bob], "Sarah, Budget and Hiring.", t0());
    g.create_source(&first).await.unwrap();
    let a = g
        .write_extraction(&write(
            &first,
            &u.alice,
            t0(),
            vec![
                person("Sarah Chen", 0.6),
                concept("Budget"),
                concept("Hiring"),
            ],
        ))
        .await
        .unwrap();
    let (sarah, budget, hiring) = (&a.node_keys[0], &a.node_keys[1], &a.node_keys[2]);
    let b = g
        .write_extraction(&write(
            &first,
            &u.bob,
            t0(),
            vec![person("Sarah Chen", 0.6)],
        ))
        .await
        .unwrap();
    let bobs_sarah = &b.node_keys[0];
    for key in [sarah, budget, hiring, bobs_sarah] {
        assert_eq!(
            g.node(key).await.unwrap().unwrap().lifecycle.state,
            MemoryState::Candidate,
            "one mention leaves a candidate"
        );
    }
    set_lifecycle(g, MemoryKind::Node, budget, &u.alice, |l| l.pinned = true).await;

    let second = source(&u.alice, "Sarah and the budget again.", t0() + days(2));
    g.create_source(&second).await.unwrap();
    let w = write(
        &second,
        &u.alice,
        t0() + days(3),
        vec![person("Sarah Chen", 0.6), concept("Budget")],
    );
    g.write_extraction(&w).await.unwrap();

    let s = g.node(sarah).await.unwrap().unwrap();
    assert_eq!(
        s.lifecycle.state,
        MemoryState::Active,
        "a candidate mentioned by a second Source is confirmed"
    );
    let confirmed = event(
        MemoryKind::Node,
        sarah,
        &u.alice,
        MemoryState::Candidate,
        MemoryState::Active,
        "re_mentioned",
        t0() + days(3),
    );
    assert_eq!(
        g.lifecycle_events(sarah).await.unwrap(),
        vec![confirmed.clone()]
    );
    let b = g.node(budget).await.unwrap().unwrap();
    assert_eq!(
        (b.lifecycle.state, b.lifecycle.pinned),
        (MemoryState::Candidate, true),
        "a pinned candidate keeps its state"
    );
    assert!(g.lifecycle_events(budget).await.unwrap().is_empty());
    assert_eq!(
        g.node(hiring).await.unwrap().unwrap().lifecycle.state,
        MemoryState::Candidate,
        "mentioned once: still a candidate"
    );
    assert!(g.lifecycle_events(hiring).await.unwrap().is_empty());
    assert_eq!(
        g.node(bobs_sarah).await.unwrap().unwrap().lifecycle.state,
        MemoryState::Candidate,
        "alice's Sources never confirm bob's nodes"
    );

    // Re-running the second extraction, or a third mention, adds no event.
    assert!(g.write_extraction(&w).await.unwrap().already_complete);
    let third = source(&u.alice, "Sarah a third time.", t0() + days(4));
    g.create_source(&third).await.unwrap();
    g.write_extraction(&write(
        &third,
        &u.alice,
        t0() + days(4),
        vec![person("Sarah Chen", 0.6)],
    ))
    .await
    .unwrap();
    assert_eq!(
        g.node(sarah).await.unwrap().unwrap().lifecycle.state,
        MemoryState::Active
    );
    assert_eq!(
        g.lifecycle_events(sarah).await.unwrap(),
        vec![confirmed],
        "confirmed once"
    );
}

pub async fn completed_extractions_are_final(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    g.upsert_owner(&u.alice, "Alice Walker", t0())
        .await
        .unwrap();
    // A Storyline a retried write could try to join.
    let (anchor, keys) = mentioned(
        g,
        &u.alice,
        "Sarah before",
        person("Sarah Chen", 0.9),
        &on_days(&[0, 1]),
    )
    .await;
    let storyline_id = ids::storyline_id(&anchor, &keys[0]);
    g.create_storyline(&NewStoryline {
        storyline_id: storyline_id.clone(),
        user_id: u.alice.clone(),
        anchor_key: anchor.clone(),
        description: "Sarah.".into(),
        embedding: None,
        source_keys: keys,
        at: t0() + days(2),
    })
    .await
    .unwrap();

    let s = team_source(
        &u.alice,
        &[&*u.bob],
        "Sarah Chen plans the offsite.",
        t0() + days(3),
    );
    g.create_source(&s).await.unwrap();
    let mut w = write(
        &s,
        &u.alice,
        t0() + days(3),
        vec![person("Sarah Chen", 0.9), concept("Offsite")],
    );
    w.notes = vec![note(
        NoteTarget::Node(NodeRef::Extracted(1)),
        "Planned for May.",
        NoteLifetime::Month,
    )];
    let out = g.write_extraction(&w).await.unwrap();
    assert!(!out.already_complete);
    let alice_once = GraphSnapshot::of_user(g, &u.alice).await.unwrap();
    let bob_once = GraphSnapshot::of_user(g, &u.bob).await.unwrap();
    let events_once = g.lifecycle_events(&anchor).await.unwrap();

    // A duplicate job: the record is requested, started and failed again, and the write
    // comes later with other answers, a relationship, notes and a Storyline to join.
    g.request_extraction(&s.entity_key, &u.alice, t0() + days(4))
        .await
        .unwrap();
    g.mark_extraction_started(&s.entity_key, &u.alice, t0() + days(4))
        .await
        .unwrap();
    g.record_extraction_error(&s.entity_key, &u.alice, "timeout", true, t0() + days(4))
        .await
        .unwrap();
    let mut other = write(
        &s,
        &u.alice,
        t0() + days(5),
        vec![
            person("Sarah Chen", 0.5),
            concept("Offsite"),
            organization("Acme Corp"),
            person("Dana Park", 0.9),
        ],
    );
    other.relationships = vec![link(0, 2, "works_at"), {
        let mut r = link(3, 0, "knows");
        r.to = NodeRef::Owner;
        r
    }];
    other.notes = vec![
        note(
            NoteTarget::Node(NodeRef::Extracted(0)),
            "Plans the offsite.",
            NoteLifetime::Year,
        ),
        note(
            NoteTarget::Node(NodeRef::Owner),
            "Attends the offsite.",
            NoteLifetime::Week,
        ),
        note(
            NoteTarget::Relationship(0),
            "Since 2024.",
            NoteLifetime::Forever,
        ),
    ];
    other.storylines = vec![storyline_id.clone()];
    for attempt in [&w, &other] {
        let again = g.write_extraction(attempt).await.unwrap();
        assert!(again.already_complete, "the extraction is complete");
        assert_eq!(
            (
                again.nodes_created,
                again.mentions_created,
                again.relationships_created,
                again.notes_added,
                again.storylines_joined
            ),
            (0, 0, 0, 0, 0),
            "a completed extraction writes nothing"
        );
    }
    assert_eq!(
        GraphSnapshot::of_user(g, &u.alice).await.unwrap(),
        alice_once,
        "alice's graph is unchanged"
    );
    assert_eq!(
        GraphSnapshot::of_user(g, &u.bob).await.unwrap(),
        bob_once,
        "bob's graph is unchanged"
    );
    assert_eq!(g.lifecycle_events(&anchor).await.unwrap(), events_once);

    // It is final per (Source, user): bob's own extraction of the team Source still runs.
    let bobs = g
        .write_extraction(&write(&s, &u.bob, t0() + days(6), vec![concept("Offsite")]))
        .await
        .unwrap();
    assert!(!bobs.already_complete);
    assert_eq!((bobs.nodes_created, bobs.mentions_created), (1, 1));
    assert!(
        g.write_extraction(&write(&s, &u.bob, t0() + days(7), vec![concept("Other")]))
            .await
            .unwrap()
            .already_complete
    );
    let alice_now = GraphSnapshot::of_user(g, &u.alice).await.unwrap();
    assert_eq!(
        (
            &alice_now.sources,
            &alice_now.nodes,
            &alice_now.relationships,
            &alice_now.mentions,
            &alice_now.storylines
        ),
        (
            &alice_once.sources,
            &alice_once.nodes,
            &alice_once.relationships,
            &alice_once.mentions,
            &alice_once.storylines
        ),
        "bob's extraction leaves alice's graph alone"
    );
}

pub async fn an_archived_node_mentioned_again_is_active_again(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let first = source(&u.alice, "Sarah and the budget.", t0());
    g.create_source(&first).await.unwrap();
    let a = g
        .write_extraction(&write(
            &first,
            &u.alice,
            t0(),
            vec![person("Sarah Chen", 0.6), concept("Budget")],
        ))
        .await
        .unwrap();
    let (sarah, budget) = (&a.node_keys[0], &a.node_keys[1]);
    // Both faded out of retrieval long ago (as decay leaves them); the budget is pinned.
    for key in [sarah, budget] {
        set_lifecycle(g, MemoryKind::Node, key, &u.alice, |l| {
            l.state = MemoryState::Archived;
            l.salience = 0.005;
        })
        .await;
    }
    set_lifecycle(g, MemoryKind::Node, budget, &u.alice, |l| l.pinned = true).await;
    let events_before = g.lifecycle_events(sarah).await.unwrap();

    let later = t0() + days(200);
    let second = source(&u.alice, "Sarah again, and the budget.", later);
    g.create_source(&second).await.unwrap();
    let w = write(
        &second,
        &u.alice,
        later,
        vec![person("Sarah Chen", 0.6), concept("Budget")],
    );
    g.write_extraction(&w).await.unwrap();

    let s = g.node(sarah).await.unwrap().unwrap().lifecycle;
    assert_eq!(
        s.state,
        MemoryState::Active,
        "an archived node a new Source mentions is active again"
    );
    assert_eq!(
        (s.salience, s.last_decayed_at),
        (Lifecycle::INITIAL_SALIENCE, Some(later)),
        "as salient as a new memory, decaying from now (else the next decay would archive it again)"
    );
    let mut want = events_before.clone();
    want.push(event(
        MemoryKind::Node,
        sarah,
        &u.alice,
        MemoryState::Archived,
        MemoryState::Active,
        "re_mentioned",
        later,
    ));
    assert_eq!(g.lifecycle_events(sarah).await.unwrap(), want);
    let b = g.node(budget).await.unwrap().unwrap().lifecycle;
    assert_eq!(
        (b.state, b.pinned, b.salience),
        (MemoryState::Archived, true, 0.005),
        "a pinned node keeps its state"
    );

    // Writing the same extraction again revives nothing twice.
    assert!(g.write_extraction(&w).await.unwrap().already_complete);
    assert_eq!(g.lifecycle_events(sarah).await.unwrap(), want);
}
