//! Neo4j only: Source search through a top-k of the shared vector and full-text indexes
//! (the path of users with many Sources) answers as searching every match would, and is
//! the path taken. The vector answer is the exact one. The full-text answer is the
//! user's best Sources as Lucene ranks them (every match of the shared index filtered
//! to the user, which is how such a user is ranked whichever path answers); Lucene's
//! word statistics are those of every user of the database, so its order may differ
//! from the per-user ranking of users with few Sources.

use cosmo_shared::domain::{Passage, ProcessedContent, SearchScope, Target};
use cosmo_shared::graph::neo4j::Neo4jGraph;
use cosmo_shared::graph::ports::*;
use cosmo_tests::neo4j::{KeySpace, config_from_env, migrate_once, new_suffix};

use super::read_support::DIMS;
use super::support::{EMBEDDED_WITH, days, source, t0};

/// A deterministic unit-free vector for `seed`: every dimension varies, as a model's do.
fn vector(seed: usize) -> Vec<f32> {
    (0..DIMS)
        .map(|d| (((seed * 7919 + d * 104_729) % 1000) as f32 / 500.0) - 1.0)
        .collect()
}

const WORDS: &[&str] = &[
    "budget",
    "roadmap",
    "hiring",
    "launch",
    "pricing",
    "security",
    "migration",
    "offsite",
];

async fn seed(g: &dyn GraphStore, user: &str, from: usize, n: usize) {
    for i in from..from + n {
        let text = format!(
            "{} and {} notes, item {i}",
            WORDS[i % WORDS.len()],
            WORDS[(i / 3) % WORDS.len()]
        );
        let new = source(user, &text, t0() + days(i as i64 % 30));
        g.create_source(&new).await.unwrap();
        let processed = ProcessedContent {
            content: text.clone(),
            summary: text.clone(),
            keywords: vec![WORDS[(i / 5) % WORDS.len()].to_owned()],
            tags: Vec::new(),
            embedding: vector(i),
            passages: (0..3)
                .map(|p| Passage {
                    text: format!("passage {p} of {text}"),
                    embedding: vector(10_000 + i * 3 + p),
                })
                .collect(),
            embedded_with: EMBEDDED_WITH.into(),
        };
        assert!(
            g.save_processed(&new.entity_key, &processed, t0())
                .await
                .unwrap()
        );
    }
}

#[tokio::test]
async fn over_fetched_source_search_answers_as_the_exact_search_does() {
    let Some(config) = config_from_env() else {
        eprintln!("over-fetched search on Neo4j: skipped (NEO4J_URI is not set)");
        return;
    };
    let mut over = config.clone();
    over.exact_search_max = 0;
    let fetched = Neo4jGraph::connect(&over, DIMS)
        .await
        .expect("connect to the Neo4j server at NEO4J_URI")
        .with_strict_over_fetch();
    migrate_once(&fetched).await;
    let mut all = config.clone();
    all.exact_search_max = usize::MAX;
    let exact = Neo4jGraph::connect(&all, DIMS).await.unwrap();
    let suffix = new_suffix();
    let _space = KeySpace::new(config, suffix.clone());
    let (alice, bob) = (format!("alice{suffix}"), format!("bob{suffix}"));
    seed(&exact, &alice, 0, 60).await;
    seed(&exact, &bob, 60, 60).await;

    let scope = SearchScope::user(&alice);
    let mut since = SearchScope::user(&alice);
    since.since = Some(t0() + days(10));
    for (q, scope) in (0..12).map(|q| (q, if q % 3 == 0 { &since } else { &scope })) {
        let query = vector(q * 37 + 5);
        let got = fetched
            .vector_search(scope, Target::Source, &query, 10)
            .await
            .unwrap();
        let want = exact
            .vector_search(scope, Target::Source, &query, 10)
            .await
            .unwrap();
        assert_eq!(got.len(), want.len(), "query {q}");
        for (g, w) in got.iter().zip(&want) {
            assert_eq!((&g.key, g.passage), (&w.key, w.passage), "query {q}");
            assert!(
                (g.score - w.score).abs() < 1e-9,
                "query {q}: {g:?} vs {w:?}"
            );
        }
        let terms = vec![WORDS[q % WORDS.len()].to_owned(), "notes".to_owned()];
        let got = fetched
            .text_search(scope, Target::Source, &terms, 10)
            .await
            .unwrap();
        let want = fetched
            .lucene_source_search(scope, &terms, 10)
            .await
            .unwrap();
        let keys =
            |h: &[cosmo_shared::domain::Hit]| h.iter().map(|h| h.key.clone()).collect::<Vec<_>>();
        assert_eq!(keys(&got), keys(&want), "terms {terms:?}");
        assert!(!got.is_empty(), "terms {terms:?} match alice's Sources");
    }
    let paths = fetched.search_paths();
    assert!(
        paths.fetched > 0,
        "Source search went through the shared indexes: {paths:?}"
    );
}
