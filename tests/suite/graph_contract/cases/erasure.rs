//! Erasure of one Source: what only it supports goes (its nodes, links, notes, facts,
//! empty Storylines and Macros, and their events), counters are recomputed, descriptions
//! that drew on it are cleared and marked dirty, and everything else — other Sources,
//! other users — is left exactly as it was.

use cosmo_shared::domain::{
    Actor, LifecycleEvent, MemoryKind, NewFact, NodeRef, NoteLifetime, NoteTarget,
};
use cosmo_shared::graph::{GraphSnapshot, GraphStore};

use super::super::read_support::*;
use super::super::support::*;

/// A word that appears only in what the erased Source gave.
pub const MARKER: &str = "zorblax";

/// Alice's graph: S1 (the one to erase) names Sarah, the hiring plan and Dana; S2 names
/// Sarah; S3 names Sarah and Dana. Everything S1 gave carries [`MARKER`].
pub struct World {
    pub s: [String; 3],
    pub sarah: String,
    pub hiring: String,
    pub dana: String,
    pub storylines: [String; 2],
    pub macros: [String; 2],
    /// Stated in S1; its correction; stated in S2.
    pub facts: [String; 3],
}

/// Logs an event on a memory without changing it.
pub async fn log_event(g: &dyn GraphStore, kind: MemoryKind, key: &str) {
    let update = |m: &cosmo_shared::domain::MemoryLifecycle| {
        Some(cosmo_shared::domain::LifecycleChange {
            kind,
            key: m.key.clone(),
            lifecycle: m.lifecycle.clone(),
            event: Some(LifecycleEvent {
                memory_kind: kind,
                memory_key: m.key.clone(),
                user_id: m.user_id.clone(),
                previous_state: m.lifecycle.state,
                new_state: m.lifecycle.state,
                reason: "pinned".into(),
                actor: Actor::User,
                at: t0(),
            }),
        })
    };
    let changes = g
        .update_lifecycles(kind, &[key.to_owned()], &update)
        .await
        .unwrap();
    assert_eq!(changes.len(), 1, "{kind} {key} exists");
}

pub async fn world(g: &dyn GraphStore, user: &str) -> World {
    let nodes = vec![
        person("Sarah Chen", 0.9),
        concept("Hiring Plan"),
        person("Dana Park", 0.9),
    ];
    let (s1, n) = extracted(
        g,
        user,
        "Sarah told Dana the zorblax hiring secret",
        t0(),
        nodes,
        |w| {
            let mut owns = link(0, 1, "owns");
            owns.description = "Sarah owns the zorblax plan".into();
            let mut knows = link(0, 2, "knows");
            knows.description = "They share zorblax".into();
            w.relationships = vec![owns, knows];
            w.notes = vec![
                note(
                    NoteTarget::Node(NodeRef::Extracted(0)),
                    "Keeps the zorblax secret",
                    NoteLifetime::Forever,
                ),
                note(
                    NoteTarget::Relationship(0),
                    "The zorblax plan is hers",
                    NoteLifetime::Forever,
                ),
                note(
                    NoteTarget::Relationship(1),
                    "Dana heard zorblax",
                    NoteLifetime::Forever,
                ),
            ];
        },
    )
    .await;
    let (sarah, hiring, dana) = (n[0].clone(), n[1].clone(), n[2].clone());
    let (s2, _) = extracted(
        g,
        user,
        "Sarah runs on Mondays",
        t0() + days(1),
        vec![person("Sarah Chen", 0.9)],
        |w| {
            w.notes = vec![note(
                NoteTarget::Node(NodeRef::Extracted(0)),
                "Runs on Mondays",
                NoteLifetime::Forever,
            )];
        },
    )
    .await;
    let (s3, _) = extracted(
        g,
        user,
        "Sarah and Dana again",
        t0() + days(2),
        vec![person("Sarah Chen", 0.9), person("Dana Park", 0.9)],
        |w| w.relationships = vec![link(0, 1, "knows")],
    )
    .await;
    g.consolidate_node(
        &sarah,
        "Sarah knows the zorblax secret.",
        Some(&angle(0.0)),
        t0() + days(3),
    )
    .await
    .unwrap();
    let all = [s1.clone(), s2.clone(), s3.clone()];
    let at = t0() + days(4);
    let st_sarah = storyline(
        g,
        user,
        &sarah,
        &all,
        "Sarah's zorblax year.",
        Some(angle(0.0)),
        at,
    )
    .await;
    let st_hiring = storyline(g, user, &hiring, &all[..1], "The zorblax hiring.", None, at).await;
    let mc_sarah = macro_(
        g,
        user,
        &sarah,
        std::slice::from_ref(&st_sarah),
        "Zorblax overview.",
        None,
        at,
    )
    .await;
    let mc_hiring = macro_(
        g,
        user,
        &hiring,
        std::slice::from_ref(&st_hiring),
        "Zorblax plan.",
        None,
        at,
    )
    .await;
    let stated = |text: &str, src: &str| NewFact {
        source_keys: vec![src.to_owned()],
        about: vec![sarah.clone()],
        ..fact(user, text, at)
    };
    let f1 = stored(g, &stated("The zorblax code is 42", &s1))
        .await
        .fact_id;
    let fix = g
        .correct_fact(&f1, &fact(user, "The code is 43", at + days(1)))
        .await
        .unwrap();
    let f2 = stored(g, &stated("Sarah likes tea", &s2)).await.fact_id;
    for (kind, key) in [
        (MemoryKind::Source, &s1),
        (MemoryKind::Node, &hiring),
        (MemoryKind::Source, &s2),
    ] {
        log_event(g, kind, key).await;
    }
    World {
        s: all,
        sarah,
        hiring,
        dana,
        storylines: [st_sarah, st_hiring],
        macros: [mc_sarah, mc_hiring],
        facts: [f1, fix.fact_id, f2],
    }
}

pub async fn erasing_a_source_removes_what_only_it_supports(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let w = world(g, &u.alice).await;
    extracted(
        g,
        &u.bob,
        "Bob's garden",
        t0(),
        vec![concept("Garden")],
        |_| {},
    )
    .await;
    let bob_before = GraphSnapshot::of_user(g, &u.bob).await.unwrap();
    let s2_before = g.source(&w.s[1]).await.unwrap();
    let f2_before = g.fact(&w.facts[2]).await.unwrap();

    let e = g
        .erase_source(&w.s[0], t0() + days(9))
        .await
        .unwrap()
        .expect("it existed");
    assert_eq!(e.source_keys, [w.s[0].clone()]);
    assert_eq!(
        (
            e.sources,
            e.nodes,
            e.relationships,
            e.notes,
            e.storylines,
            e.macros,
            e.facts,
            e.events
        ),
        (1, 1, 1, 3, 1, 1, 1, 2),
        "S1; the hiring plan; owns; S1's three notes; the hiring Storyline and Macro; \
         the fact stated in S1; the events of S1 and the hiring plan: {e:?}"
    );
    assert_eq!(
        e.descriptions_cleared, 5,
        "Sarah, Dana, Sarah–Dana, Sarah's Storyline and Macro: {e:?}"
    );
    assert!(g.source(&w.s[0]).await.unwrap().is_none());
    assert!(g.node(&w.hiring).await.unwrap().is_none());
    assert!(g.storyline(&w.storylines[1]).await.unwrap().is_none());
    assert!(g.macro_by_id(&w.macros[1]).await.unwrap().is_none());
    assert!(g.fact(&w.facts[0]).await.unwrap().is_none());
    assert!(g.lifecycle_events(&w.s[0]).await.unwrap().is_empty());
    assert!(g.lifecycle_events(&w.hiring).await.unwrap().is_empty());

    // What survives is recounted from what is left and cleared for consolidation.
    let sarah = g.node(&w.sarah).await.unwrap().unwrap();
    let c = &sarah.counters;
    assert_eq!(
        (
            c.source_count,
            c.distinct_source_days,
            c.first_mentioned_at,
            c.last_mentioned_at
        ),
        (2, 2, Some(t0() + days(1)), Some(t0() + days(2)))
    );
    assert!(c.has_meso && c.has_macro);
    assert!(sarah.is_dirty && sarah.description.is_empty());
    let notes: Vec<&str> = sarah.notes.iter().map(|n| n.text.as_str()).collect();
    assert_eq!(notes, ["Runs on Mondays"]);
    let dana = g.node(&w.dana).await.unwrap().unwrap();
    assert_eq!(dana.counters.source_count, 1);
    assert!(
        dana.is_dirty,
        "mentioned in S1: rewritten from what is left"
    );
    let rels = g.relationships_for_user(&u.alice, None, 10).await.unwrap();
    assert_eq!(rels.len(), 1, "Sarah–Dana stays, S3 supports it: {rels:?}");
    assert!(rels[0].is_dirty && rels[0].description.is_empty() && rels[0].notes.is_empty());
    let st = g.storyline(&w.storylines[0]).await.unwrap().unwrap();
    assert_eq!(
        (st.source_count, st.first_source_at),
        (2, Some(t0() + days(1)))
    );
    assert!(st.is_dirty && st.description.is_empty());
    let mut left = g.storyline_sources(&st.storyline_id).await.unwrap();
    left.sort();
    let mut want = w.s[1..].to_vec();
    want.sort();
    assert_eq!(left, want);
    let mc = g.macro_by_id(&w.macros[0]).await.unwrap().unwrap();
    assert_eq!((mc.storyline_count, mc.total_source_count), (1, 2));
    assert!(mc.is_dirty && mc.description.is_empty());
    let fix = g
        .fact(&w.facts[1])
        .await
        .unwrap()
        .expect("the correction stays");
    assert_eq!(fix.supersedes, None, "without the link to the erased fact");

    // Everything else is untouched.
    assert_eq!(g.source(&w.s[1]).await.unwrap(), s2_before);
    assert_eq!(g.fact(&w.facts[2]).await.unwrap(), f2_before);
    assert_eq!(g.lifecycle_events(&w.s[1]).await.unwrap().len(), 1);
    assert_eq!(GraphSnapshot::of_user(g, &u.bob).await.unwrap(), bob_before);
    assert_eq!(
        g.erase_source(&w.s[0], t0()).await.unwrap(),
        None,
        "already gone"
    );
    assert_eq!(g.erase_source("no-such-source", t0()).await.unwrap(), None);
}
