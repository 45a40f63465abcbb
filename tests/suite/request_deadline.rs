//! A store that hangs costs a client `server.request_timeout_secs` at most: with the
//! embedded store's write lock held by another process, a post is answered 503 with
//! `Retry-After` instead of waiting out SQLite's 30 s busy timeout, and once the lock is
//! released the retried post is accepted, once.

use std::time::{Duration, Instant};

use chrono::Utc;
use cosmo_tests::http::Api;
use cosmo_tests::stores;
use reqwest::StatusCode;
use serde_json::{Value, json};
use sqlx::{Connection, Executor, SqliteConnection};

#[tokio::test]
async fn a_held_write_lock_is_a_503_to_retry_and_nothing_is_lost() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cosmo.db");
    let url = format!("sqlite://{}", db.display());
    let mut config = stores::test_config(&url, &db);
    config.server.request_timeout_secs = 1;
    let svc = stores::connect(config).await;
    let (key, _) = svc
        .directory
        .create_api_key("acme", "app", false, Utc::now())
        .await
        .unwrap();
    let base = cosmo_tests::http::serve(&svc).await;
    let note = json!({
        "user_id": "alex", "source_type": "text-note",
        "raw_content": { "content": "Lunch with Sarah Chen from Acme Corp." },
    });
    let post = || {
        reqwest::Client::new()
            .post(format!("{base}/api/sources"))
            .bearer_auth(&key)
            .json(&note)
            .send()
    };

    // Another process takes the write lock and keeps it.
    let mut holder = SqliteConnection::connect(&url).await.unwrap();
    holder.execute("BEGIN IMMEDIATE").await.unwrap();
    let started = Instant::now();
    let refused = post().await.unwrap();
    let waited = started.elapsed();
    assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(
        refused.headers().contains_key("retry-after"),
        "says when to retry"
    );
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"]["code"], "service_unavailable", "{body}");
    assert!(
        waited < Duration::from_secs(10),
        "answered after the request timeout, not SQLite's 30 s busy wait: {waited:?}"
    );
    // Other requests are answered meanwhile: reads do not wait for the writer.
    let api = Api::new(&base, Some(&key));
    assert_eq!(api.get("/healthz").await.0, StatusCode::OK);

    // The lock is released; the client retries.
    holder.execute("ROLLBACK").await.unwrap();
    let accepted = post().await.unwrap();
    assert_eq!(accepted.status(), StatusCode::ACCEPTED);
    let again = post().await.unwrap();
    assert_eq!(
        again.status(),
        StatusCode::OK,
        "the retry of a retry is a duplicate"
    );
    let stored = svc.graph.sources_for_user("alex", None, 10).await.unwrap();
    assert_eq!(stored.len(), 1, "one Source: nothing lost, nothing twice");
}
