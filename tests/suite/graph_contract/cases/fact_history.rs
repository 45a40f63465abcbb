//! A fact's history: corrections supersede and end the old fact and are explained back
//! through the chain; confirmation makes a fact certain and keeps it forever.

use cosmo_shared::domain::{Actor, FactFilter, MemoryState, NewFact, TtlPolicy};
use cosmo_shared::graph::GraphError;

use super::super::read_support::*;
use super::super::support::*;
use super::facts::live;

pub async fn corrections_supersede_and_end_the_old_fact(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let (src, nodes) = extracted(
        g,
        &u.alice,
        "Sarah's job",
        t0(),
        vec![person("Sarah Chen", 0.9)],
        |_| {},
    )
    .await;
    let first = stored(
        g,
        &NewFact {
            about: nodes.clone(),
            source_keys: vec![src.clone()],
            ..slot(&u.alice, "work", "employer", "Google", 0.8)
        },
    )
    .await;
    let at = t0() + days(3);
    let mut fix = fact(&u.alice, "Works at Anthropic", at);
    fix.value = Some("Anthropic".into());
    let second = g.correct_fact(&first.fact_id, &fix).await.unwrap();
    assert_eq!(second.fact_id, fix.fact_id);
    assert_eq!(second.supersedes.as_deref(), Some(first.fact_id.as_str()));
    assert_eq!(
        (second.category.as_deref(), second.key.as_deref()),
        (Some("work"), Some("employer")),
        "keeps its slot"
    );
    assert_eq!(second.about, nodes, "keeps what it is about");
    assert!(second.is_active);
    let old = g.fact(&first.fact_id).await.unwrap().unwrap();
    assert_eq!((old.is_active, old.valid_to), (false, Some(at)));
    assert_eq!(live(g, &u.alice).await, ["Works at Anthropic"]);

    let third = g
        .correct_fact(
            &second.fact_id,
            &fact(&u.alice, "Works at Anthropic in London", at + days(1)),
        )
        .await
        .unwrap();
    let err = g
        .correct_fact(&first.fact_id, &fact(&u.alice, "Again", at))
        .await
        .unwrap_err();
    assert!(
        matches!(err, GraphError::Conflict(_)),
        "already superseded: {err:?}"
    );
    let err = g
        .correct_fact("no-such-fact", &fact(&u.alice, "X", at))
        .await
        .unwrap_err();
    assert!(matches!(err, GraphError::NotFound(_)), "{err:?}");

    let explained = g.explain_fact(&third.fact_id).await.unwrap().unwrap();
    let chain: Vec<&str> = explained
        .superseded
        .iter()
        .map(|f| f.fact_id.as_str())
        .collect();
    assert_eq!(
        chain,
        [second.fact_id.as_str(), first.fact_id.as_str()],
        "newest first"
    );
    assert_eq!(explained.superseded_by, None);
    let middle = g.explain_fact(&second.fact_id).await.unwrap().unwrap();
    assert_eq!(
        middle.superseded_by.as_deref(),
        Some(third.fact_id.as_str())
    );
    let root = g.explain_fact(&first.fact_id).await.unwrap().unwrap();
    assert_eq!(root.sources.len(), 1, "{root:?}");
    assert_eq!(root.sources[0].entity_key, src);
    assert_eq!(root.sources[0].summary, "Summary of Sarah's job");
    assert_eq!(root.about, [(nodes[0].clone(), "Sarah Chen".to_owned())]);
    assert!(root.superseded.is_empty());
    assert_eq!(g.explain_fact("no-such-fact").await.unwrap(), None);
}

pub async fn confirmed_facts_are_certain_and_kept_forever(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let f = stored(
        g,
        &NewFact {
            confidence: 0.4,
            ..fact(&u.alice, "Runs marathons", t0())
        },
    )
    .await;
    let at = t0() + days(1);
    let confirmed = g.confirm_fact(&f.fact_id, at).await.unwrap();
    assert!(confirmed.confirmed);
    assert_eq!(confirmed.lifecycle.confidence, 1.0);
    assert_eq!(confirmed.lifecycle.ttl_policy, TtlPolicy::KeepForever);
    assert_eq!(confirmed.lifecycle.state, MemoryState::Active);
    let events = g.lifecycle_events(&f.fact_id).await.unwrap();
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(
        (
            events[0].previous_state,
            events[0].new_state,
            events[0].actor,
            events[0].at
        ),
        (MemoryState::Candidate, MemoryState::Active, Actor::User, at)
    );
    assert_eq!(
        g.confirm_fact(&f.fact_id, at).await.unwrap().lifecycle,
        confirmed.lifecycle,
        "again: no change"
    );
    let only = FactFilter {
        include_inactive: false,
        confirmed_only: true,
    };
    stored(g, &fact(&u.alice, "Unconfirmed", t0())).await;
    let list = g.facts_for_user(&u.alice, only, 10).await.unwrap();
    assert_eq!(
        list.iter().map(|f| f.fact_id.as_str()).collect::<Vec<_>>(),
        [f.fact_id.as_str()]
    );

    g.correct_fact(&f.fact_id, &fact(&u.alice, "Ran marathons", at))
        .await
        .unwrap();
    let err = g.confirm_fact(&f.fact_id, at).await.unwrap_err();
    assert!(
        matches!(err, GraphError::Conflict(_)),
        "superseded: {err:?}"
    );
    assert!(matches!(
        g.confirm_fact("nope", at).await.unwrap_err(),
        GraphError::NotFound(_)
    ));
}

pub async fn a_correction_cannot_take_a_slot_another_fact_holds(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let employer = stored(g, &slot(&u.alice, "work", "employer", "Google", 0.8)).await;
    let note = stored(g, &fact(&u.alice, "Alice mentioned a new job", t0())).await;
    // Corrected into the slot Google holds: refused, nothing changes.
    let into_slot = slot(&u.alice, "work", "employer", "Anthropic", 0.9);
    let err = g.correct_fact(&note.fact_id, &into_slot).await.unwrap_err();
    assert!(
        matches!(&err, GraphError::Conflict(m) if m.contains(&employer.fact_id)),
        "{err}"
    );
    assert!(g.fact(&note.fact_id).await.unwrap().unwrap().is_active);
    assert!(g.fact(&into_slot.fact_id).await.unwrap().is_none());
    let mut live_now = live(g, &u.alice).await;
    live_now.sort();
    assert_eq!(live_now, ["Alice mentioned a new job", &employer.text]);
    // Into a free slot it is a structured fact from then on.
    let free = slot(&u.alice, "work", "title", "Engineer", 0.9);
    let corrected = g.correct_fact(&note.fact_id, &free).await.unwrap();
    assert_eq!(
        (corrected.key.as_deref(), corrected.value.as_deref()),
        (Some("title"), Some("Engineer"))
    );
}
