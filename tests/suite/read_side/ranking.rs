//! How explore ranks and explains: several queries in one call, each result naming the
//! query and signal that found it; a query's `threshold` keeps weak vector matches out
//! while the other signals still count; drilling down counts as a recall.

use serde_json::json;

use super::world::{World, keys_of, note};

#[tokio::test]
async fn several_queries_each_say_what_they_found() {
    let w = World::new().await;
    let kayak = w.ingest(note("alex", 0, "Kayak trip on the lake.")).await;
    let tomato = w
        .ingest(note("alex", 1, "Tomatoes need water in July."))
        .await;
    w.ingest(note("alex", 2, "Paid the electricity bill."))
        .await;
    let body = json!({ "user_id": "alex", "queries": [{ "query": "kayak trip" }, { "query": "tomatoes water" }] });
    let answer = w.ok("/api/explore", body).await;
    let found = keys_of(&answer, "sources", "entity_key");
    assert!(
        found.contains(&kayak) && found.contains(&tomato),
        "{answer}"
    );
    for (key, query) in [(&kayak, 0), (&tomato, 1)] {
        let r = answer["sources"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["entity_key"] == key.as_str())
            .unwrap();
        let text_hits: Vec<i64> = r["why"]["signals"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["signal"] == "text")
            .map(|s| s["query"].as_i64().unwrap())
            .collect();
        assert_eq!(
            text_hits,
            [query],
            "found by the words of query {query}: {r}"
        );
        let why = &r["why"];
        let relevance = why["relevance"].as_f64().unwrap();
        assert!(relevance > 0.0 && relevance <= 1.0, "{why}");
    }
}

#[tokio::test]
async fn a_threshold_keeps_weak_vector_matches_out() {
    let w = World::new().await;
    let kayak = w
        .ingest(note("alex", 0, "Kayak trip on the lake with the club."))
        .await;
    let signals = |answer: &serde_json::Value| -> Vec<String> {
        answer["sources"][0]["why"]["signals"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["signal"].as_str().unwrap().to_owned())
            .collect()
    };
    let loose = json!({ "user_id": "alex", "queries": [{ "query": "kayak", "threshold": 0.0 }] });
    let answer = w.ok("/api/explore", loose).await;
    assert_eq!(keys_of(&answer, "sources", "entity_key"), [kayak.as_str()]);
    let cosine = answer["sources"][0]["why"]["signals"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["signal"] == "vector")
        .map(|s| s["score"].as_f64().unwrap())
        .expect("a vector match under a zero threshold");
    assert!(cosine < 0.99, "the premise: a partial match ({cosine})");

    let strict = json!({ "user_id": "alex", "queries": [{ "query": "kayak", "threshold": 0.99 }] });
    let answer = w.ok("/api/explore", strict).await;
    assert_eq!(
        keys_of(&answer, "sources", "entity_key"),
        [kayak.as_str()],
        "the words still match"
    );
    assert_eq!(
        signals(&answer),
        ["text"],
        "no vector signal under the threshold"
    );
}

#[tokio::test]
async fn drilling_down_counts_as_a_recall() {
    let w = World::new().await;
    let keys = vec![
        w.ingest(note("alex", 0, "Kayak trip on the lake.")).await,
        w.ingest(note("alex", 1, "Kayak repair at the harbour."))
            .await,
    ];
    w.profile("alex", "Alex Johnson").await;
    let owner = w.read("/api/users/alex").await["owner_entity_key"]
        .as_str()
        .unwrap()
        .to_owned();
    let storyline = cosmo_shared::ids::storyline_id(&owner, &keys[0]);
    w.svc
        .graph
        .create_storyline(&cosmo_shared::domain::NewStoryline {
            storyline_id: storyline.clone(),
            user_id: "alex".into(),
            anchor_key: owner.clone(),
            description: "Kayaking on the lake.".into(),
            embedding: None,
            source_keys: keys.clone(),
            at: super::world::day(2),
        })
        .await
        .unwrap();
    for n in 1..=2 {
        let view = w.read(&format!("/api/storylines/{storyline}")).await;
        assert_eq!(view["source_count"], 2);
        let m = w.memory("storyline", &storyline).await;
        assert_eq!(m["lifecycle"]["access_count"], n, "{m}");
    }
    let (status, _) = w.api.get("/api/storylines/no-such-storyline").await;
    assert_eq!(status, reqwest::StatusCode::NOT_FOUND);
    let (status, _) = w.api.get("/api/macros/no-such-macro").await;
    assert_eq!(status, reqwest::StatusCode::NOT_FOUND);
}
