//! Storylines and Macros: a new Source's extraction attaches it to its anchors'
//! Storylines.

use cosmo_shared::domain::{MemoryState, NewMacro, NewStoryline, NodeIdentity};
use cosmo_shared::graph::GraphStore;
use cosmo_shared::ids;

use super::super::support::*;

/// Five Sources about Sarah, extracted, and a Storyline made from them by hand.
async fn sarah_storyline(g: &dyn GraphStore, u: &Users) -> (String, String) {
    let mut keys = Vec::new();
    let mut anchor = String::new();
    for i in 0..5 {
        let s = source(&u.alice, &format!("Sarah update {i}"), t0() + days(i));
        g.create_source(&s).await.unwrap();
        let out = g
            .write_extraction(&write(
                &s,
                &u.alice,
                t0() + days(i),
                vec![person("Sarah Chen", 0.9)],
            ))
            .await
            .unwrap();
        anchor = out.node_keys[0].clone();
        keys.push(s.entity_key);
    }
    let storyline_id = ids::storyline_id(&anchor, &keys[0]);
    let st = g
        .create_storyline(&NewStoryline {
            storyline_id: storyline_id.clone(),
            user_id: u.alice.clone(),
            anchor_key: anchor.clone(),
            description: "Sarah's updates.".into(),
            embedding: Some(vec![1.0, 0.0]),
            source_keys: keys.clone(),
            at: t0() + days(5),
        })
        .await
        .unwrap();
    assert_eq!(
        (st.source_count, st.first_source_at, st.last_source_at),
        (5, Some(t0()), Some(t0() + days(4)))
    );
    assert_eq!(st.lifecycle.state, MemoryState::Active);
    assert!(!st.is_dirty);
    (storyline_id, anchor)
}

pub async fn storylines_take_new_sources_once(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let (storyline_id, anchor) = sarah_storyline(g, &u).await;
    assert!(g.node(&anchor).await.unwrap().unwrap().counters.has_meso);
    let sarah = NodeIdentity::person("Sarah Chen");
    let candidates = g
        .storyline_candidates(
            &u.alice,
            &[sarah.clone(), NodeIdentity::concept("other")],
            t0(),
        )
        .await
        .unwrap();
    assert_eq!(candidates.len(), 1);
    assert_eq!(
        (
            candidates[0].anchor.clone(),
            candidates[0].storyline.storyline_id.clone()
        ),
        (sarah.clone(), storyline_id.clone())
    );
    assert!(
        g.storyline_candidates(&u.alice, std::slice::from_ref(&sarah), t0() + days(10))
            .await
            .unwrap()
            .is_empty(),
        "too old to join"
    );
    assert!(
        g.storyline_candidates(&u.bob, &[sarah], t0())
            .await
            .unwrap()
            .is_empty(),
        "another user's anchor"
    );

    let late = source(&u.alice, "Sarah again.", t0() + days(20));
    g.create_source(&late).await.unwrap();
    let mut w = write(
        &late,
        &u.alice,
        t0() + days(20),
        vec![person("Sarah Chen", 0.9)],
    );
    w.storylines = vec![storyline_id.clone()];
    assert_eq!(g.write_extraction(&w).await.unwrap().storylines_joined, 1);
    assert_eq!(
        g.write_extraction(&w).await.unwrap().storylines_joined,
        0,
        "a source joins once"
    );
    let st = g.storyline(&storyline_id).await.unwrap().unwrap();
    assert_eq!(
        (st.source_count, st.last_source_at, st.is_dirty),
        (6, Some(t0() + days(20)), true)
    );
    assert!(
        g.storyline_sources(&storyline_id)
            .await
            .unwrap()
            .contains(&late.entity_key)
    );
}

pub async fn macros_follow_their_storylines(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let (storyline_id, anchor) = sarah_storyline(g, &u).await;
    let macro_id = ids::macro_id(&anchor);
    let m = g
        .create_macro(&NewMacro {
            macro_id: macro_id.clone(),
            user_id: u.alice.clone(),
            anchor_key: anchor.clone(),
            description: "Working with Sarah.".into(),
            embedding: None,
            storyline_ids: vec![storyline_id.clone()],
            at: t0() + days(6),
        })
        .await
        .unwrap();
    assert_eq!(
        (m.storyline_count, m.total_source_count, m.last_event_at),
        (1, 5, Some(t0() + days(4)))
    );
    assert!(g.node(&anchor).await.unwrap().unwrap().counters.has_macro);

    let late = source(&u.alice, "Sarah once more.", t0() + days(7));
    g.create_source(&late).await.unwrap();
    let mut w = write(
        &late,
        &u.alice,
        t0() + days(7),
        vec![person("Sarah Chen", 0.9)],
    );
    w.storylines = vec![storyline_id];
    g.write_extraction(&w).await.unwrap();
    g.write_extraction(&w).await.unwrap();
    let m = g.macro_by_id(&macro_id).await.unwrap().unwrap();
    assert_eq!(
        (m.total_source_count, m.last_event_at, m.is_dirty),
        (6, Some(t0() + days(7)), true)
    );
}
