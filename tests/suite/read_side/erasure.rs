//! Erasure over HTTP: `DELETE /api/sources/{key}` and `DELETE /api/facts/{id}` remove
//! every trace — graph and queued jobs — and the erased words are in no table, no
//! full-text term and no byte of the SQLite file afterwards (users: `erase_user`).

use cosmo_shared::queue::JobKind;
use cosmo_shared::queue::payloads::ExtractEntities;
use cosmo_tests::traces;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use super::world::{World, node_named, note};

pub(super) async fn delete(w: &World, path: &str) -> (StatusCode, Value) {
    w.api.send(Method::DELETE, path, None, &[]).await
}

/// Asserts `word` is in no table, index term or byte of the store (after a checkpoint).
pub(super) async fn assert_nowhere(w: &World, word: &str) {
    let pool = w.pool();
    assert_eq!(
        traces::columns_holding(&pool, word).await,
        [],
        "{word}: columns"
    );
    assert_eq!(
        traces::fts_terms_starting(&pool, word).await,
        [],
        "{word}: index terms"
    );
    traces::checkpoint(&pool).await;
    assert_eq!(
        traces::files_holding(&w.db, word),
        Vec::<String>::new(),
        "{word}: file bytes"
    );
}

/// Job rows (idempotency key and payload) mentioning `needle`.
pub(super) async fn jobs_mentioning(w: &World, needle: &str) -> Vec<String> {
    sqlx::query_scalar(
        "SELECT coalesce(idempotency_key, '') || ' ' || coalesce(CAST(job AS TEXT), '') FROM Jobs",
    )
    .fetch_all(&w.pool())
    .await
    .unwrap()
    .into_iter()
    .filter(|row: &String| row.contains(needle))
    .collect()
}

#[tokio::test]
async fn deleting_a_source_removes_every_trace() {
    let w = World::new().await;
    w.profile("alex", "Alex Johnson").await;
    let gone = w
        .ingest(note(
            "alex",
            0,
            "Had lunch with Priya Patel about the zorblax launch. Priya Patel owns the zorblax timeline. She moved it to May.",
        ))
        .await;
    let kept = w
        .ingest(note(
            "alex",
            1,
            "Had lunch with Priya Patel about the budget. Priya Patel owns the budget plan. She moved it to June.",
        ))
        .await;
    let (status, f) = w
        .api
        .post("/api/facts", &json!({ "user_id": "alex", "text": "The zorblax launch is in May", "source_keys": [gone] }))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{f}");
    let fact = f["fact"]["fact_id"].as_str().unwrap().to_owned();
    let found = w.explore("alex", "zorblax launch", 1).await;
    assert!(
        found.to_string().contains(&gone),
        "the premise: it is found"
    );
    let priya = node_named(&w, "alex", "Priya Patel").await;
    assert_eq!(
        w.read(&format!("/api/entities/{priya}")).await["sources"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    let extract_key = ExtractEntities::key(&gone, "alex");
    let queue = &w.svc.queue;
    assert!(
        queue
            .job_by_key(JobKind::ProcessSource, &gone)
            .await
            .unwrap()
            .is_some()
    );
    assert!(
        queue
            .job_by_key(JobKind::ExtractEntities, &extract_key)
            .await
            .unwrap()
            .is_some()
    );

    let (status, report) = delete(&w, &format!("/api/sources/{gone}")).await;
    assert_eq!(status, StatusCode::OK, "{report}");
    assert_eq!(
        (report["sources"].as_u64(), report["facts"].as_u64()),
        (Some(1), Some(1)),
        "{report}"
    );
    assert_eq!(
        report["jobs_purged"], 2,
        "its processing and its extraction: {report}"
    );
    assert_eq!(report["source_keys"], json!([gone]));

    assert_eq!(
        w.api.get(&format!("/api/sources/{gone}")).await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        w.api.get(&format!("/api/facts/{fact}")).await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        delete(&w, &format!("/api/sources/{gone}")).await.0,
        StatusCode::NOT_FOUND
    );
    assert!(
        queue
            .job_by_key(JobKind::ProcessSource, &gone)
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        queue
            .job_by_key(JobKind::ExtractEntities, &extract_key)
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        queue
            .job_by_key(JobKind::ProcessSource, &kept)
            .await
            .unwrap()
            .is_some(),
        "others' jobs stay"
    );
    let entity = w.read(&format!("/api/entities/{priya}")).await;
    let listed: Vec<&str> = entity["sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["entity_key"].as_str().unwrap())
        .collect();
    assert_eq!(listed, [kept.as_str()]);
    let after = w.explore("alex", "zorblax launch", 1).await;
    assert!(
        !after.to_string().to_lowercase().contains("zorblax"),
        "{after}"
    );
    let ctx = w
        .ok(
            "/api/context",
            json!({ "user_id": "alex", "message": "zorblax launch", "budget_tokens": 16000 }),
        )
        .await;
    assert!(!ctx.to_string().to_lowercase().contains("zorblax"), "{ctx}");
    assert_nowhere(&w, "zorblax").await;
}

#[tokio::test]
async fn a_deleted_fact_is_nowhere_in_the_file() {
    let w = World::new().await;
    w.profile("alex", "Alex Johnson").await;
    let (_, first) = w
        .api
        .post(
            "/api/facts",
            &json!({ "user_id": "alex", "text": "My locker code is quembrik 4471" }),
        )
        .await;
    let first = first["fact"]["fact_id"].as_str().unwrap().to_owned();
    w.ok(&format!("/api/facts/{first}/confirm"), json!({}))
        .await;
    let (status, second) = w
        .api
        .post(
            &format!("/api/facts/{first}/corrections"),
            &json!({ "text": "My locker code changed" }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{second}");
    let keep = w
        .api
        .post(
            "/api/facts",
            &json!({ "user_id": "alex", "text": "Likes the sea" }),
        )
        .await
        .1;
    let pool = w.pool();
    assert!(
        !traces::columns_holding(&pool, "quembrik").await.is_empty(),
        "the premise"
    );
    assert!(
        !traces::fts_terms_starting(&pool, "quembrik")
            .await
            .is_empty(),
        "the premise"
    );

    let second = second["fact_id"].as_str().unwrap();
    let (status, report) = delete(&w, &format!("/api/facts/{second}")).await;
    assert_eq!(
        (status, report["facts"].as_u64()),
        (StatusCode::OK, Some(2)),
        "with its history: {report}"
    );
    assert_nowhere(&w, "quembrik").await;
    let left = w
        .read("/api/facts?user_id=alex&include_inactive=true")
        .await;
    assert_eq!(left["facts"].as_array().unwrap().len(), 1, "{left}");
    assert_eq!(left["facts"][0]["fact_id"], keep["fact"]["fact_id"]);
}
