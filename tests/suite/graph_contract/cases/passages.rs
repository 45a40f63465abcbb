//! Content passages: a Source is searched by its summary and by the passages of its
//! content, scored by the best of them; the passages are stored with the Source,
//! replaced when it is processed again, listed for results to quote, and erased with it.

use cosmo_shared::domain::{Passage, ProcessedContent, SearchScope, Target};
use cosmo_shared::graph::GraphStore;

use super::super::read_support::*;
use super::super::support::*;

/// Processes `new` with a summary vector and passages `(text, vector)`; returns its key.
async fn with_passages(
    g: &dyn GraphStore,
    new: &cosmo_shared::domain::NewSource,
    summary: Vec<f32>,
    passages: &[(&str, Vec<f32>)],
) -> String {
    g.create_source(new).await.unwrap();
    let p = ProcessedContent {
        content: passages
            .iter()
            .map(|(t, _)| *t)
            .collect::<Vec<_>>()
            .join("\n"),
        summary: "A summary.".into(),
        keywords: Vec::new(),
        tags: Vec::new(),
        embedding: summary,
        passages: passages
            .iter()
            .map(|(text, embedding)| Passage {
                text: (*text).to_owned(),
                embedding: embedding.clone(),
            })
            .collect(),
        embedded_with: EMBEDDED_WITH.into(),
    };
    assert!(
        g.save_processed(&new.entity_key, &p, t0() + days(1))
            .await
            .unwrap()
    );
    new.entity_key.clone()
}

/// `(source, ordinal, text)` of each listed passage.
async fn listed(g: &dyn GraphStore, keys: &[String]) -> Vec<(String, u32, String)> {
    g.passages(keys)
        .await
        .unwrap()
        .into_iter()
        .map(|p| (p.source_key, p.ordinal, p.text))
        .collect()
}

pub async fn passages_are_stored_replaced_and_listed_in_order(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let a = with_passages(
        g,
        &source(&u.alice, "First", t0()),
        angle(0.0),
        &[
            ("a0", angle(10.0)),
            ("a1", angle(20.0)),
            ("a2", angle(30.0)),
        ],
    )
    .await;
    let b = with_passages(
        g,
        &source(&u.alice, "Second", t0()),
        angle(0.0),
        &[("b0", angle(40.0))],
    )
    .await;
    let none = with_passages(g, &source(&u.alice, "Third", t0()), angle(0.0), &[]).await;
    let s = |k: &String, o: u32, t: &str| (k.clone(), o, t.to_owned());
    assert_eq!(
        listed(
            g,
            &[b.clone(), "no-such-source".into(), a.clone(), none.clone()]
        )
        .await,
        [
            s(&b, 0, "b0"),
            s(&a, 0, "a0"),
            s(&a, 1, "a1"),
            s(&a, 2, "a2")
        ],
        "by Source in the given order, each in content order; unknown keys skipped"
    );
    assert_eq!(
        listed(g, &[a.clone(), a.clone()]).await.len(),
        3,
        "a key given twice lists once"
    );
    assert!(listed(g, &[]).await.is_empty());

    // Processed again (a retry, or new content): exactly the new passages.
    let a_again = with_passages(
        g,
        &source(&u.alice, "First", t0()),
        angle(0.0),
        &[("a0 again", angle(50.0))],
    )
    .await;
    assert_eq!(a_again, a, "the same Source");
    assert_eq!(
        listed(g, std::slice::from_ref(&a)).await,
        [s(&a, 0, "a0 again")]
    );
    let hits = g
        .vector_search(
            &SearchScope::user(&u.alice),
            Target::Source,
            &angle(30.0),
            10,
        )
        .await
        .unwrap();
    let hit = hits.iter().find(|h| h.key == a).unwrap();
    assert!(
        (hit.score - cos_deg(20.0)).abs() < 1e-4 && hit.passage == Some(0),
        "the replaced passages no longer score: {hit:?}"
    );
}

pub async fn vector_search_scores_a_source_by_its_best_passage(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let mine = |text: &str, d: i64| source(&u.alice, text, t0() + days(d));
    // The query points at 0°. `deep` is far by its summary but has a passage at 5°;
    // `summary` is closest by its summary (its passages are further); `far` is far on
    // every vector; `plain` has no passages at all.
    let deep = with_passages(
        g,
        &mine("Deep", 0),
        angle(80.0),
        &[("p0", angle(60.0)), ("p1", angle(5.0)), ("p2", angle(70.0))],
    )
    .await;
    let summary = with_passages(g, &mine("Summary", 1), angle(15.0), &[("q0", angle(45.0))]).await;
    let far = with_passages(g, &mine("Far", 2), angle(85.0), &[("r0", angle(88.0))]).await;
    let plain = processed(g, &mine("Plain", 3), "plain", &[], angle(30.0)).await;

    let alice = SearchScope::user(&u.alice);
    let hits = g
        .vector_search(&alice, Target::Source, &angle(0.0), 10)
        .await
        .unwrap();
    assert_hits(
        "the best of summary and passages",
        &hits,
        &[
            (&deep, cos_deg(5.0)),
            (&summary, cos_deg(15.0)),
            (&plain, cos_deg(30.0)),
            (&far, cos_deg(85.0)),
        ],
    );
    let by_key = |k: &String| hits.iter().find(|h| h.key == *k).unwrap().passage;
    assert_eq!(by_key(&deep), Some(1), "the passage that scored it");
    assert_eq!(by_key(&summary), None, "the summary scored it");
    assert_eq!(by_key(&plain), None);
    assert_eq!(by_key(&far), None);

    let top = g
        .vector_search(&alice, Target::Source, &angle(0.0), 1)
        .await
        .unwrap();
    assert_eq!(keys(&top), [deep], "a passage can win the top place");

    // Passages only count for a Source whose own vector fits the query.
    let odd = with_passages(
        g,
        &mine("Odd", 4),
        vec![1.0, 0.0],
        &[("o0", vec![1.0, 0.0])],
    )
    .await;
    let hits = g
        .vector_search(&alice, Target::Source, &angle(0.0), 10)
        .await
        .unwrap();
    assert!(!keys(&hits).contains(&odd), "vectors of another length");
}

pub async fn erasure_removes_passages(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let gone = with_passages(
        g,
        &source(&u.alice, "Erased", t0()),
        angle(0.0),
        &[("secret passage", angle(0.0))],
    )
    .await;
    let kept = with_passages(
        g,
        &source(&u.alice, "Kept", t0()),
        angle(40.0),
        &[("kept passage", angle(40.0))],
    )
    .await;
    let bobs = with_passages(
        g,
        &source(&u.bob, "Bob's", t0()),
        angle(0.0),
        &[("bob passage", angle(0.0))],
    )
    .await;
    g.erase_source(&gone, t0() + days(2))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        listed(g, &[gone.clone(), kept.clone()]).await,
        [(kept.clone(), 0, "kept passage".to_owned())]
    );
    let hits = g
        .vector_search(
            &SearchScope::user(&u.alice),
            Target::Source,
            &angle(0.0),
            10,
        )
        .await
        .unwrap();
    assert_eq!(
        keys(&hits),
        std::slice::from_ref(&kept),
        "its vectors are gone too"
    );

    g.erase_user(&u.alice, t0() + days(3)).await.unwrap();
    assert!(listed(g, &[kept]).await.is_empty(), "a user's erasure too");
    assert_eq!(listed(g, &[bobs]).await.len(), 1, "others' stay");
}
