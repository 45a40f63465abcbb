//! A store that hangs costs a client little: with the embedded store's write lock held
//! by another connection, a post is answered 503 with `Retry-After` after
//! `server.lock_wait_ms` (1.5 s), or `server.request_timeout_secs` if that comes first,
//! instead of waiting out SQLite's 30 s busy timeout; once the lock is released the
//! retried post is accepted, once.

use std::time::{Duration, Instant};

use chrono::Utc;
use cosmo_shared::config::Config;
use cosmo_tests::http::Api;
use cosmo_tests::stores;
use reqwest::StatusCode;
use serde_json::{Value, json};
use sqlx::{Connection, Executor, SqliteConnection};

/// Posts a Source while another connection holds the write lock, then after it lets
/// go; `settings` adjusts the test configuration.
async fn post_through_a_held_lock(settings: impl FnOnce(&mut Config)) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cosmo.db");
    let url = format!("sqlite://{}", db.display());
    let mut config = stores::test_config(&url, &db);
    settings(&mut config);
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
        cosmo_shared::http::client()
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
        "answered within the request's wait, not SQLite's 30 s busy timeout: {waited:?}"
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

#[tokio::test]
async fn a_held_write_lock_is_a_503_to_retry_and_nothing_is_lost() {
    post_through_a_held_lock(|_| {}).await;
}

#[tokio::test]
async fn a_request_past_its_timeout_is_a_503_to_retry_and_nothing_is_lost() {
    post_through_a_held_lock(|c| {
        c.server.lock_wait_ms = 30_000;
        c.server.request_timeout_secs = 1;
    })
    .await;
}
