//! Erasing a whole user, and erased text found nowhere the store can show it: no search
//! signal, no read.

use cosmo_shared::domain::{FactFilter, SearchScope, Target};
use cosmo_shared::graph::{GraphSnapshot, GraphStore};

use super::super::read_support::*;
use super::super::support::*;
use super::erasure::{MARKER, World, world};

/// Asserts that `word` is in nothing `user` has, through every read and search.
pub async fn assert_nowhere(g: &dyn GraphStore, user: &str, w: &World, word: &str) {
    let scope = with_archived(user);
    for target in [
        Target::Source,
        Target::Node,
        Target::Storyline,
        Target::Macro,
        Target::Fact,
    ] {
        let hits = g
            .text_search(&scope, target, &[word.to_owned()], 100)
            .await
            .unwrap();
        assert!(hits.is_empty(), "{target}s still match {word:?}: {hits:?}");
    }
    let notes = g
        .search_notes(&scope, &[word.to_owned()], t0(), 100)
        .await
        .unwrap();
    assert!(notes.is_empty(), "notes still match {word:?}: {notes:?}");
    let snapshot = GraphSnapshot::of_user(g, user).await.unwrap();
    let all = FactFilter {
        include_inactive: true,
        confirmed_only: false,
    };
    let facts = g.facts_for_user(user, all, 1000).await.unwrap();
    let mut texts = vec![
        serde_json::to_string(&snapshot).unwrap(),
        serde_json::to_string(&facts).unwrap(),
    ];
    for f in &facts {
        texts.push(serde_json::to_string(&g.explain_fact(&f.fact_id).await.unwrap()).unwrap());
    }
    for m in &w.macros {
        texts.push(serde_json::to_string(&g.macro_by_id(m).await.unwrap()).unwrap());
    }
    for key in [&w.sarah, &w.dana] {
        texts.push(serde_json::to_string(&g.node_sources(key, 100).await.unwrap()).unwrap());
    }
    for t in texts {
        assert!(!t.to_lowercase().contains(word), "{word:?} is still in {t}");
    }
}

pub async fn erased_text_is_found_nowhere(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let w = world(g, &u.alice).await;
    let alice = SearchScope::user(&u.alice);
    for (target, key) in [
        (Target::Source, &w.s[0]),
        (Target::Node, &w.sarah),
        (Target::Storyline, &w.storylines[1]),
    ] {
        let hits = g
            .text_search(&alice, target, &[MARKER.to_owned()], 10)
            .await
            .unwrap();
        assert!(
            keys(&hits).contains(key),
            "the premise: {target}s hold the marker"
        );
    }
    g.erase_source(&w.s[0], t0() + days(9))
        .await
        .unwrap()
        .unwrap();
    assert_nowhere(g, &u.alice, &w, MARKER).await;
}

pub async fn erasing_a_user_removes_everything_of_theirs(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    g.upsert_owner(&u.alice, "Alice Walker", t0())
        .await
        .unwrap();
    let w = world(g, &u.alice).await;
    // A team Source of alice's that bob extracted, and one of bob's alice extracted.
    let ours = team_source(&u.alice, &[&u.bob], "Team call about the quokka", t0());
    let ours_key = processed(g, &ours, "Quokka call", &[], angle(0.0)).await;
    g.write_extraction(&write(&ours, &u.alice, t0(), vec![concept("Quokka")]))
        .await
        .unwrap();
    let bob_nodes = vec![concept("Quokka"), concept("Garden")];
    let bob_quokka = g
        .write_extraction(&write(&ours, &u.bob, t0(), bob_nodes))
        .await
        .unwrap();
    extracted(
        g,
        &u.bob,
        "Bob's garden",
        t0(),
        vec![concept("Garden")],
        |_| {},
    )
    .await;
    let theirs = team_source(&u.bob, &[&u.alice], "Team note about otters", t0());
    let theirs_key = processed(g, &theirs, "Otters", &["otter"], angle(0.0)).await;
    g.write_extraction(&write(&theirs, &u.alice, t0(), vec![concept("Otter")]))
        .await
        .unwrap();
    g.write_extraction(&write(&theirs, &u.bob, t0(), vec![concept("Otter")]))
        .await
        .unwrap();
    extracted(
        g,
        &u.carol,
        "Carol's day",
        t0(),
        vec![concept("Day")],
        |_| {},
    )
    .await;
    let carol_before = GraphSnapshot::of_user(g, &u.carol).await.unwrap();

    let e = g.erase_user(&u.alice, t0() + days(9)).await.unwrap();
    let mut erased = e.source_keys.clone();
    erased.sort();
    let mut want = w.s.to_vec();
    want.push(ours_key.clone());
    want.sort();
    assert_eq!(erased, want, "her own Sources, the team one too: {e:?}");

    let nothing = GraphSnapshot::of_user(g, &u.alice).await.unwrap();
    assert!(
        nothing.sources.is_empty() && nothing.nodes.is_empty() && nothing.relationships.is_empty(),
        "{nothing:?}"
    );
    assert!(nothing.mentions.is_empty() && nothing.storylines.is_empty());
    assert_eq!(g.owner(&u.alice).await.unwrap(), None);
    let all = FactFilter {
        include_inactive: true,
        confirmed_only: false,
    };
    assert!(
        g.facts_for_user(&u.alice, all, 10)
            .await
            .unwrap()
            .is_empty()
    );
    for key in w.s.iter().chain([&w.sarah, &w.hiring]).chain(&w.facts) {
        assert!(g.lifecycle_events(key).await.unwrap().is_empty(), "{key}");
    }
    for m in &w.macros {
        assert!(g.macro_by_id(m).await.unwrap().is_none());
    }
    assert_nowhere(g, &u.alice, &w, MARKER).await;

    // Bob's team Source stays, without her.
    let kept = g
        .source(&theirs_key)
        .await
        .unwrap()
        .expect("bob's Source stays");
    assert!(!kept.is_participant(&u.alice), "{:?}", kept.participants);
    assert_eq!(g.extraction(&theirs_key, &u.alice).await.unwrap(), None);
    let scope = SearchScope::user(&u.alice);
    let v = g
        .vector_search(&scope, Target::Source, &angle(0.0), 10)
        .await
        .unwrap();
    let t = g
        .text_search(&scope, Target::Source, &["otter".into()], 10)
        .await
        .unwrap();
    assert!(
        v.is_empty() && t.is_empty(),
        "she no longer sees it: {v:?} {t:?}"
    );
    let t = g
        .text_search(
            &SearchScope::user(&u.bob),
            Target::Source,
            &["otter".into()],
            10,
        )
        .await
        .unwrap();
    assert_eq!(keys(&t), [theirs_key]);

    // Bob's graph drawn from her team Source is cleaned and recounted.
    assert!(g.source(&ours_key).await.unwrap().is_none());
    assert!(
        g.node(&bob_quokka.node_keys[0]).await.unwrap().is_none(),
        "only from her Source"
    );
    let garden = g
        .node(&bob_quokka.node_keys[1])
        .await
        .unwrap()
        .expect("also in his own");
    assert_eq!(garden.counters.source_count, 1);
    let bob = GraphSnapshot::of_user(g, &u.bob).await.unwrap();
    let names: Vec<&str> = bob.nodes.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names.len(), 2, "Garden and Otter: {names:?}");
    assert_eq!(
        GraphSnapshot::of_user(g, &u.carol).await.unwrap(),
        carol_before
    );
}
