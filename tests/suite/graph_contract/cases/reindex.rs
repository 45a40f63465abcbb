//! The index version: each processed Source records the embedder that made its summary's
//! and passages' vectors; Sources indexed by another embedder (or by one never
//! recorded) are listed for re-indexing, which replaces the vectors and passages and
//! nothing else.

use cosmo_shared::domain::{
    Lifecycle, NewSource, Passage, ProcessedContent, ProcessingStatus, SearchScope, Target,
};
use cosmo_shared::graph::GraphStore;

use super::super::read_support::*;
use super::super::support::*;

/// The fingerprint of the embedder configured now; [`EMBEDDED_WITH`] is an older one.
const CURRENT: &str = "test:embedder-v2:384";

fn passages(list: &[(&str, Vec<f32>)]) -> Vec<Passage> {
    list.iter()
        .map(|(text, embedding)| Passage {
            text: (*text).to_owned(),
            embedding: embedding.clone(),
        })
        .collect()
}

/// Creates and processes `new` by the embedder `embedded_with` ("" for none recorded)
/// with a summary vector and passages; returns its key.
async fn indexed_by(
    g: &dyn GraphStore,
    new: &NewSource,
    embedded_with: &str,
    summary: Vec<f32>,
    list: &[(&str, Vec<f32>)],
) -> String {
    g.create_source(new).await.unwrap();
    let p = ProcessedContent {
        content: new.raw_content["content"].as_str().unwrap().to_owned(),
        summary: "A summary.".into(),
        keywords: vec!["kept".into()],
        tags: vec!["tag".into()],
        embedding: summary,
        passages: passages(list),
        embedded_with: embedded_with.to_owned(),
    };
    assert!(
        g.save_processed(&new.entity_key, &p, t0() + days(1))
            .await
            .unwrap()
    );
    new.entity_key.clone()
}

async fn stale(g: &dyn GraphStore, embedded_with: &str, limit: usize) -> Vec<String> {
    g.stale_index(embedded_with, limit)
        .await
        .unwrap()
        .into_iter()
        .map(|s| s.entity_key)
        .collect()
}

async fn listed(g: &dyn GraphStore, key: &str) -> Vec<(u32, String)> {
    g.passages(&[key.to_owned()])
        .await
        .unwrap()
        .into_iter()
        .map(|p| (p.ordinal, p.text))
        .collect()
}

pub async fn stale_sources_are_listed_until_reindexed(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let raw = source(&u.alice, "Still raw.", t0());
    g.create_source(&raw).await.unwrap();
    let old = indexed_by(
        g,
        &source(&u.alice, "Old.", t0()),
        EMBEDDED_WITH,
        angle(0.0),
        &[],
    )
    .await;
    let unknown = indexed_by(g, &source(&u.bob, "Unknown.", t0()), "", angle(0.0), &[]).await;
    let current = indexed_by(
        g,
        &source(&u.alice, "Current.", t0()),
        CURRENT,
        angle(0.0),
        &[],
    )
    .await;
    let (extracted, _) = extracted(
        g,
        &u.carol,
        "Extracted long ago.",
        t0(),
        vec![person("Sarah Chen", 0.8)],
        |_| {},
    )
    .await;
    assert_eq!(
        g.source(&extracted)
            .await
            .unwrap()
            .unwrap()
            .processing_status,
        ProcessingStatus::Extracted
    );

    let mut want = vec![old.clone(), unknown.clone(), extracted.clone()];
    want.sort();
    assert_eq!(
        stale(g, CURRENT, 10).await,
        want,
        "processed and extracted Sources of another embedder or none, by key; \
         never a raw one, never one of the current embedder"
    );
    assert_eq!(stale(g, CURRENT, 2).await, want[..2], "the limit holds");
    assert_eq!(
        g.source(&unknown).await.unwrap().unwrap().embedded_with,
        None,
        "none recorded"
    );

    // Re-indexed with the current embedder: no longer listed; the others still are.
    assert!(
        g.save_index(&old, &angle(0.0), &[], CURRENT, t0() + days(2))
            .await
            .unwrap()
    );
    want.retain(|k| *k != old);
    assert_eq!(stale(g, CURRENT, 10).await, want);
    for key in want.clone() {
        assert!(
            g.save_index(&key, &angle(0.0), &[], CURRENT, t0() + days(2))
                .await
                .unwrap()
        );
    }
    assert!(stale(g, CURRENT, 10).await.is_empty(), "nothing stale");

    // Switching back to the older embedder makes every processed Source stale again.
    let mut all = vec![old, unknown, current, extracted];
    all.sort();
    assert_eq!(stale(g, EMBEDDED_WITH, 10).await, all);
    assert!(!all.contains(&raw.entity_key));
}

pub async fn reindexing_replaces_the_index_and_nothing_else(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    // Far from the query (0°) by its summary and every passage.
    let key = indexed_by(
        g,
        &source(&u.alice, "A long conversation about the garden.", t0()),
        EMBEDDED_WITH,
        angle(80.0),
        &[
            ("p0", angle(60.0)),
            ("p1", angle(70.0)),
            ("p2", angle(75.0)),
        ],
    )
    .await;
    g.record_processing_error(&key, Some("embedder timed out"), t0() + days(1))
        .await
        .unwrap();
    let before = g.source(&key).await.unwrap().unwrap();
    let alice = SearchScope::user(&u.alice);
    let hit = g
        .vector_search(&alice, Target::Source, &angle(0.0), 10)
        .await
        .unwrap();
    assert_hits("before", &hit, &[(&key, cos_deg(60.0))]);

    let at = t0() + days(3);
    assert!(
        g.save_index(
            &key,
            &angle(50.0),
            &passages(&[("n0", angle(5.0)), ("n1", angle(40.0))]),
            CURRENT,
            at,
        )
        .await
        .unwrap()
    );
    assert_eq!(
        listed(g, &key).await,
        [(0, "n0".to_owned()), (1, "n1".to_owned())],
        "exactly the new passages: the third is gone"
    );
    let hits = g
        .vector_search(&alice, Target::Source, &angle(0.0), 10)
        .await
        .unwrap();
    assert_hits("scored by the new passages", &hits, &[(&key, cos_deg(5.0))]);
    assert_eq!(hits[0].passage, Some(0));

    let after = g.source(&key).await.unwrap().unwrap();
    assert_eq!(
        after,
        cosmo_shared::domain::Source {
            embedding: Some(angle(50.0)),
            embedded_with: Some(CURRENT.to_owned()),
            processing_error: None,
            lifecycle: Lifecycle {
                updated_at: at,
                ..before.lifecycle.clone()
            },
            ..before.clone()
        },
        "content, summary, keywords, tags, status and processing times untouched"
    );
    assert_eq!(after.processing_status, ProcessingStatus::Processed);

    // Re-indexing again with no passages (blank content) leaves none.
    assert!(
        g.save_index(&key, &angle(0.0), &[], CURRENT, at)
            .await
            .unwrap()
    );
    assert!(listed(g, &key).await.is_empty());
    let hits = g
        .vector_search(&alice, Target::Source, &angle(0.0), 10)
        .await
        .unwrap();
    assert_eq!(hits[0].passage, None, "the summary scores it");

    // An extracted Source stays extracted.
    let (done, _) = extracted(
        g,
        &u.alice,
        "Extracted.",
        t0(),
        vec![person("Sarah Chen", 0.8)],
        |_| {},
    )
    .await;
    let done_before = g.source(&done).await.unwrap().unwrap();
    assert!(
        g.save_index(
            &done,
            &angle(0.0),
            &passages(&[("e0", angle(1.0))]),
            CURRENT,
            at
        )
        .await
        .unwrap()
    );
    let done_after = g.source(&done).await.unwrap().unwrap();
    assert_eq!(
        (
            done_after.processing_status,
            done_after.extraction_completed_at,
            done_after.summary
        ),
        (
            ProcessingStatus::Extracted,
            done_before.extraction_completed_at,
            done_before.summary
        )
    );

    assert!(
        !g.save_index("no-such-source", &angle(0.0), &[], CURRENT, at)
            .await
            .unwrap(),
        "an unknown Source"
    );
}

pub async fn erasure_removes_a_reindexed_source(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let key = indexed_by(
        g,
        &source(&u.alice, "Erased after re-indexing.", t0()),
        EMBEDDED_WITH,
        angle(80.0),
        &[("old passage", angle(80.0))],
    )
    .await;
    let kept = indexed_by(
        g,
        &source(&u.alice, "Kept and stale.", t0()),
        EMBEDDED_WITH,
        angle(40.0),
        &[],
    )
    .await;
    assert!(
        g.save_index(
            &key,
            &angle(0.0),
            &passages(&[("new passage", angle(0.0))]),
            CURRENT,
            t0() + days(2),
        )
        .await
        .unwrap()
    );
    g.erase_source(&key, t0() + days(3)).await.unwrap().unwrap();
    assert!(g.source(&key).await.unwrap().is_none());
    assert!(listed(g, &key).await.is_empty(), "its passages are gone");
    let hits = g
        .vector_search(
            &SearchScope::user(&u.alice),
            Target::Source,
            &angle(0.0),
            10,
        )
        .await
        .unwrap();
    assert_eq!(keys(&hits), std::slice::from_ref(&kept), "and its vectors");
    assert_eq!(stale(g, CURRENT, 10).await, std::slice::from_ref(&kept));
    assert!(
        !g.save_index(&key, &angle(0.0), &[], CURRENT, t0() + days(4))
            .await
            .unwrap(),
        "an erased Source is not written again"
    );
    assert_eq!(stale(g, CURRENT, 10).await, [kept]);
}
