use chrono::Utc;

use super::*;
use cosmo_shared::domain::TtlPolicy;

const EQUAL: Weights = Weights {
    vector: 1.0,
    text: 1.0,
    graph: 1.0,
    chain: 1.0,
};

/// A list; `every` lists every match (its floor is 0).
fn list(signal: Signal, hits: &[(&str, f64)], every: bool) -> SignalList {
    SignalList {
        signal,
        query: 0,
        hits: hits.iter().map(|(k, s)| Candidate::new(*k, *s)).collect(),
        floor: every.then_some(0.0),
        in_period: false,
    }
}

fn order(fused: &[Fused]) -> Vec<&str> {
    fused.iter().map(|f| f.key.as_str()).collect()
}

#[test]
fn scores_are_normalised_against_what_an_unlisted_memory_could_score() {
    let cut = list(
        Signal::Vector,
        &[("a", 0.75), ("b", 0.5), ("c", 0.25)],
        false,
    );
    assert_eq!(
        normalise(&cut),
        [1.0, 0.5, 0.0],
        "the last listed is the floor"
    );
    let every = list(Signal::Text, &[("a", 8.0), ("b", 2.0)], true);
    assert_eq!(normalise(&every), [1.0, 0.25], "no match scores 0");
    let flat = list(Signal::Graph, &[("a", 1.0), ("b", 1.0)], false);
    assert_eq!(
        normalise(&flat),
        [0.0, 0.0],
        "a flat cut list tells nothing"
    );
    let few = list(Signal::Graph, &[("a", 1.0), ("b", 1.0)], true);
    assert_eq!(normalise(&few), [1.0, 1.0], "the only matches all count");
    let one = SignalList {
        floor: Some(0.25),
        ..list(Signal::Vector, &[("a", 0.75), ("b", 0.5)], false)
    };
    assert_eq!(
        normalise(&one),
        [1.0, 0.5],
        "every vector over the threshold"
    );
    assert!(normalise(&list(Signal::Text, &[], true)).is_empty());
}

#[test]
fn the_best_of_one_signal_is_not_lost_for_missing_from_the_others() {
    // `top` is first by text by far and missing from the vector and graph lists (a
    // weak cosine, under the query's threshold); `everywhere` is found by all three,
    // weakly by text. Under reciprocal rank fusion `everywhere` won.
    let lists = [
        list(
            Signal::Text,
            &[("top", 9.0), ("everywhere", 2.0), ("x", 1.0)],
            true,
        ),
        list(
            Signal::Vector,
            &[("y", 0.62), ("z", 0.55), ("everywhere", 0.50), ("w", 0.30)],
            false,
        ),
        list(Signal::Graph, &[("everywhere", 1.0), ("y", 1.0)], false),
    ];
    let weights = Weights {
        vector: 0.3,
        text: 1.0,
        graph: 0.1,
        chain: 0.5,
    };
    let fused = fuse(&lists, 1, &weights);
    assert_eq!(order(&fused)[0], "top", "{fused:#?}");
    let everywhere = fused.iter().find(|f| f.key == "everywhere").unwrap();
    assert_eq!(everywhere.hits.len(), 3);
    assert!(fused.iter().all(|f| (0.0..=1.0).contains(&f.relevance)));
    // Each list alone ranks its own best first: fusion keeps what one signal is sure of.
    for l in &lists[..2] {
        let alone = fuse(std::slice::from_ref(l), 1, &weights);
        assert_eq!(alone[0].key, l.hits[0].key);
    }
}

#[test]
fn weights_decide_between_signals_and_queries_average() {
    let lists = [
        list(Signal::Text, &[("t", 5.0)], true),
        list(Signal::Vector, &[("v", 0.9), ("t", 0.1)], false),
    ];
    let text_heavy = Weights {
        vector: 1.0,
        text: 3.0,
        graph: 0.0,
        chain: 0.0,
    };
    assert_eq!(order(&fuse(&lists, 1, &text_heavy)), ["t", "v"]);
    let vector_heavy = Weights {
        vector: 3.0,
        text: 1.0,
        graph: 0.0,
        chain: 0.0,
    };
    assert_eq!(order(&fuse(&lists, 1, &vector_heavy)), ["v", "t"]);

    // Found by the first of two queries only: half the relevance.
    let two = fuse(&[list(Signal::Text, &[("t", 5.0)], true)], 2, &EQUAL);
    assert!((two[0].relevance - 1.0 / 6.0).abs() < 1e-12);
}

#[test]
fn a_chain_lifts_what_it_lists_and_leaves_the_rest_as_it_was() {
    let searched = [
        list(
            Signal::Text,
            &[("effect", 4.0), ("other", 2.0), ("cause", 1.0)],
            true,
        ),
        list(Signal::Vector, &[("other", 0.5), ("effect", 0.4)], true),
    ];
    let before = fuse(&searched, 1, &EQUAL);
    let mut with_chain = searched.to_vec();
    with_chain.push(list(Signal::Chain, &[("cause", 0.7)], true));
    let after = fuse(&with_chain, 1, &EQUAL);
    let relevance =
        |fused: &[Fused], key: &str| fused.iter().find(|f| f.key == key).unwrap().relevance;
    for key in ["effect", "other"] {
        assert_eq!(relevance(&before, key), relevance(&after, key), "{key}");
    }
    // The chain adds its weight over what the other signals' mean divides by.
    let lift = relevance(&after, "cause") - relevance(&before, "cause");
    assert!((lift - 1.0 / 3.0).abs() < 1e-12, "{lift}");
}

#[test]
fn importance_orders_near_equals_only() {
    let now = Utc::now();
    let mut fresh = Lifecycle::new(0.9, TtlPolicy::Decay, now);
    fresh.salience = 0.5;
    let mut popular = fresh.clone();
    popular.salience = 1.0;
    let w = 0.02;
    let popular_less_relevant = final_score(0.80, importance(&popular, false), w);
    let fresh_relevant = final_score(0.82, importance(&fresh, false), w);
    assert!(fresh_relevant > popular_less_relevant);
    assert!(
        final_score(0.8, 1.0, w) > final_score(0.8, 0.5, w),
        "ties go to importance"
    );
    let mut pinned = fresh.clone();
    pinned.pinned = true;
    assert_eq!(importance(&pinned, false), 1.0);
    assert_eq!(importance(&fresh, true), 1.0);
    assert_eq!(final_score(1.0, 1.0, w), 1.0);
}
