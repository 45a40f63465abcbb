//! The graph signal: memories linked to a query's seed nodes, most linked first — Sources
//! by seeds mentioned, nodes by summed relationship strength (seeds excluded), Storylines
//! about and Macros rooted in a seed, facts by seeds they are about — in the caller's
//! graph only, archived ones only when asked.

use cosmo_shared::domain::{MemoryKind, Neighbour, NodeRef, SearchScope, Target};
use cosmo_shared::graph::GraphStore;

use super::super::read_support::*;
use super::super::support::*;

fn strong(from: usize, to: usize, strength: f64) -> cosmo_shared::domain::RelationshipUpsert {
    let mut r = link(from, to, "knows");
    r.strength = strength;
    r
}

/// `(key, score, sorted via)` of each neighbour, in order.
fn summary(n: &[Neighbour]) -> Vec<(String, f64, Vec<String>)> {
    n.iter()
        .map(|x| {
            let mut via = x.via.clone();
            via.sort();
            (x.key.clone(), x.score, via)
        })
        .collect()
}

async fn find(
    g: &dyn GraphStore,
    scope: &SearchScope,
    target: Target,
    seeds: &[String],
) -> Vec<Neighbour> {
    g.neighbours(scope, target, seeds, 10).await.unwrap()
}

pub async fn neighbours_rank_what_links_to_the_seeds(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let user = u.alice.as_str();
    let (s1, n1) = extracted(
        g,
        user,
        "Sarah, the hiring plan and Berlin",
        t0(),
        vec![
            person("Sarah Chen", 0.9),
            concept("Hiring Plan"),
            organization("Berlin Office"),
        ],
        |w| w.relationships = vec![strong(0, 1, 0.5), strong(0, 2, 0.9), strong(1, 2, 0.2)],
    )
    .await;
    let (sarah, hiring, berlin) = (n1[0].clone(), n1[1].clone(), n1[2].clone());
    let (s2, n2) = extracted(
        g,
        user,
        "Sarah and Dana",
        t0() + days(1),
        vec![person("Sarah Chen", 0.9), person("Dana Park", 0.9)],
        |w| w.relationships = vec![strong(0, 1, 0.4)],
    )
    .await;
    let dana = n2[1].clone();
    let (s3, _) = extracted(
        g,
        user,
        "Berlin alone",
        t0() + days(2),
        vec![organization("Berlin Office")],
        |_| {},
    )
    .await;
    let about_sarah = storyline(
        g,
        user,
        &sarah,
        &[s1.clone(), s2.clone()],
        "Sarah.",
        None,
        t0(),
    )
    .await;
    let about_berlin = storyline(g, user, &berlin, &[s1.clone(), s3], "Berlin.", None, t0()).await;
    let rooted_sarah = macro_(
        g,
        user,
        &sarah,
        std::slice::from_ref(&about_sarah),
        "Sarah.",
        None,
        t0(),
    )
    .await;
    macro_(g, user, &berlin, &[about_berlin], "Berlin.", None, t0()).await;
    let with = |text: &str, about: Vec<String>| cosmo_shared::domain::NewFact {
        about,
        ..fact(user, text, t0())
    };
    let f2 = stored(
        g,
        &with("Sarah owns hiring", vec![sarah.clone(), hiring.clone()]),
    )
    .await;
    let f1 = stored(g, &with("Sarah is kind", vec![sarah.clone()])).await;
    stored(g, &with("Berlin is cold", vec![berlin.clone()])).await;

    let seeds = vec![sarah.clone(), hiring.clone()];
    let both = {
        let mut v = seeds.clone();
        v.sort();
        v
    };
    let alice = SearchScope::user(user);
    let expect = [
        (
            Target::Source,
            vec![
                (s1.clone(), 2.0, both.clone()),
                (s2.clone(), 1.0, vec![sarah.clone()]),
            ],
        ),
        (
            Target::Node,
            vec![
                (berlin.clone(), 1.1, both.clone()),
                (dana.clone(), 0.4, vec![sarah.clone()]),
            ],
        ),
        (
            Target::Storyline,
            vec![(about_sarah.clone(), 1.0, vec![sarah.clone()])],
        ),
        (
            Target::Macro,
            vec![(rooted_sarah, 1.0, vec![sarah.clone()])],
        ),
        (
            Target::Fact,
            vec![
                (f2.fact_id, 2.0, both.clone()),
                (f1.fact_id, 1.0, vec![sarah.clone()]),
            ],
        ),
    ];
    for (target, want) in &expect {
        let got = summary(&find(g, &alice, *target, &seeds).await);
        assert_eq!(got.len(), want.len(), "{target}: {got:?}");
        for (g_, w) in got.iter().zip(want) {
            assert_eq!((&g_.0, &g_.2), (&w.0, &w.2), "{target}: {got:?}");
            assert!((g_.1 - w.1).abs() < 1e-9, "{target}: {got:?}");
        }
        let one = g.neighbours(&alice, *target, &seeds, 1).await.unwrap();
        assert_eq!(one.len(), 1, "{target}: limit 1");
        assert_eq!(one[0].key, want[0].0);
        // Another user's scope never walks alice's graph.
        let bob = find(g, &SearchScope::user(&u.bob), *target, &seeds).await;
        assert!(bob.is_empty(), "{target} for bob: {bob:?}");
    }
    assert!(find(g, &alice, Target::Source, &[]).await.is_empty());

    // Archived memories drop out unless asked for.
    archive(g, MemoryKind::Source, &s2, user).await;
    archive(g, MemoryKind::Node, &dana, user).await;
    archive(g, MemoryKind::Storyline, &about_sarah, user).await;
    let keys_of = |n: Vec<Neighbour>| n.into_iter().map(|x| x.key).collect::<Vec<_>>();
    assert_eq!(
        keys_of(find(g, &alice, Target::Source, &seeds).await),
        [s1.as_str()]
    );
    assert_eq!(
        keys_of(find(g, &alice, Target::Node, &seeds).await),
        [berlin.as_str()]
    );
    assert!(find(g, &alice, Target::Storyline, &seeds).await.is_empty());
    let all = with_archived(user);
    assert_eq!(
        keys_of(find(g, &all, Target::Source, &seeds).await),
        [s1, s2]
    );
    assert_eq!(
        keys_of(find(g, &all, Target::Node, &seeds).await),
        [berlin, dana]
    );
    assert_eq!(
        keys_of(find(g, &all, Target::Storyline, &seeds).await),
        [about_sarah]
    );
}

/// Relationships to the owner count like any other link.
pub async fn neighbours_reach_through_the_owner(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let owner = g
        .upsert_owner(&u.alice, "Alice Walker", t0())
        .await
        .unwrap();
    let (_, nodes) = extracted(
        g,
        &u.alice,
        "Alice and Sarah",
        t0(),
        vec![person("Sarah Chen", 0.9)],
        |w| {
            let mut r = strong(0, 0, 0.7);
            r.to = NodeRef::Owner;
            w.relationships = vec![r];
        },
    )
    .await;
    let n = find(
        g,
        &SearchScope::user(&u.alice),
        Target::Node,
        std::slice::from_ref(&owner.entity_key),
    )
    .await;
    assert_eq!(
        summary(&n),
        [(nodes[0].clone(), 0.7, vec![owner.entity_key])]
    );
}
