//! Maintenance: Storyline and Macro promotion candidates, dirty Storylines and Macros,
//! and their refresh.

use chrono::Duration;
use cosmo_shared::domain::{MemoryKind, MemoryState, NewMacro, NewStoryline, Storyline};
use cosmo_shared::graph::GraphStore;
use cosmo_shared::graph::{MacroCandidateAnchor, StorylineCandidateAnchor, StorylineRules};
use cosmo_shared::ids;

use super::super::support::*;

/// A Storyline about `anchor` including `sources` (the first one names it).
async fn storyline(
    g: &dyn GraphStore,
    user: &str,
    anchor: &str,
    sources: &[String],
    at_day: i64,
) -> Storyline {
    g.create_storyline(&NewStoryline {
        storyline_id: ids::storyline_id(anchor, &sources[0]),
        user_id: user.to_owned(),
        anchor_key: anchor.to_owned(),
        description: format!("Storyline from {}.", sources[0]),
        embedding: Some(vec![1.0, 0.0]),
        source_keys: sources.to_vec(),
        at: t0() + days(at_day),
    })
    .await
    .unwrap()
}

fn keys_of(c: &[StorylineCandidateAnchor]) -> Vec<&str> {
    c.iter().map(|a| a.anchor_key.as_str()).collect()
}

/// The Sources in the order of their event times.
async fn oldest_first(g: &dyn GraphStore, keys: &[String]) -> Vec<String> {
    let mut briefs = briefs_of(g, keys).await;
    briefs.sort_by(|a, b| (a.event_time, &a.entity_key).cmp(&(b.event_time, &b.entity_key)));
    briefs.into_iter().map(|b| b.entity_key).collect()
}

pub async fn storyline_promotion_candidates_follow_the_rules(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    // Created out of event order, so "oldest first" is not insertion order.
    let (sarah, sarah_sources) = mentioned(
        g,
        &u.alice,
        "Sarah",
        person("Sarah Chen", 0.9),
        &on_days(&[3, 1, 4, 0, 2]),
    )
    .await;
    let (budget, _) = mentioned(
        g,
        &u.alice,
        "Budget",
        concept("Budget"),
        &on_days(&[0, 1, 2, 3]),
    )
    .await;
    let one_day: Vec<_> = (0..6).map(|h| t0() + Duration::hours(h)).collect();
    let (offsite, _) = mentioned(g, &u.alice, "Offsite", concept("Offsite"), &one_day).await;
    let (launch, launch_sources) = mentioned(
        g,
        &u.alice,
        "Launch",
        concept("Launch"),
        &on_days(&[40, 41, 42, 43, 44]),
    )
    .await;
    let (hiring, _) = mentioned(
        g,
        &u.alice,
        "Hiring",
        concept("Hiring"),
        &on_days(&[0, 1, 2, 3, 4]),
    )
    .await;
    let (acme, acme_sources) = mentioned(
        g,
        &u.alice,
        "Acme",
        organization("Acme Corp"),
        &on_days(&[0, 1, 2, 3, 4, 5]),
    )
    .await;
    let (garden, garden_sources) = mentioned(
        g,
        &u.bob,
        "Garden",
        concept("Garden"),
        &on_days(&[0, 1, 2, 3, 4, 5, 6]),
    )
    .await;
    for key in [&sarah, &budget, &offsite, &launch, &hiring, &acme, &garden] {
        assert_eq!(
            g.node(key).await.unwrap().unwrap().lifecycle.state,
            MemoryState::Active,
            "re-mentioned anchors are active"
        );
    }
    set_lifecycle(g, MemoryKind::Node, &hiring, &u.alice, |l| {
        l.state = MemoryState::Candidate
    })
    .await;
    set_lifecycle(g, MemoryKind::Node, &acme, &u.alice, |l| {
        l.state = MemoryState::Core
    })
    .await;

    let rules = StorylineRules {
        min_sources: 5,
        min_days: 3,
        first_before: t0() + days(30),
    };
    let found = g.storyline_promotion_candidates(&rules, 100).await.unwrap();
    assert_eq!(
        keys_of(&found),
        vec![garden.as_str(), acme.as_str(), sarah.as_str()],
        "active/core anchors with 5 Sources on 3 days first seen before the cut-off, most \
         mentioned first; not too few Sources (budget), one day (offsite), too recent \
         (launch) or a candidate (hiring)"
    );
    let sarah_briefs = briefs_of(g, &oldest_first(g, &sarah_sources).await).await;
    assert_eq!(
        found[2],
        StorylineCandidateAnchor {
            anchor_key: sarah.clone(),
            user_id: u.alice.clone(),
            anchor_name: "Sarah Chen".into(),
            sources: sarah_briefs.clone(),
        },
        "the anchor with exactly its Sources, oldest first"
    );
    assert_eq!(
        sarah_briefs
            .iter()
            .map(|b| b.event_time)
            .collect::<Vec<_>>(),
        on_days(&[0, 1, 2, 3, 4])
    );
    assert_eq!(found[0].user_id, u.bob);
    assert_eq!(found[0].sources.len(), 7);
    assert_eq!(
        found[1].sources,
        briefs_of(g, &oldest_first(g, &acme_sources).await).await
    );

    for (limit, want) in [(2, vec![&garden, &acme]), (1, vec![&garden])] {
        let some = g
            .storyline_promotion_candidates(&rules, limit)
            .await
            .unwrap();
        assert_eq!(
            keys_of(&some),
            want.iter().map(|k| k.as_str()).collect::<Vec<_>>(),
            "limit {limit}"
        );
    }
    let with = |min_sources, min_days, first_before| StorylineRules {
        min_sources,
        min_days,
        first_before,
    };
    for (r, want, why) in [
        (
            with(5, 3, t0()),
            vec![],
            "the earliest Source must be strictly before the cut-off",
        ),
        (
            with(5, 5, t0() + days(30)),
            vec![&garden, &acme, &sarah],
            "5 distinct days are enough for 5 days",
        ),
        (
            with(5, 6, t0() + days(30)),
            vec![&garden, &acme],
            "6 distinct days needed",
        ),
        (
            with(6, 3, t0() + days(30)),
            vec![&garden, &acme],
            "6 Sources needed",
        ),
        (
            with(7, 3, t0() + days(30)),
            vec![&garden],
            "7 Sources needed",
        ),
    ] {
        let got = g.storyline_promotion_candidates(&r, 100).await.unwrap();
        assert_eq!(
            keys_of(&got),
            want.iter().map(|k| k.as_str()).collect::<Vec<_>>(),
            "{why}"
        );
    }

    // Promoted: the Storyline covers the Sources, so the anchor is no longer a candidate.
    let sarah_first: Vec<String> = found[2]
        .sources
        .iter()
        .map(|b| b.entity_key.clone())
        .collect();
    let st = storyline(g, &u.alice, &sarah, &sarah_first, 5).await;
    assert_eq!(st.source_count, 5);
    // A Storyline covering half of acme's Sources leaves too few uncovered.
    storyline(g, &u.alice, &acme, &acme_sources[..3], 5).await;
    let found = g.storyline_promotion_candidates(&rules, 100).await.unwrap();
    assert_eq!(
        keys_of(&found),
        vec![garden.as_str()],
        "covered Sources do not count"
    );
    assert_eq!(found[0].sources.len(), garden_sources.len());

    // Much later the anchor comes up again: 5 new Sources not in its Storyline, and one
    // that joined it.
    let later = on_days(&[204, 200, 203, 201, 202]);
    let mut new_sources = Vec::new();
    for (i, t) in later.iter().enumerate() {
        let (key, _) = extracted(
            g,
            &u.alice,
            &format!("Sarah later #{i}"),
            *t,
            vec![person("Sarah Chen", 0.9)],
            |_| {},
        )
        .await;
        new_sources.push(key);
    }
    extracted(
        g,
        &u.alice,
        "Sarah later, in her storyline",
        t0() + days(199),
        vec![person("Sarah Chen", 0.9)],
        |w| w.storylines = vec![st.storyline_id.clone()],
    )
    .await;
    assert_eq!(
        keys_of(&g.storyline_promotion_candidates(&rules, 100).await.unwrap()),
        vec![garden.as_str()],
        "the new Sources are after the cut-off"
    );
    let late_rules = with(5, 3, t0() + days(300));
    let found = g
        .storyline_promotion_candidates(&late_rules, 100)
        .await
        .unwrap();
    assert_eq!(
        keys_of(&found),
        vec![sarah.as_str(), garden.as_str(), launch.as_str()],
        "ordered by how often the anchor was mentioned (sarah 11, garden 7, launch 5)"
    );
    assert_eq!(
        found[0].sources,
        briefs_of(g, &oldest_first(g, &new_sources).await).await,
        "only the Sources no Storyline of the anchor includes, oldest first"
    );
    assert_eq!(
        found[2].sources,
        briefs_of(g, &launch_sources).await,
        "launch's Sources, oldest first"
    );
}

pub async fn dirty_storylines_are_refreshed(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let (sarah, sarah_sources) = mentioned(
        g,
        &u.alice,
        "Sarah",
        person("Sarah Chen", 0.9),
        &on_days(&[2, 0, 4, 1, 3]),
    )
    .await;
    let (budget, budget_sources) = mentioned(
        g,
        &u.alice,
        "Budget",
        concept("Budget"),
        &on_days(&[0, 1, 2]),
    )
    .await;
    let st1 = storyline(g, &u.alice, &sarah, &sarah_sources, 5).await;
    let st2 = storyline(g, &u.alice, &budget, &budget_sources, 5).await;
    let (id1, id2) = (st1.storyline_id.clone(), st2.storyline_id.clone());
    assert!(!st1.is_dirty && !st2.is_dirty, "new Storylines are clean");
    let long_ago = t0() - days(1000);
    assert!(
        g.dirty_storylines(long_ago, 10).await.unwrap().is_empty(),
        "nothing dirty yet"
    );

    let (joined1, _) = extracted(
        g,
        &u.alice,
        "Sarah joins",
        t0() + days(20),
        vec![person("Sarah Chen", 0.9)],
        |w| w.storylines = vec![id1.clone()],
    )
    .await;
    extracted(
        g,
        &u.alice,
        "Budget joins",
        t0() + days(21),
        vec![concept("Budget")],
        |w| w.storylines = vec![id2.clone()],
    )
    .await;
    let ids_of = |v: Vec<Storyline>| -> Vec<String> {
        v.into_iter().map(|s| s.storyline_id).collect::<Vec<_>>()
    };
    let dirty = g.dirty_storylines(t0() + days(10), 10).await.unwrap();
    assert_eq!(
        ids_of(dirty.clone()),
        vec![id1.clone(), id2.clone()],
        "joining a Source makes a Storyline dirty; biggest first (6, then 4 Sources)"
    );
    assert_eq!(dirty[0], g.storyline(&id1).await.unwrap().unwrap());
    assert_eq!(
        (dirty[0].source_count, dirty[0].last_source_at),
        (6, Some(t0() + days(20)))
    );
    assert_eq!(
        ids_of(g.dirty_storylines(t0() + days(10), 1).await.unwrap()),
        vec![id1.clone()],
        "limit"
    );
    assert_eq!(
        ids_of(
            g.dirty_storylines(t0() + days(20) + Duration::hours(12), 10)
                .await
                .unwrap()
        ),
        vec![id2.clone()],
        "only Storylines whose last Source is after `active_since`"
    );
    assert!(
        g.dirty_storylines(t0() + days(22), 10)
            .await
            .unwrap()
            .is_empty()
    );
    set_lifecycle(g, MemoryKind::Storyline, &id2, &u.alice, |l| {
        l.state = MemoryState::Archived
    })
    .await;
    assert_eq!(
        ids_of(g.dirty_storylines(t0() + days(10), 10).await.unwrap()),
        vec![id1.clone()],
        "archived Storylines are not refreshed"
    );
    set_lifecycle(g, MemoryKind::Storyline, &id2, &u.alice, |l| {
        l.state = MemoryState::Core
    })
    .await;
    assert_eq!(
        ids_of(g.dirty_storylines(t0() + days(10), 10).await.unwrap()),
        vec![id1.clone(), id2.clone()],
        "core Storylines are"
    );

    let mut all = sarah_sources.clone();
    all.push(joined1.clone());
    let all = oldest_first(g, &all).await;
    assert_eq!(
        g.storyline_briefs(&id1, 3).await.unwrap(),
        briefs_of(g, &all[3..]).await,
        "the latest 3 Sources, oldest first"
    );
    assert_eq!(
        g.storyline_briefs(&id1, 100).await.unwrap(),
        briefs_of(g, &all).await,
        "all of them, oldest first"
    );
    assert_eq!(
        g.storyline_briefs(&id1, 3).await.unwrap()[2].summary,
        "Summary of Sarah joins"
    );

    g.refresh_storyline(&id1, "Sarah's spring.", None, t0() + days(25))
        .await
        .unwrap();
    let st = g.storyline(&id1).await.unwrap().unwrap();
    assert_eq!(
        (
            st.description.as_str(),
            st.embedding.clone(),
            st.is_dirty,
            st.lifecycle.updated_at
        ),
        (
            "Sarah's spring.",
            Some(vec![1.0, 0.0]),
            false,
            t0() + days(25)
        ),
        "new description, the embedding kept when none is given, clean"
    );
    assert_eq!(
        (st.source_count, st.first_source_at, st.last_source_at),
        (6, Some(t0()), Some(t0() + days(20)))
    );
    assert_eq!(
        ids_of(g.dirty_storylines(t0() + days(10), 10).await.unwrap()),
        vec![id2.clone()]
    );
    g.refresh_storyline(
        &id1,
        "Sarah's spring, again.",
        Some(&[0.0, 1.0]),
        t0() + days(26),
    )
    .await
    .unwrap();
    let st = g.storyline(&id1).await.unwrap().unwrap();
    assert_eq!(
        (st.description.as_str(), st.embedding.clone(), st.is_dirty),
        ("Sarah's spring, again.", Some(vec![0.0, 1.0]), false),
        "a given embedding replaces the old one"
    );

    extracted(
        g,
        &u.alice,
        "Sarah joins again",
        t0() + days(27),
        vec![person("Sarah Chen", 0.9)],
        |w| w.storylines = vec![id1.clone()],
    )
    .await;
    assert_eq!(
        ids_of(g.dirty_storylines(t0() + days(10), 10).await.unwrap()),
        vec![id1.clone(), id2.clone()],
        "a refreshed Storyline gets dirty again when a Source joins"
    );
}

pub async fn macros_are_promoted_and_refreshed(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let (sarah, s_a) = mentioned(
        g,
        &u.alice,
        "Sarah early",
        person("Sarah Chen", 0.9),
        &on_days(&[0, 1, 2]),
    )
    .await;
    let (_, s_b) = mentioned(
        g,
        &u.alice,
        "Sarah middle",
        person("Sarah Chen", 0.9),
        &on_days(&[50, 51, 52]),
    )
    .await;
    // Created in reverse order: candidates list them oldest first anyway.
    let st_b = storyline(g, &u.alice, &sarah, &s_b, 53).await;
    let st_a = storyline(g, &u.alice, &sarah, &s_a, 53).await;

    let (budget, b) = mentioned(g, &u.alice, "Budget", concept("Budget"), &on_days(&[0, 1])).await;
    storyline(g, &u.alice, &budget, &b, 53).await;
    let (hiring, h) = mentioned(g, &u.alice, "Hiring", concept("Hiring"), &on_days(&[0, 9])).await;
    storyline(g, &u.alice, &hiring, &h[..1], 53).await;
    let archived = storyline(g, &u.alice, &hiring, &h[1..], 53).await;
    set_lifecycle(
        g,
        MemoryKind::Storyline,
        &archived.storyline_id,
        &u.alice,
        |l| l.state = MemoryState::Archived,
    )
    .await;
    let (launch, l) = mentioned(
        g,
        &u.alice,
        "Launch",
        concept("Launch"),
        &on_days(&[80, 81]),
    )
    .await;
    storyline(g, &u.alice, &launch, &l[..1], 82).await;
    storyline(g, &u.alice, &launch, &l[1..], 82).await;
    let (garden, gs) = mentioned(
        g,
        &u.bob,
        "Garden",
        concept("Garden"),
        &on_days(&[0, 10, 20]),
    )
    .await;
    let mut garden_storylines = Vec::new();
    for k in gs.iter().rev() {
        garden_storylines.push(storyline(g, &u.bob, &garden, std::slice::from_ref(k), 21).await);
    }
    garden_storylines.reverse();

    let first_before = t0() + days(60);
    let found = g
        .macro_promotion_candidates(first_before, 10)
        .await
        .unwrap();
    let keys: Vec<&str> = found.iter().map(|c| c.anchor_key.as_str()).collect();
    assert_eq!(
        keys,
        vec![garden.as_str(), sarah.as_str()],
        "anchors with ≥ 2 active/core Storylines first mentioned before the cut-off, most \
         Storylines first; not budget (one), hiring (one archived) or launch (too recent)"
    );
    assert_eq!(
        found[1],
        MacroCandidateAnchor {
            anchor_key: sarah.clone(),
            user_id: u.alice.clone(),
            anchor_name: "Sarah Chen".into(),
            storylines: vec![st_a.clone(), st_b.clone()],
        },
        "the anchor with its Storylines, oldest first"
    );
    assert_eq!(found[0].user_id, u.bob);
    assert_eq!(found[0].storylines, garden_storylines);
    let limited = g.macro_promotion_candidates(first_before, 1).await.unwrap();
    assert_eq!(limited.len(), 1);
    assert_eq!(limited[0].anchor_key, garden, "limit");
    assert!(
        g.macro_promotion_candidates(t0(), 10)
            .await
            .unwrap()
            .is_empty(),
        "first mentioned strictly before the cut-off"
    );
    let found = g
        .macro_promotion_candidates(t0() + days(100), 10)
        .await
        .unwrap();
    assert!(
        found.iter().any(|c| c.anchor_key == launch),
        "launch once the cut-off is later"
    );

    let macro_id = ids::macro_id(&sarah);
    let m = g
        .create_macro(&NewMacro {
            macro_id: macro_id.clone(),
            user_id: u.alice.clone(),
            anchor_key: sarah.clone(),
            description: "Working with Sarah.".into(),
            embedding: Some(vec![0.5, 0.5]),
            storyline_ids: vec![st_a.storyline_id.clone(), st_b.storyline_id.clone()],
            at: t0() + days(60),
        })
        .await
        .unwrap();
    assert_eq!(
        (
            m.storyline_count,
            m.total_source_count,
            m.first_event_at,
            m.last_event_at,
            m.is_dirty
        ),
        (2, 6, Some(t0()), Some(t0() + days(52)), false)
    );
    assert_eq!(m.lifecycle.state, MemoryState::Active);
    assert!(g.node(&sarah).await.unwrap().unwrap().counters.has_macro);
    let keys: Vec<String> = g
        .macro_promotion_candidates(first_before, 10)
        .await
        .unwrap()
        .into_iter()
        .map(|c| c.anchor_key)
        .collect();
    assert_eq!(keys, vec![garden.clone()], "an anchor gets one Macro");
    assert!(
        g.dirty_macros(10).await.unwrap().is_empty(),
        "a new Macro is clean"
    );

    // A third Storyline later joins the Macro and makes it dirty.
    let (_, s_c) = mentioned(
        g,
        &u.alice,
        "Sarah late",
        person("Sarah Chen", 0.9),
        &on_days(&[101, 100]),
    )
    .await;
    let st_c = storyline(g, &u.alice, &sarah, &s_c, 102).await;
    let m = g.macro_by_id(&macro_id).await.unwrap().unwrap();
    assert_eq!(
        (m.total_source_count, m.last_event_at, m.is_dirty),
        (8, Some(t0() + days(101)), true),
        "the new Storyline's Sources count, the Macro is dirty"
    );
    assert_eq!(
        g.macro_storylines(&macro_id).await.unwrap(),
        vec![st_a, st_b, st_c],
        "a Macro's Storylines, oldest first"
    );

    let garden_macro = ids::macro_id(&garden);
    g.create_macro(&NewMacro {
        macro_id: garden_macro.clone(),
        user_id: u.bob.clone(),
        anchor_key: garden.clone(),
        description: "The garden.".into(),
        embedding: None,
        storyline_ids: garden_storylines
            .iter()
            .map(|s| s.storyline_id.clone())
            .collect(),
        at: t0() + days(60),
    })
    .await
    .unwrap();
    extracted(
        g,
        &u.bob,
        "Garden joins",
        t0() + days(61),
        vec![concept("Garden")],
        |w| w.storylines = vec![garden_storylines[2].storyline_id.clone()],
    )
    .await;
    let gm = g.macro_by_id(&garden_macro).await.unwrap().unwrap();
    assert_eq!((gm.total_source_count, gm.is_dirty), (4, true));
    let dirty = g.dirty_macros(10).await.unwrap();
    assert_eq!(
        dirty,
        vec![g.macro_by_id(&macro_id).await.unwrap().unwrap(), gm],
        "dirty Macros, biggest first"
    );
    let ids: Vec<String> = g
        .dirty_macros(1)
        .await
        .unwrap()
        .into_iter()
        .map(|m| m.macro_id)
        .collect();
    assert_eq!(ids, vec![macro_id.clone()], "limit");
    set_lifecycle(g, MemoryKind::Macro, &garden_macro, &u.bob, |l| {
        l.state = MemoryState::Archived
    })
    .await;
    let ids: Vec<String> = g
        .dirty_macros(10)
        .await
        .unwrap()
        .into_iter()
        .map(|m| m.macro_id)
        .collect();
    assert_eq!(
        ids,
        vec![macro_id.clone()],
        "archived Macros are not refreshed"
    );

    g.refresh_macro(
        &macro_id,
        "Three chapters with Sarah.",
        None,
        t0() + days(110),
    )
    .await
    .unwrap();
    let m = g.macro_by_id(&macro_id).await.unwrap().unwrap();
    assert_eq!(
        (
            m.description.as_str(),
            m.embedding.clone(),
            m.storyline_count,
            m.is_dirty,
            m.lifecycle.updated_at
        ),
        (
            "Three chapters with Sarah.",
            Some(vec![0.5, 0.5]),
            3,
            false,
            t0() + days(110)
        ),
        "recounted, clean, embedding kept when none is given"
    );
    assert_eq!(m.total_source_count, 8);
    assert!(g.dirty_macros(10).await.unwrap().is_empty());
    g.refresh_macro(
        &macro_id,
        "Three chapters.",
        Some(&[0.0, 1.0]),
        t0() + days(111),
    )
    .await
    .unwrap();
    let m = g.macro_by_id(&macro_id).await.unwrap().unwrap();
    assert_eq!(
        (m.description.as_str(), m.embedding, m.storyline_count),
        ("Three chapters.", Some(vec![0.0, 1.0]), 3)
    );
}
