//! More erasure: a fact with its history, every insight a Source went into, and
//! Storylines and Macros left empty.

use cosmo_shared::domain::{FactFilter, NoteLifetime};
use cosmo_shared::graph::EpisodicConsolidation;

use super::super::read_support::*;
use super::super::support::*;

pub async fn erasing_a_fact_removes_its_history(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let first = stored(g, &fact(&u.alice, "Lives in Porto", t0())).await;
    g.confirm_fact(&first.fact_id, t0()).await.unwrap();
    let second = g
        .correct_fact(
            &first.fact_id,
            &fact(&u.alice, "Lives in Lisbon", t0() + days(1)),
        )
        .await
        .unwrap();
    let third = g
        .correct_fact(
            &second.fact_id,
            &fact(&u.alice, "Lives in Faro", t0() + days(2)),
        )
        .await
        .unwrap();
    let other = stored(g, &fact(&u.alice, "Likes the sea", t0())).await;

    let e = g
        .erase_fact(&second.fact_id)
        .await
        .unwrap()
        .expect("it existed");
    assert_eq!(
        (e.facts, e.events),
        (2, 1),
        "the fact, the one it replaced, its event: {e:?}"
    );
    assert!(g.fact(&second.fact_id).await.unwrap().is_none());
    assert!(g.fact(&first.fact_id).await.unwrap().is_none());
    assert!(g.lifecycle_events(&first.fact_id).await.unwrap().is_empty());
    let kept = g
        .fact(&third.fact_id)
        .await
        .unwrap()
        .expect("what replaced it stays");
    assert_eq!(kept.supersedes, None);
    assert!(
        g.explain_fact(&third.fact_id)
            .await
            .unwrap()
            .unwrap()
            .superseded
            .is_empty()
    );
    let all = FactFilter {
        include_inactive: true,
        confirmed_only: false,
    };
    let mut left: Vec<String> = g
        .facts_for_user(&u.alice, all, 10)
        .await
        .unwrap()
        .into_iter()
        .map(|f| f.fact_id)
        .collect();
    left.sort();
    let mut want = vec![third.fact_id, other.fact_id];
    want.sort();
    assert_eq!(left, want);
    assert_eq!(g.erase_fact(&second.fact_id).await.unwrap(), None);
}

pub async fn erasing_a_source_removes_every_insight_drawn_from_it(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let user = u.alice.as_str();
    let sarah = || vec![person("Sarah Chen", 0.9)];
    let (s1, nodes) = extracted(g, user, "Sarah and the zorblax plan", t0(), sarah(), |_| {}).await;
    let (s2, _) = extracted(g, user, "Sarah again", t0() + days(1), sarah(), |_| {}).await;
    let insight = |text: &str, sources: Vec<String>, d: i64| EpisodicConsolidation {
        entity_key: nodes[0].clone(),
        user_id: user.to_owned(),
        insight: text.to_owned(),
        lifetime: NoteLifetime::Year,
        source_keys: sources,
        at: t0() + days(d),
    };
    g.consolidate_sources(&insight(
        "Sarah plans zorblax",
        vec![s1.clone(), s2.clone()],
        10,
    ))
    .await
    .unwrap();
    // S1 was recalled (active again), faded, and went into a second insight.
    g.consolidate_sources(&insight("Sarah still plans zorblax", vec![s1.clone()], 40))
        .await
        .unwrap();
    let texts = |n: cosmo_shared::domain::SemanticNode| -> Vec<String> {
        n.notes.into_iter().map(|n| n.text).collect()
    };
    let before = texts(g.node(&nodes[0]).await.unwrap().unwrap());
    assert_eq!(before.len(), 2, "the premise: two insights: {before:?}");

    g.erase_source(&s1, t0() + days(50)).await.unwrap().unwrap();
    let after = texts(
        g.node(&nodes[0])
            .await
            .unwrap()
            .expect("S2 still names Sarah"),
    );
    assert!(after.is_empty(), "both insights drew on S1: {after:?}");
}

pub async fn erasing_the_last_sources_drops_empty_storylines_and_macros(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let user = u.alice.as_str();
    let sarah = || vec![person("Sarah Chen", 0.9)];
    let (s1, nodes) = extracted(g, user, "Sarah one", t0(), sarah(), |_| {}).await;
    let (s2, _) = extracted(g, user, "Sarah two", t0() + days(1), sarah(), |_| {}).await;
    let (s3, _) = extracted(g, user, "Sarah three", t0() + days(2), sarah(), |_| {}).await;
    let anchor = &nodes[0];
    let early = storyline(
        g,
        user,
        anchor,
        &[s1.clone(), s2.clone()],
        "Early.",
        None,
        t0(),
    )
    .await;
    let late = storyline(
        g,
        user,
        anchor,
        std::slice::from_ref(&s3),
        "Late.",
        None,
        t0(),
    )
    .await;
    let mc = macro_(
        g,
        user,
        anchor,
        &[early.clone(), late.clone()],
        "All.",
        None,
        t0(),
    )
    .await;

    let e = g.erase_source(&s3, t0() + days(5)).await.unwrap().unwrap();
    assert_eq!(
        (e.storylines, e.macros),
        (1, 0),
        "the late Storyline is empty: {e:?}"
    );
    assert!(g.storyline(&late).await.unwrap().is_none());
    let m = g
        .macro_by_id(&mc)
        .await
        .unwrap()
        .expect("still groups the early one");
    assert_eq!((m.storyline_count, m.total_source_count), (1, 2));
    assert_eq!(m.last_event_at, Some(t0() + days(1)));
    assert!(g.node(anchor).await.unwrap().unwrap().counters.has_macro);

    for key in [&s1, &s2] {
        g.erase_source(key, t0() + days(6)).await.unwrap().unwrap();
    }
    assert!(g.storyline(&early).await.unwrap().is_none());
    assert!(
        g.macro_by_id(&mc).await.unwrap().is_none(),
        "a Macro left empty goes too"
    );
    assert!(
        g.node(anchor).await.unwrap().is_none(),
        "no Source names Sarah any more"
    );
}
