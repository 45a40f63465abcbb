//! Lifecycle reads and atomic lifecycle updates (what access updates and pin/archive
//! use), and the small views results are built from.

use cosmo_shared::domain::{
    Actor, LifecycleChange, LifecycleEvent, MemoryKind, MemoryLifecycle, MemoryState,
};
use cosmo_shared::graph::GraphStore;

use super::super::read_support::*;
use super::super::support::*;

/// One memory of each kind for alice: `(kind, key)`.
async fn one_each(g: &dyn GraphStore, user: &str) -> Vec<(MemoryKind, String)> {
    let (src, nodes) = extracted(
        g,
        user,
        "Sarah and the plan",
        t0(),
        vec![person("Sarah Chen", 0.9), concept("Plan")],
        |w| w.relationships = vec![link(0, 1, "owns")],
    )
    .await;
    let rel = g.relationships_for_user(user, None, 10).await.unwrap()[0]
        .rel_key
        .clone();
    let st = storyline(
        g,
        user,
        &nodes[0],
        std::slice::from_ref(&src),
        "S.",
        None,
        t0(),
    )
    .await;
    let mc = macro_(
        g,
        user,
        &nodes[0],
        std::slice::from_ref(&st),
        "M.",
        None,
        t0(),
    )
    .await;
    let f = stored(g, &fact(user, "Likes plans", t0())).await.fact_id;
    vec![
        (MemoryKind::Source, src),
        (MemoryKind::Node, nodes[0].clone()),
        (MemoryKind::Relationship, rel),
        (MemoryKind::Storyline, st),
        (MemoryKind::Macro, mc),
        (MemoryKind::Fact, f),
    ]
}

/// Raises salience by 0.1 and, with `log`, moves the memory to core with an event.
fn bump(m: &MemoryLifecycle, log: bool) -> LifecycleChange {
    let mut lifecycle = m.lifecycle.clone();
    lifecycle.salience = (lifecycle.salience + 0.1).min(1.0);
    lifecycle.access_count += 1;
    lifecycle.updated_at = t0() + days(3);
    let event = log.then(|| {
        lifecycle.state = MemoryState::Core;
        LifecycleEvent {
            memory_kind: m.kind,
            memory_key: m.key.clone(),
            user_id: m.user_id.clone(),
            previous_state: m.lifecycle.state,
            new_state: MemoryState::Core,
            reason: "frequently_accessed".into(),
            actor: Actor::System,
            at: t0() + days(3),
        }
    });
    LifecycleChange {
        kind: m.kind,
        key: m.key.clone(),
        lifecycle,
        event,
    }
}

pub async fn memory_reads_any_kind_by_key(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    for (kind, key) in one_each(g, &u.alice).await {
        let m = g.memory(kind, &key).await.unwrap().expect("exists");
        assert_eq!(
            (m.kind, m.key.as_str(), m.user_id.as_str()),
            (kind, key.as_str(), u.alice.as_str())
        );
        assert_eq!(
            m.lifecycle,
            read_lifecycle(g, kind, &key, &u.alice).await,
            "{kind}"
        );
        assert_eq!(g.memory(kind, "no-such-key").await.unwrap(), None, "{kind}");
        let other = if kind == MemoryKind::Fact {
            MemoryKind::Source
        } else {
            MemoryKind::Fact
        };
        assert_eq!(
            g.memory(other, &key).await.unwrap(),
            None,
            "{kind} key read as {other}"
        );
    }
}

pub async fn update_lifecycles_writes_what_the_closure_decides(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let all = one_each(g, &u.alice).await;
    // A second memory of each kind is left alone by the closure.
    let others = one_each(g, &u.bob).await;
    for ((kind, key), (_, other)) in all.iter().zip(&others) {
        let before = g.memory(*kind, key).await.unwrap().unwrap();
        let other_before = g.memory(*kind, other).await.unwrap().unwrap();
        let keys = vec![key.clone(), "no-such-key".to_owned(), other.clone()];
        let changes = g
            .update_lifecycles(*kind, &keys, &|m| (m.key == *key).then(|| bump(m, true)))
            .await
            .unwrap();
        assert_eq!(
            changes,
            vec![bump(&before, true)],
            "{kind}: the one change, returned"
        );
        let after = g.memory(*kind, key).await.unwrap().unwrap();
        assert_eq!(
            after.lifecycle,
            bump(&before, true).lifecycle,
            "{kind}: written"
        );
        assert_eq!(after.lifecycle.state, MemoryState::Core);
        let events = g.lifecycle_events(key).await.unwrap();
        assert_eq!(
            events,
            vec![bump(&before, true).event.unwrap()],
            "{kind}: logged"
        );
        assert_eq!(
            g.memory(*kind, other).await.unwrap().unwrap(),
            other_before,
            "{kind}: None writes nothing"
        );
        assert!(
            g.lifecycle_events(other).await.unwrap().is_empty(),
            "{kind}"
        );

        // A change without an event logs nothing.
        let changes = g
            .update_lifecycles(*kind, std::slice::from_ref(key), &|m| Some(bump(m, false)))
            .await
            .unwrap();
        assert_eq!(changes.len(), 1);
        assert_eq!(g.lifecycle_events(key).await.unwrap().len(), 1, "{kind}");
        assert!(
            g.update_lifecycles(*kind, &[], &|m| Some(bump(m, true)))
                .await
                .unwrap()
                .is_empty()
        );
    }
}

pub async fn concurrent_lifecycle_updates_lose_nothing(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let (src, _) = extracted(g, &u.alice, "Busy", t0(), vec![], |_| {}).await;
    let keys = vec![src.clone()];
    let one = || g.update_lifecycles(MemoryKind::Source, &keys, &|m| Some(bump(m, false)));
    let results = tokio::join!(one(), one(), one(), one(), one(), one());
    for r in [
        results.0, results.1, results.2, results.3, results.4, results.5,
    ] {
        assert_eq!(r.unwrap().len(), 1);
    }
    let m = g.memory(MemoryKind::Source, &src).await.unwrap().unwrap();
    assert_eq!(
        m.lifecycle.access_count, 6,
        "each update saw the one before"
    );
}

pub async fn read_views_list_in_the_documented_order(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let user = u.alice.as_str();
    let mut sources = Vec::new();
    let mut sarah = String::new();
    for d in [2, 0, 1] {
        let (key, nodes) = extracted(
            g,
            user,
            &format!("Sarah on day {d}"),
            t0() + days(d),
            vec![person("Sarah Chen", 0.9), concept(&format!("Topic {d}"))],
            |w| {
                let mut r = link(0, 1, "discusses");
                r.strength = 0.1 * (d + 1) as f64;
                w.relationships = vec![r];
            },
        )
        .await;
        sarah = nodes[0].clone();
        sources.push((d, key));
    }
    sources.sort();
    let by_day: Vec<String> = sources.iter().map(|(_, k)| k.clone()).collect();

    let asked = vec![by_day[2].clone(), "unknown".into(), by_day[0].clone()];
    let metas = g.source_metas(&asked).await.unwrap();
    let got: Vec<&str> = metas.iter().map(|m| m.entity_key.as_str()).collect();
    assert_eq!(
        got,
        [by_day[2].as_str(), by_day[0].as_str()],
        "given order, unknown skipped"
    );
    assert_eq!(metas[0].summary, "Summary of Sarah on day 2");
    assert_eq!(metas[0].event_time, t0() + days(2));
    assert_eq!(metas[0].user_id, user);

    let newest_first: Vec<String> = by_day.iter().rev().cloned().collect();
    let mentioned = g.node_sources(&sarah, 10).await.unwrap();
    let got: Vec<String> = mentioned.iter().map(|m| m.entity_key.clone()).collect();
    assert_eq!(got, newest_first, "newest first");
    assert_eq!(g.node_sources(&sarah, 1).await.unwrap().len(), 1);

    let rels = g
        .relationships_of(user, std::slice::from_ref(&sarah), 10)
        .await
        .unwrap();
    let strengths: Vec<f64> = rels.iter().map(|r| r.strength).collect();
    assert_eq!(strengths.len(), 3, "{rels:?}");
    assert!(
        strengths.windows(2).all(|w| w[0] >= w[1]),
        "strongest first: {strengths:?}"
    );
    assert!(
        g.relationships_of(&u.bob, std::slice::from_ref(&sarah), 10)
            .await
            .unwrap()
            .is_empty()
    );

    let early = storyline(g, user, &sarah, &by_day[..1], "Early.", None, t0()).await;
    let late = storyline(g, user, &sarah, &by_day[1..], "Late.", None, t0()).await;
    let about: Vec<String> = g
        .storylines_about(&sarah)
        .await
        .unwrap()
        .into_iter()
        .map(|s| s.storyline_id)
        .collect();
    assert_eq!(about, [late, early], "newest first");
}
