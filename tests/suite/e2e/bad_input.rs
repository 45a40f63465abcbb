//! Every way a request can be wrong gets its own status and a JSON error naming what is
//! wrong, and writes nothing.

use cosmo_shared::graph::ports::*;
use cosmo_shared::graph::sqlite::SqliteGraph;
use cosmo_tests::fixtures;
use cosmo_tests::process;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

const KEY: &str = "bad-input-key";

fn assert_error(
    what: &str,
    got: (StatusCode, Value),
    status: StatusCode,
    code: &str,
    field: Option<&str>,
) {
    let (got_status, body) = got;
    assert_eq!(got_status, status, "{what}: {body}");
    assert_eq!(body["error"]["code"], code, "{what}: {body}");
    assert!(
        !body["error"]["message"].as_str().unwrap_or("").is_empty(),
        "{what}: a message"
    );
    if let Some(field) = field {
        assert_eq!(body["error"]["field"], field, "{what}: {body}");
    }
}

#[tokio::test]
async fn bad_requests_get_precise_errors_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, api) = process::embedded(
        dir.path(),
        KEY,
        &[("COSMO_SERVER__BODY_LIMIT_BYTES", "8192")],
    )
    .await;
    let post = |body: Value| {
        let api = api.clone();
        async move { api.post("/api/sources", &body).await }
    };
    let note = fixtures::text_note("alice");
    let with = |edit: &dyn Fn(&mut Value)| {
        let mut b = note.clone();
        edit(&mut b);
        b
    };

    // 401: no key, a malformed header, an unknown key.
    assert_error(
        "no key",
        api.with_key(None).post("/api/sources", &note).await,
        StatusCode::UNAUTHORIZED,
        "unauthorized",
        None,
    );
    let basic = api
        .with_key(None)
        .send(
            Method::POST,
            "/api/sources",
            Some(b"{}".to_vec()),
            &[("authorization", "Basic abc")],
        )
        .await;
    assert_error(
        "basic auth",
        basic,
        StatusCode::UNAUTHORIZED,
        "unauthorized",
        None,
    );
    assert_error(
        "unknown key",
        api.with_key(Some("nope")).post("/api/sources", &note).await,
        StatusCode::UNAUTHORIZED,
        "unauthorized",
        None,
    );

    // 400: not JSON at all, or empty.
    let raw = |bytes: &[u8]| api.send(Method::POST, "/api/sources", Some(bytes.to_vec()), &[]);
    assert_error(
        "malformed JSON",
        raw(b"{\"user_id\": ").await,
        StatusCode::BAD_REQUEST,
        "invalid_json",
        None,
    );
    assert_error(
        "empty body",
        raw(b"").await,
        StatusCode::BAD_REQUEST,
        "invalid_json",
        None,
    );
    // A key named twice is ambiguous (parsers disagree on which wins): refused.
    let twice = raw(
        br#"{"user_id": "alice", "source_type": "text-note", "user_id": "bob",
        "raw_content": {"content": "hi"}}"#,
    )
    .await;
    assert!(
        twice.1["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("user_id")),
        "{}",
        twice.1
    );
    assert_error(
        "duplicate key",
        twice,
        StatusCode::BAD_REQUEST,
        "invalid_json",
        None,
    );

    // 413: over the configured limit.
    let big = with(&|b| b["raw_content"]["content"] = json!("x".repeat(10_000)));
    assert_error(
        "too large",
        post(big).await,
        StatusCode::PAYLOAD_TOO_LARGE,
        "payload_too_large",
        None,
    );

    // 422: each field named.
    let cases: Vec<(&str, Value, &str, &str)> = vec![
        (
            "missing user_id",
            with(&|b| drop(b.as_object_mut().unwrap().remove("user_id"))),
            "validation_failed",
            "user_id",
        ),
        (
            "unknown source type",
            with(&|b| b["source_type"] = json!("fax")),
            "unknown_source_type",
            "source_type",
        ),
        (
            "missing raw content",
            with(&|b| drop(b.as_object_mut().unwrap().remove("raw_content"))),
            "validation_failed",
            "raw_content",
        ),
        (
            "empty note",
            with(&|b| b["raw_content"]["content"] = json!("  ")),
            "validation_failed",
            "raw_content.content",
        ),
        (
            "bad user id",
            with(&|b| b["user_id"] = json!("al ice")),
            "validation_failed",
            "user_id",
        ),
        (
            "bad participant",
            with(&|b| b["participants"] = json!(["bob", "no/slash"])),
            "validation_failed",
            "participants[1]",
        ),
        (
            "bad time",
            with(&|b| b["started_at"] = json!("yesterday")),
            "validation_failed",
            "started_at",
        ),
        (
            "bad ttl",
            with(&|b| b["ttl_policy"] = json!("forever")),
            "validation_failed",
            "ttl_policy",
        ),
        (
            "typo'd field",
            with(&|b| b["participant"] = json!(["bob"])),
            "validation_failed",
            "participant",
        ),
        (
            "email without body",
            json!({"user_id": "alice", "source_type": "email", "raw_content": {"from": "a@b.c"}}),
            "validation_failed",
            "raw_content.body",
        ),
        (
            "slack message without user",
            json!({"user_id": "alice", "source_type": "slack-thread", "raw_content": {"channel": "c", "messages": [{"text": "hi"}]}}),
            "validation_failed",
            "raw_content.messages[0].user",
        ),
    ];
    for (what, body, code, field) in cases {
        assert_error(
            what,
            post(body).await,
            StatusCode::UNPROCESSABLE_ENTITY,
            code,
            Some(field),
        );
    }
    let bad_header = api
        .send(
            Method::POST,
            "/api/sources",
            Some(note.to_string().into_bytes()),
            &[("idempotency-key", "")],
        )
        .await;
    assert_error(
        "empty idempotency key",
        bad_header,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
        Some("Idempotency-Key"),
    );
    assert_error(
        "profile without name",
        api.put("/api/users/alice", &json!({})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
        Some("full_name"),
    );
    assert_error(
        "unknown query parameter",
        api.get("/api/sources/x?as=bob").await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
        None,
    );

    // Nothing above wrote a Source or a user.
    let g = SqliteGraph::open(&dir.path().join("cosmo.db"))
        .await
        .unwrap();
    assert!(
        g.sources_for_user("alice", None, 10)
            .await
            .unwrap()
            .is_empty(),
        "no source written"
    );
    assert_eq!(
        api.get("/api/users/alice").await.0,
        StatusCode::NOT_FOUND,
        "no user registered"
    );

    // 409: an idempotency key reused for different content.
    let keyed = |content: &str| {
        let body = with(&|b| b["raw_content"]["content"] = json!(content));
        api.send(
            Method::POST,
            "/api/sources",
            Some(body.to_string().into_bytes()),
            &[("idempotency-key", "upload-7")],
        )
    };
    let (status, first) = keyed("First version.").await;
    assert_eq!(status, StatusCode::ACCEPTED);
    let (status, again) = keyed("First version.").await;
    assert_eq!(
        (status, again["duplicate"].as_bool(), &again["entity_key"]),
        (StatusCode::OK, Some(true), &first["entity_key"])
    );
    assert_error(
        "key reuse",
        keyed("Second version.").await,
        StatusCode::CONFLICT,
        "conflict",
        None,
    );
    assert_eq!(
        g.sources_for_user("alice", None, 10).await.unwrap().len(),
        1,
        "one source for the key"
    );
    // The integration's own id de-duplicates the same way, without any header.
    let client = &api;
    let external = |content: &str| {
        let body = with(&|b| {
            b["raw_content"]["content"] = json!(content);
            b["external_id"] = json!("gmail:msg-42");
        });
        async move { client.post("/api/sources", &body).await }
    };
    let (status, mail) = external("The mail as first synced.").await;
    assert_eq!(status, StatusCode::ACCEPTED, "{mail}");
    let (status, resync) = external("The mail as first synced.").await;
    assert_eq!(
        (status, resync["duplicate"].as_bool(), &resync["entity_key"]),
        (StatusCode::OK, Some(true), &mail["entity_key"])
    );
    assert_error(
        "external id reuse",
        external("Edited after the first sync.").await,
        StatusCode::CONFLICT,
        "conflict",
        None,
    );
    assert_eq!(
        g.sources_for_user("alice", None, 10).await.unwrap().len(),
        2,
        "one source per idempotency key and one per external id"
    );
    let reuse_with_new_user = with(&|b| {
        b["raw_content"]["content"] = json!("Third version.");
        b["participants"] = json!(["zoe"]);
    });
    let refused = api
        .send(
            Method::POST,
            "/api/sources",
            Some(reuse_with_new_user.to_string().into_bytes()),
            &[("idempotency-key", "upload-7")],
        )
        .await;
    assert_error(
        "key reuse with a new participant",
        refused,
        StatusCode::CONFLICT,
        "conflict",
        None,
    );
    assert_eq!(
        api.get("/api/users/zoe").await.0,
        StatusCode::NOT_FOUND,
        "a refused request registers nobody"
    );

    // Another tenant's key: its `alice` is its own user, and acme's Sources do not
    // exist for it.
    let other = create_key(dir.path(), "other-tenant").await;
    let other_api = api.with_key(Some(&other));
    let (status, theirs) = other_api
        .post("/api/sources", &fixtures::text_note("alice"))
        .await;
    assert_eq!(
        status,
        StatusCode::ACCEPTED,
        "the other tenant's alice: {theirs}"
    );
    let (status, profile) = other_api
        .put("/api/users/alice", &json!({"full_name": "Alice Other"}))
        .await;
    assert_eq!(
        (status, profile["user_id"].as_str()),
        (StatusCode::OK, Some("alice")),
        "{profile}"
    );
    let key = first["entity_key"].as_str().unwrap();
    assert_error(
        "other tenant's source",
        other_api.get(&format!("/api/sources/{key}")).await,
        StatusCode::NOT_FOUND,
        "not_found",
        None,
    );
    assert_error(
        "unknown source",
        api.get("/api/sources/no-such-source").await,
        StatusCode::NOT_FOUND,
        "not_found",
        None,
    );
    // A path that exists, with a method it does not take: 405 in JSON, with the
    // methods it does take.
    let resp = cosmo_shared::http::client()
        .delete(format!("{}/api/sources", api.base))
        .bearer_auth(KEY)
        .send()
        .await
        .unwrap();
    assert_eq!(
        resp.headers().get("allow").and_then(|v| v.to_str().ok()),
        Some("POST"),
        "the allow header"
    );
    let status = resp.status();
    assert_error(
        "wrong method",
        (status, resp.json().await.unwrap_or(Value::Null)),
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        None,
    );
    // A path segment that is not UTF-8 names nothing, and says so in JSON.
    for path in [
        "/api/sources/%ff",
        "/api/users/%C3%28",
        "/api/memories/node/%ff",
    ] {
        assert_error(
            path,
            api.get(path).await,
            StatusCode::NOT_FOUND,
            "not_found",
            None,
        );
    }
    assert_eq!(
        g.sources_for_user("alice", None, 10).await.unwrap().len(),
        2,
        "the other tenant's alice has her own Sources"
    );
    assert!(
        api.get("/api/users/alice").await.1["full_name"].is_null(),
        "alice's profile untouched by the other tenant's alice"
    );
}

/// `cosmo keys create` against the server's database.
async fn create_key(dir: &std::path::Path, tenant: &str) -> String {
    let db = dir.join("cosmo.db");
    let env = process::env(&format!("sqlite://{}", db.display()), &db, &[]);
    let out = std::process::Command::new(process::bin("cosmo"))
        .args(["keys", "create", "--tenant", tenant])
        .current_dir(dir)
        .envs(env)
        .env("COSMO_LOG__LEVEL", "error")
        .output()
        .expect("run cosmo keys create");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

/// A list is refused by its length before anything reads its elements: 150,000
/// participants (1.3 MB, under the body limit) get their 422 at once, and the service
/// answers others meanwhile (de-duplicating them element by element took 94 s of CPU).
#[tokio::test]
async fn a_huge_participant_list_is_refused_at_once_and_stalls_nobody() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, api) = process::embedded(dir.path(), KEY, &[]).await;
    let many: Vec<String> = (0..150_000).map(|i| format!("u{i}")).collect();
    let body = json!({
        "user_id": "alice", "source_type": "text-note", "participants": many,
        "raw_content": {"content": "hi"}
    });
    let posts: Vec<_> = (0..2)
        .map(|_| {
            let (api, body) = (api.clone(), body.clone());
            tokio::spawn(async move {
                let t = std::time::Instant::now();
                (api.post("/api/sources", &body).await, t.elapsed())
            })
        })
        .collect();
    let health = api.get("/healthz").await.0;
    for post in posts {
        let (answer, took) = post.await.unwrap();
        assert_error(
            "150,000 participants",
            answer,
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation_failed",
            Some("participants"),
        );
        // Generous for a debug build on a loaded machine; the quadratic check took
        // minutes here.
        assert!(took.as_secs() < 10, "refused in {took:?}");
    }
    assert_eq!(health, StatusCode::OK, "others are served meanwhile");
    assert_eq!(
        api.get("/api/users/u1").await.0,
        StatusCode::NOT_FOUND,
        "nobody was registered"
    );
}

/// A client that never finishes its request head loses the connection after
/// `server.header_read_timeout_secs`; one that never finishes its body gets a JSON 408
/// after `server.body_read_timeout_secs`; others are served meanwhile.
#[tokio::test]
async fn slow_clients_are_cut_off_while_others_are_served() {
    use tokio::time::{Duration, timeout};

    let dir = tempfile::tempdir().unwrap();
    let (_server, api) = process::embedded(
        dir.path(),
        KEY,
        &[
            ("COSMO_SERVER__HEADER_READ_TIMEOUT_SECS", "1"),
            ("COSMO_SERVER__BODY_READ_TIMEOUT_SECS", "1"),
        ],
    )
    .await;
    // Half a request head, never finished.
    let head = raw_request(&api, b"POST /api/sources HTTP/1.1\r\nHost: cosmo\r\n").await;
    let body = half_sent_body(&api).await;

    assert_eq!(
        api.get("/healthz").await.0,
        StatusCode::OK,
        "others are served"
    );
    let cut = timeout(Duration::from_secs(20), read_to_close(head))
        .await
        .expect("the half-sent head's connection is closed by the server");
    assert!(!cut.contains("202"), "{cut}");
    let answer = timeout(Duration::from_secs(20), read_to_close(body))
        .await
        .expect("the half-sent body gets its answer and the connection closes");
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("\"request_timeout\""), "{answer}");
    // On a new connection: the server also closes connections idle for the header
    // timeout, so the first check's pooled one may be closing just as it is reused.
    let fresh = cosmo_tests::http::Api::new(api.base.clone(), Some(KEY));
    assert_eq!(fresh.get("/healthz").await.0, StatusCode::OK);
}

/// A key with `server.max_concurrent_per_key` requests in flight gets 429 with
/// `Retry-After` for the next, while other keys are served; once one finishes, it is
/// served again.
#[tokio::test]
async fn one_key_cannot_hold_every_slot() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, api) = process::embedded(
        dir.path(),
        KEY,
        &[
            ("COSMO_SERVER__MAX_CONCURRENT_PER_KEY", "1"),
            ("COSMO_SERVER__BODY_READ_TIMEOUT_SECS", "2"),
        ],
    )
    .await;
    // One request in flight: its body never finishes.
    let held = half_sent_body(&api).await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;

    let answer = cosmo_shared::http::client()
        .get(format!("{}/api/users/alice", api.base))
        .bearer_auth(KEY)
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(answer.headers().contains_key("retry-after"));
    let body: Value = answer.json().await.unwrap();
    assert_eq!(body["error"]["code"], "rate_limited", "{body}");
    // Another key is not held back (this one is unknown: refused, but not limited).
    assert_eq!(
        api.with_key(Some("another-key"))
            .get("/api/users/alice")
            .await
            .0,
        StatusCode::UNAUTHORIZED
    );
    // Requests without a key are not counted.
    assert_eq!(api.with_key(None).get("/healthz").await.0, StatusCode::OK);

    // The held request ends (408); the key is served again.
    assert!(read_to_close(held).await.starts_with("HTTP/1.1 408"));
    assert_eq!(api.get("/api/users/alice").await.0, StatusCode::NOT_FOUND);
}

/// A connection to the API that has sent `bytes` and nothing more.
async fn raw_request(api: &cosmo_tests::http::Api, bytes: &[u8]) -> tokio::net::TcpStream {
    use tokio::io::AsyncWriteExt;
    let addr = api.base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(bytes).await.unwrap();
    stream
}

/// A whole `POST /api/sources` head with the API key, then 10 of the 100 body bytes it
/// announces.
async fn half_sent_body(api: &cosmo_tests::http::Api) -> tokio::net::TcpStream {
    let request = format!(
        "POST /api/sources HTTP/1.1\r\nHost: cosmo\r\nAuthorization: Bearer {KEY}\r\n\
         Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"user_id\":"
    );
    raw_request(api, request.as_bytes()).await
}

/// Everything the server sends until it closes the connection (EOF or a reset).
async fn read_to_close(mut stream: tokio::net::TcpStream) -> String {
    use tokio::io::AsyncReadExt;
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer).await;
    String::from_utf8_lossy(&answer).into_owned()
}
