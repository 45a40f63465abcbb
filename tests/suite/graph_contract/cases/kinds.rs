//! Vector and full-text search over the other kinds of memory: semantic nodes (name and
//! description), Storylines and Macros (description), facts (text and value). Each user
//! sees only their own.

use std::collections::{BTreeMap, BTreeSet};

use cosmo_shared::domain::{NewFact, SearchScope, Target};
use cosmo_shared::graph::GraphStore;

use super::super::read_support::*;
use super::super::support::*;

const KINDS: [Target; 4] = [Target::Node, Target::Storyline, Target::Macro, Target::Fact];

/// One user's memories: per kind, the keys embedded at 0° and 60° and one without an
/// embedding; and per kind the keys whose text holds "zephyr".
struct Memories {
    by_angle: BTreeMap<Target, [String; 3]>,
    zephyr: BTreeMap<Target, BTreeSet<String>>,
}

async fn memories(g: &dyn GraphStore, user: &str) -> Memories {
    let s = source(user, &format!("Notes of {user}"), t0());
    let src = processed(g, &s, "Notes", &[], angle(90.0)).await;
    let w = write(
        &s,
        user,
        t0(),
        vec![concept("Zephyr Labs"), concept("Harbor"), concept("Meadow")],
    );
    let nodes = g.write_extraction(&w).await.unwrap().node_keys;
    let at = t0() + days(1);
    g.consolidate_node(&nodes[0], "A lab.", Some(&angle(0.0)), at)
        .await
        .unwrap();
    g.consolidate_node(&nodes[1], "Where the zephyr blows.", Some(&angle(60.0)), at)
        .await
        .unwrap();

    let texts = [
        ("The zephyr project kickoff.", "Zephyr over the years."),
        ("Harbor days.", "Harbor seasons."),
        ("Another zephyr story.", "A zephyr macro."),
    ];
    let embeddings = [Some(angle(0.0)), Some(angle(60.0)), None];
    let (mut storylines, mut macros) = (Vec::new(), Vec::new());
    for ((anchor, (st, mc)), e) in nodes.iter().zip(texts).zip(&embeddings) {
        let id = storyline(
            g,
            user,
            anchor,
            std::slice::from_ref(&src),
            st,
            e.clone(),
            at,
        )
        .await;
        macros.push(
            macro_(
                g,
                user,
                anchor,
                std::slice::from_ref(&id),
                mc,
                e.clone(),
                at,
            )
            .await,
        );
        storylines.push(id);
    }
    let mut facts = Vec::new();
    let car = NewFact {
        category: Some("car".into()),
        key: Some("model".into()),
        value: Some("Zephyr".into()),
        ..fact(user, "Favourite car", at)
    };
    for (f, e) in [
        fact(user, "Drives a Zephyr daily", at),
        car,
        fact(user, "Likes tea", at),
    ]
    .into_iter()
    .zip(embeddings)
    {
        facts.push(stored(g, &NewFact { embedding: e, ..f }).await.fact_id);
    }
    let set = |v: &[String], i: [usize; 2]| i.iter().map(|i| v[*i].clone()).collect();
    let zephyr = BTreeMap::from([
        (Target::Node, set(&nodes, [0, 1])),
        (Target::Storyline, set(&storylines, [0, 2])),
        (Target::Macro, set(&macros, [0, 2])),
        (Target::Fact, set(&facts, [0, 1])),
    ]);
    let three = |v: Vec<String>| -> [String; 3] { v.try_into().unwrap() };
    Memories {
        by_angle: BTreeMap::from([
            (Target::Node, three(nodes)),
            (Target::Storyline, three(storylines)),
            (Target::Macro, three(macros)),
            (Target::Fact, three(facts)),
        ]),
        zephyr,
    }
}

pub async fn vector_search_ranks_every_kind_by_cosine(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let alice = memories(g, &u.alice).await;
    let bob = memories(g, &u.bob).await;
    for (user, mine) in [(&u.alice, &alice), (&u.bob, &bob)] {
        for target in KINDS {
            let [k0, k60, _] = &mine.by_angle[&target];
            let hits = g
                .vector_search(&SearchScope::user(user), target, &angle(0.0), 10)
                .await
                .unwrap();
            assert_hits(
                &format!("{user}'s {target}s"),
                &hits,
                &[(k0, 1.0), (k60, cos_deg(60.0))],
            );
            let one = g
                .vector_search(&SearchScope::user(user), target, &angle(60.0), 1)
                .await
                .unwrap();
            assert_hits(&format!("{user}'s nearest {target}"), &one, &[(k60, 1.0)]);
        }
    }
}

pub async fn text_search_covers_every_kind(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let alice = memories(g, &u.alice).await;
    let bob = memories(g, &u.bob).await;
    let terms = vec!["zephyr".to_owned()];
    for (user, mine) in [(&u.alice, &alice), (&u.bob, &bob)] {
        for target in KINDS {
            let hits = g
                .text_search(&SearchScope::user(user), target, &terms, 10)
                .await
                .unwrap();
            let found: BTreeSet<String> = keys(&hits).into_iter().collect();
            assert_eq!(
                found, mine.zephyr[&target],
                "{user}'s {target}s holding the word, and only theirs: {hits:?}"
            );
            assert!(
                hits.windows(2).all(|w| w[0].score >= w[1].score),
                "{hits:?}"
            );
            let none = g
                .text_search(&SearchScope::user(user), target, &["absent".into()], 10)
                .await
                .unwrap();
            assert!(none.is_empty(), "{target}: {none:?}");
        }
    }
}
