//! Facts: stored once; one live value per structured slot, where a less confident value
//! never overwrites a more confident one; weak facts are the ones about to fade;
//! superseded facts are never searched (corrections: `fact_history`).

use cosmo_shared::domain::{
    FactFilter, FactWrite, MemoryKind, MemoryState, NewFact, SearchScope, Target, Weakness,
};
use cosmo_shared::graph::GraphStore;

use super::super::read_support::*;
use super::super::support::*;

pub(super) async fn live(g: &dyn GraphStore, user: &str) -> Vec<String> {
    let facts = g
        .facts_for_user(user, FactFilter::default(), 100)
        .await
        .unwrap();
    facts.into_iter().map(|f| f.text).collect()
}

pub async fn free_text_facts_are_stored_once(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let first = fact(&u.alice, "Allergic to peanuts", t0());
    let stored_first = stored(g, &first).await;
    assert_eq!(stored_first.fact_id, first.fact_id);
    assert!(stored_first.is_active && !stored_first.confirmed);
    assert_eq!(
        (stored_first.valid_from, stored_first.valid_to),
        (t0(), None)
    );
    assert_eq!(stored_first.lifecycle.confidence, 0.9);
    assert_eq!(stored_first.lifecycle.state, MemoryState::Candidate);
    let again = fact(&u.alice, "Allergic to peanuts", t0() + days(1));
    match g.store_fact(&again).await.unwrap() {
        FactWrite::Unchanged { existing } => assert_eq!(existing, stored_first),
        other => panic!("the same fact again is unchanged: {other:?}"),
    }
    assert!(
        g.fact(&again.fact_id).await.unwrap().is_none(),
        "not stored twice"
    );
    stored(g, &fact(&u.alice, "Lives in Lisbon", t0() + days(2))).await;
    stored(g, &fact(&u.bob, "Allergic to peanuts", t0())).await;
    assert_eq!(
        live(g, &u.alice).await,
        ["Lives in Lisbon", "Allergic to peanuts"],
        "a user's facts, newest first"
    );
    assert_eq!(live(g, &u.bob).await, ["Allergic to peanuts"]);
    assert_eq!(g.fact("no-such-fact").await.unwrap(), None);
}

pub async fn structured_facts_keep_one_live_value(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let black = slot(&u.alice, "diet", "coffee", "black", 0.9);
    let black_fact = stored(g, &black).await;
    let oat = NewFact {
        at: t0() + days(1),
        ..slot(&u.alice, "diet", "coffee", "oat latte", 0.5)
    };
    match g.store_fact(&oat).await.unwrap() {
        FactWrite::KeptExisting { existing } => assert_eq!(existing.fact_id, black.fact_id),
        other => panic!("a less confident value is not stored: {other:?}"),
    }
    assert!(g.fact(&oat.fact_id).await.unwrap().is_none());
    assert_eq!(live(g, &u.alice).await, ["diet coffee: black"]);

    // As confident: it replaces the live value.
    let flat = NewFact {
        at: t0() + days(2),
        ..slot(&u.alice, "diet", "coffee", "flat white", 0.9)
    };
    match g.store_fact(&flat).await.unwrap() {
        FactWrite::Stored { fact, superseded } => {
            assert_eq!(superseded.as_deref(), Some(black.fact_id.as_str()));
            assert_eq!(fact.supersedes.as_deref(), Some(black.fact_id.as_str()));
            assert_eq!(fact.value.as_deref(), Some("flat white"));
        }
        other => panic!("an as confident value replaces the old: {other:?}"),
    }
    let old = g.fact(&black.fact_id).await.unwrap().unwrap();
    assert!(!old.is_active);
    assert_eq!(old.valid_to, Some(t0() + days(2)));
    assert_eq!(old.text, black_fact.text, "soft-deleted, kept for history");
    assert_eq!(live(g, &u.alice).await, ["diet coffee: flat white"]);
    let all = g
        .facts_for_user(
            &u.alice,
            FactFilter {
                include_inactive: true,
                confirmed_only: false,
            },
            10,
        )
        .await
        .unwrap();
    assert_eq!(all.len(), 2, "with the superseded one");
    match g
        .store_fact(&slot(&u.alice, "diet", "coffee", "flat white", 0.9))
        .await
        .unwrap()
    {
        FactWrite::Unchanged { existing } => assert_eq!(existing.fact_id, flat.fact_id),
        other => panic!("the live value again is unchanged: {other:?}"),
    }
    // Other slots and other users are separate.
    stored(g, &slot(&u.alice, "diet", "tea", "green", 0.2)).await;
    stored(g, &slot(&u.bob, "diet", "coffee", "espresso", 0.1)).await;
    assert_eq!(live(g, &u.bob).await, ["diet coffee: espresso"]);
    assert_eq!(live(g, &u.alice).await.len(), 2);
}

pub async fn weak_facts_are_live_unconfirmed_and_weakest_first(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let user = u.alice.as_str();
    let unsure = stored(
        g,
        &NewFact {
            confidence: 0.3,
            ..fact(user, "Maybe likes jazz", t0())
        },
    )
    .await;
    let faded = stored(g, &fact(user, "Once visited Oslo", t0())).await;
    set_lifecycle(g, MemoryKind::Fact, &faded.fact_id, user, |l| {
        l.salience = 0.05
    })
    .await;
    let fading = stored(g, &fact(user, "Owns a bike", t0())).await;
    set_lifecycle(g, MemoryKind::Fact, &fading.fact_id, user, |l| {
        l.salience = 0.15
    })
    .await;
    stored(g, &fact(user, "Strong and sure", t0())).await;
    let sure = stored(
        g,
        &NewFact {
            confidence: 0.2,
            ..fact(user, "Confirmed later", t0())
        },
    )
    .await;
    g.confirm_fact(&sure.fact_id, t0()).await.unwrap();
    let gone = stored(
        g,
        &NewFact {
            confidence: 0.1,
            ..fact(user, "Replaced", t0())
        },
    )
    .await;
    g.correct_fact(&gone.fact_id, &fact(user, "Replacement", t0()))
        .await
        .unwrap();
    let archived = stored(
        g,
        &NewFact {
            confidence: 0.1,
            ..fact(user, "Archived", t0())
        },
    )
    .await;
    archive(g, MemoryKind::Fact, &archived.fact_id, user).await;
    stored(
        g,
        &NewFact {
            confidence: 0.1,
            ..fact(&u.bob, "Bob's weak fact", t0())
        },
    )
    .await;

    let weak = g.weak_facts(user, Weakness::default(), 10).await.unwrap();
    let ids: Vec<&str> = weak.iter().map(|f| f.fact_id.as_str()).collect();
    assert_eq!(
        ids,
        [
            faded.fact_id.as_str(),
            fading.fact_id.as_str(),
            unsure.fact_id.as_str()
        ],
        "low salience or confidence, weakest first; not confirmed, superseded, archived or bob's"
    );
    let strict = Weakness {
        salience_below: 0.1,
        confidence_below: 0.0,
    };
    let weak = g.weak_facts(user, strict, 10).await.unwrap();
    assert_eq!(weak.len(), 1);
    assert_eq!(weak[0].fact_id, faded.fact_id);
    assert_eq!(
        g.weak_facts(user, Weakness::default(), 1)
            .await
            .unwrap()
            .len(),
        1
    );
}

pub async fn superseded_facts_are_never_searched(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let old = stored(
        g,
        &NewFact {
            embedding: Some(angle(0.0)),
            ..fact(&u.alice, "Drives a Volvo", t0())
        },
    )
    .await;
    let new = g
        .correct_fact(
            &old.fact_id,
            &NewFact {
                embedding: Some(angle(0.0)),
                ..fact(&u.alice, "Drives a Saab", t0())
            },
        )
        .await
        .unwrap();
    for scope in [SearchScope::user(&u.alice), with_archived(&u.alice)] {
        let v = g
            .vector_search(&scope, Target::Fact, &angle(0.0), 10)
            .await
            .unwrap();
        assert_eq!(keys(&v), [new.fact_id.as_str()]);
        let t = g
            .text_search(&scope, Target::Fact, &["drives".into()], 10)
            .await
            .unwrap();
        assert_eq!(keys(&t), [new.fact_id.as_str()]);
        let t = g
            .text_search(&scope, Target::Fact, &["volvo".into()], 10)
            .await
            .unwrap();
        assert!(t.is_empty(), "{t:?}");
    }
}
