//! Lifecycle control over HTTP: pin and unpin (a pinned memory refuses state changes and
//! keeps its state under decay), archive and restore, and the event log that records each
//! with the previous and new state, the reason and the actor.

use cosmo_shared::queue::JobKind;
use reqwest::StatusCode;
use serde_json::{Value, json};

use super::world::{World, node_named, note};

async fn act(w: &World, kind: &str, key: &str, action: &str) -> (StatusCode, Value) {
    w.api
        .post(&format!("/api/memories/{kind}/{key}/{action}"), &json!({}))
        .await
}

#[tokio::test]
async fn pin_unpin_archive_restore_and_their_log() {
    let w = World::new().await;
    w.ingest(note("alex", 0, "Had lunch with Sarah Chen. Sarah Chen leads the Berlin launch. She will hire two engineers."))
        .await;
    let sarah = node_named(&w, "alex", "Sarah Chen").await;
    let state = |m: &Value| m["lifecycle"]["state"].as_str().unwrap().to_owned();
    let start = state(&w.memory("node", &sarah).await);

    let steps = [
        ("pin", StatusCode::OK, true, Some("pinned")),
        ("pin", StatusCode::OK, false, None),
        ("archive", StatusCode::CONFLICT, false, None),
        ("restore", StatusCode::CONFLICT, false, None),
        ("unpin", StatusCode::OK, true, Some("unpinned")),
        ("archive", StatusCode::OK, true, Some("archived_by_user")),
        ("archive", StatusCode::OK, false, None),
        ("restore", StatusCode::OK, true, Some("restored_by_user")),
        ("restore", StatusCode::OK, false, None),
    ];
    for (i, (action, status, changed, reason)) in steps.into_iter().enumerate() {
        w.at(i as i64 + 1);
        let (got, answer) = act(&w, "node", &sarah, action).await;
        assert_eq!(got, status, "step {i} {action}: {answer}");
        if status == StatusCode::OK {
            assert_eq!(answer["changed"], changed, "step {i} {action}: {answer}");
            assert_eq!(answer["event"]["reason"].as_str(), reason, "step {i}");
            assert_eq!(
                answer["memory"],
                w.memory("node", &sarah).await,
                "the stored memory"
            );
        } else {
            assert_eq!(answer["error"]["code"], "conflict", "{answer}");
        }
    }
    let m = w.memory("node", &sarah).await;
    assert_eq!(
        (state(&m), m["lifecycle"]["pinned"].as_bool()),
        ("active".into(), Some(false))
    );

    let log = w.read(&format!("/api/memories/node/{sarah}/events")).await;
    let seen: Vec<(String, String, String, String)> = log["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let s = |f: &str| e[f].as_str().unwrap().to_owned();
            (s("previous_state"), s("new_state"), s("reason"), s("actor"))
        })
        .collect();
    let e =
        |a: &str, b: &str, r: &str| (a.to_owned(), b.to_owned(), r.to_owned(), "user".to_owned());
    assert_eq!(
        seen,
        [
            e(&start, &start, "pinned"),
            e(&start, &start, "unpinned"),
            e(&start, "archived", "archived_by_user"),
            e("archived", "active", "restored_by_user"),
        ],
        "oldest first"
    );

    for (path, status) in [
        (
            format!("/api/memories/node/{sarah}/forget"),
            StatusCode::NOT_FOUND,
        ),
        (
            format!("/api/memories/planet/{sarah}/pin"),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            "/api/memories/node/no-such-node/pin".to_owned(),
            StatusCode::NOT_FOUND,
        ),
    ] {
        let (got, answer) = w.api.post(&path, &json!({})).await;
        assert_eq!(got, status, "{path}: {answer}");
    }
}

#[tokio::test]
async fn decay_leaves_pinned_memories_in_their_state() {
    let w = World::new().await;
    let pinned = w
        .ingest(note("alex", 0, "Kayak lessons with Dana Park on the lake."))
        .await;
    let loose = w
        .ingest(note(
            "alex",
            0,
            "Kayak repair at the harbour with Dana Park.",
        ))
        .await;
    // Recalled once, both are active memories that decay.
    w.explore("alex", "kayak", 1).await;
    for key in [&pinned, &loose] {
        assert_eq!(
            w.memory("source", key).await["lifecycle"]["state"],
            "active"
        );
    }
    act(&w, "source", &pinned, "pin").await;
    w.run(JobKind::Decay, 700).await;
    let faded = w.memory("source", &loose).await;
    assert_eq!(
        faded["lifecycle"]["state"], "archived",
        "two years unrecalled: {faded}"
    );
    let kept = w.memory("source", &pinned).await;
    assert_eq!(kept["lifecycle"]["state"], "active", "pinned: {kept}");
}

#[tokio::test]
async fn archived_relationships_leave_explore_unless_asked() {
    let w = World::new().await;
    w.profile("alex", "Alex Johnson").await;
    w.ingest(super::explore::call("Marco Rossi", 0, "vineyard harvest"))
        .await;
    let marco = node_named(&w, "alex", "Marco Rossi").await;
    let relationships = |answer: &Value| -> Vec<String> {
        let nodes = answer["nodes"].as_array().unwrap();
        let node = nodes.iter().find(|n| n["entity_key"] == marco.as_str());
        let node = node.unwrap_or_else(|| panic!("Marco found: {answer}"));
        let rels = node["relationships"].as_array().unwrap();
        rels.iter()
            .map(|r| r["rel_key"].as_str().unwrap().to_owned())
            .collect()
    };
    let shown = relationships(&w.explore("alex", "Marco Rossi", 1).await);
    assert!(!shown.is_empty(), "the premise: Marco has relationships");
    let (status, answer) = act(&w, "relationship", &shown[0], "archive").await;
    assert_eq!(status, StatusCode::OK, "{answer}");

    let hidden = relationships(&w.explore("alex", "Marco Rossi", 1).await);
    assert!(!hidden.contains(&shown[0]), "archived: left out");
    let body = json!({ "user_id": "alex", "queries": [{ "query": "Marco Rossi" }], "include_archived": true });
    let all = relationships(&w.ok("/api/explore", body).await);
    assert!(all.contains(&shown[0]), "archived: shown when asked");
}
