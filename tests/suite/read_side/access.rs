//! Returned memories are recalled (the relationships shown with a node too): access
//! count, salience boost and state transitions —
//! candidate → active on first recall, → core at ten — visible through the memory
//! endpoints; archived memories read with `include_archived` stay archived (only
//! `restore` brings them back); pinned memories keep their state. A team Source shown to
//! a participant starts their lazy extraction.

use cosmo_shared::domain::ExtractionStatus;
use cosmo_shared::queue::JobKind;
use cosmo_shared::queue::payloads::ExtractEntities;
use reqwest::StatusCode;
use serde_json::{Value, json};

use super::world::{World, day, keys_of, node_named, note};

const KAYAK: &str = "Had kayak lessons with Maria Lopez at the lake. Maria Lopez is the new kayak coach at the club. She moved from Oslo.";

async fn events(w: &World, kind: &str, key: &str) -> Vec<(String, String, String, String)> {
    let answer = w.read(&format!("/api/memories/{kind}/{key}/events")).await;
    answer["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let s = |f: &str| e[f].as_str().unwrap().to_owned();
            (s("previous_state"), s("new_state"), s("reason"), s("actor"))
        })
        .collect()
}

fn event(from: &str, to: &str, reason: &str, actor: &str) -> (String, String, String, String) {
    (from.into(), to.into(), reason.into(), actor.into())
}

fn lifecycle(m: &Value) -> (String, i64, f64) {
    let l = &m["lifecycle"];
    (
        l["state"].as_str().unwrap().to_owned(),
        l["access_count"].as_i64().unwrap(),
        l["salience"].as_f64().unwrap(),
    )
}

#[tokio::test]
async fn each_recall_counts_and_moves_the_state() {
    let w = World::new().await;
    let key = w.ingest(note("alex", 0, KAYAK)).await;
    let other = w
        .ingest(note("alex", 0, "Tomatoes need water in July."))
        .await;
    let maria = node_named(&w, "alex", "Maria Lopez").await;
    let before = w.memory("source", &key).await;
    let (state, count, salience) = lifecycle(&before);
    assert_eq!((state.as_str(), count), ("candidate", 0));

    let boost = w.svc.config.lifecycle.access_boost;
    // A threshold keeps the tomato note, a weak vector match, out of the answer: what
    // is not returned is not recalled.
    let answer = w
        .ok(
            "/api/explore",
            serde_json::json!({ "user_id": "alex",
                "queries": [{ "query": "kayak lessons with Maria Lopez", "threshold": 0.3 }] }),
        )
        .await;
    assert_eq!(
        keys_of(&answer, "sources", "entity_key"),
        [key.as_str()],
        "{answer}"
    );
    assert_eq!(
        answer["sources"][0]["state"], "active",
        "the answer shows the new state"
    );
    let after = w.memory("source", &key).await;
    let (state, count, boosted) = lifecycle(&after);
    assert_eq!((state.as_str(), count), ("active", 1));
    assert!(
        (boosted - (salience + boost).min(1.0)).abs() < 1e-9,
        "{boosted} after {salience}"
    );
    assert_eq!(
        after["lifecycle"]["last_accessed_at"],
        day(0).to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)
    );
    assert_eq!(
        events(&w, "source", &key).await,
        [event("candidate", "active", "accessed", "system")]
    );
    assert_eq!(
        lifecycle(&w.memory("source", &other).await).1,
        0,
        "not returned, not recalled"
    );
    let nodes = keys_of(&answer, "nodes", "entity_key");
    assert!(nodes.contains(&maria), "Maria Lopez is found too: {answer}");
    for node in &nodes {
        let (state, count, _) = lifecycle(&w.memory("node", node).await);
        assert_eq!(
            (state.as_str(), count),
            ("active", 1),
            "returned nodes are recalled too"
        );
    }

    for n in 2..=10 {
        w.at(n);
        w.explore("alex", "kayak lessons with Maria Lopez", 1).await;
        let (state, count, _) = lifecycle(&w.memory("source", &key).await);
        assert_eq!(count, n);
        assert_eq!(
            state,
            if n < 10 { "active" } else { "core" },
            "after {n} recalls"
        );
    }
    let log = events(&w, "source", &key).await;
    assert_eq!(
        log.last(),
        Some(&event("active", "core", "frequently_accessed", "system"))
    );
}

#[tokio::test]
async fn the_relationships_shown_with_a_node_are_recalled_with_it() {
    let w = World::new().await;
    w.profile("alex", "Alex Johnson").await;
    w.ingest(super::explore::call("Marco Rossi", 0, "vineyard harvest"))
        .await;
    let marco = node_named(&w, "alex", "Marco Rossi").await;
    let answer = w.explore("alex", "Marco Rossi", 1).await;
    let shown: Vec<String> = answer["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|n| n["relationships"].as_array().unwrap())
        .map(|r| r["rel_key"].as_str().unwrap().to_owned())
        .collect();
    assert!(!shown.is_empty(), "the premise: {answer}");
    let recalls = |rel: &str| {
        let w = &w;
        let rel = rel.to_owned();
        async move { lifecycle(&w.memory("relationship", &rel).await) }
    };
    for rel in &shown {
        let (state, count, _) = recalls(rel).await;
        assert_eq!(
            (state.as_str(), count),
            ("active", 1),
            "shown once, recalled once (listed under both its ends or not)"
        );
    }
    // Reading Marco recalls the relationships it lists.
    let view = w.read(&format!("/api/entities/{marco}")).await;
    for r in view["relationships"].as_array().unwrap() {
        let rel = r["rel_key"].as_str().unwrap();
        let before = if shown.iter().any(|s| s == rel) { 1 } else { 0 };
        assert_eq!(recalls(rel).await.1, before + 1, "{rel}");
    }
}

#[tokio::test]
async fn archived_memories_come_back_only_when_asked_and_stay_archived() {
    let w = World::new().await;
    let key = w.ingest(note("alex", 0, KAYAK)).await;
    let (status, archived) = w
        .api
        .post(&format!("/api/memories/source/{key}/archive"), &json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{archived}");
    let hidden = w.explore("alex", "kayak lessons", 1).await;
    assert!(
        keys_of(&hidden, "sources", "entity_key").is_empty(),
        "{hidden}"
    );
    assert_eq!(
        lifecycle(&w.memory("source", &key).await).0,
        "archived",
        "not recalled"
    );

    w.at(1);
    let body = json!({ "user_id": "alex", "queries": [{ "query": "kayak lessons" }], "include_archived": true });
    let found = w.ok("/api/explore", body).await;
    assert_eq!(keys_of(&found, "sources", "entity_key"), [key.as_str()]);
    assert_eq!(found["sources"][0]["state"], "archived", "{found}");
    let (state, count, _) = lifecycle(&w.memory("source", &key).await);
    assert_eq!(
        (state.as_str(), count),
        ("archived", 1),
        "recalled (counted), not restored"
    );
    assert_eq!(
        events(&w, "source", &key).await,
        [event("candidate", "archived", "archived_by_user", "user")]
    );

    let (status, _) = w
        .api
        .post(&format!("/api/memories/source/{key}/restore"), &json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "restoring is the user's action");
    assert_eq!(lifecycle(&w.memory("source", &key).await).0, "active");
}

#[tokio::test]
async fn pinned_memories_are_recalled_without_changing_state() {
    let w = World::new().await;
    let key = w.ingest(note("alex", 0, KAYAK)).await;
    let (status, _) = w
        .api
        .post(&format!("/api/memories/source/{key}/pin"), &json!({}))
        .await;
    assert_eq!(status, StatusCode::OK);
    for n in 1..=10 {
        w.at(n);
        w.explore("alex", "kayak lessons", 1).await;
    }
    let (state, count, _) = lifecycle(&w.memory("source", &key).await);
    assert_eq!(
        (state.as_str(), count),
        ("candidate", 10),
        "counted, never moved"
    );
    assert_eq!(
        events(&w, "source", &key).await,
        [event("candidate", "candidate", "pinned", "user")]
    );
}

#[tokio::test]
async fn a_team_source_shown_to_a_participant_starts_their_extraction() {
    let w = World::new().await;
    w.profile("carol", "Carol King").await;
    let team = json!({
        "user_id": "alex", "team_id": "crew", "participants": ["jordan"],
        "source_type": "text-note", "started_at": day(0).to_rfc3339(),
        "raw_content": { "content": "Crew meeting with Priya Patel about the sailing regatta. Priya Patel will skipper the boat. She trained all summer." },
    });
    let key = w.ingest(team).await;
    let graph = &w.svc.graph;
    assert_eq!(
        graph.extraction(&key, "jordan").await.unwrap(),
        None,
        "not yet for jordan"
    );
    let job_key = ExtractEntities::key(&key, "jordan");

    let mine = w.explore("alex", "sailing regatta", 1).await;
    assert_eq!(keys_of(&mine, "sources", "entity_key"), [key.as_str()]);
    assert_eq!(
        graph.extraction(&key, "jordan").await.unwrap(),
        None,
        "the owner's recall asks nothing for others"
    );
    let none = w.explore("carol", "sailing regatta", 1).await;
    assert!(
        keys_of(&none, "sources", "entity_key").is_empty(),
        "not a participant: {none}"
    );
    assert_eq!(graph.extraction(&key, "carol").await.unwrap(), None);

    let shown = w.explore("jordan", "sailing regatta", 1).await;
    assert_eq!(keys_of(&shown, "sources", "entity_key"), [key.as_str()]);
    assert_eq!(
        shown["sources"][0]["user_id"], "alex",
        "shown as alex's Source"
    );
    let record = graph
        .extraction(&key, "jordan")
        .await
        .unwrap()
        .expect("requested");
    assert_eq!(record.status, ExtractionStatus::Pending);
    let job = w
        .svc
        .queue
        .job_by_key(JobKind::ExtractEntities, &job_key)
        .await
        .unwrap();
    assert!(
        job.is_some_and(|j| j.is_live()),
        "jordan's extraction is queued"
    );
    assert!(
        keys_of(&shown, "nodes", "entity_key").is_empty(),
        "jordan has no graph yet"
    );

    w.extract(&key, "jordan").await;
    let after = w.explore("jordan", "Priya Patel sailing", 1).await;
    let names: Vec<&str> = after["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"Priya Patel"),
        "jordan's own graph now: {names:?}"
    );
    let record = graph.extraction(&key, "jordan").await.unwrap().unwrap();
    assert_eq!(record.status, ExtractionStatus::Extracted);
}
