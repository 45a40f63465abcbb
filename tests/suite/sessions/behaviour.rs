//! What a client sees besides the flush: bad input refused with a precise error and
//! nothing written, sessions kept per user and per tenant, context without a session,
//! and erasure of the user taking their sessions along.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use super::{Directory, Running, Stores, conversation};

/// The session's turn count, and whether user `newbie` exists (the directory's word).
async fn written(app: &Running) -> (Value, bool) {
    let alex = app.session("alex", "chat").await["turns_appended"].clone();
    let newbie = app
        .svc
        .directory
        .tenant_user("acme", "newbie")
        .await
        .unwrap()
        .is_some();
    (alex, newbie)
}

#[tokio::test]
async fn bad_input_is_refused_precisely_and_writes_nothing() {
    let stores = Stores::new(Directory::Sqlite).await;
    let app = stores.start().await;
    let said = conversation(3, 1);
    for turn in &said {
        app.say("alex", "chat", turn).await;
    }
    let before = written(&app).await;
    assert_eq!(before, (json!(3), false));

    let turn = json!({ "speaker": "user", "text": "hello" });
    let many: Vec<Value> = (0..101).map(|_| turn.clone()).collect();
    let long = "x".repeat(16_001);
    let cases: Vec<(&str, Value, StatusCode, &str)> = vec![
        (
            "chat",
            json!({ "user_id": "newbie", "turns": [] }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "turns",
        ),
        (
            "chat",
            json!({ "user_id": "newbie", "turns": many }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "turns",
        ),
        (
            "chat",
            json!({ "user_id": "newbie", "turns": [turn, { "speaker": "user", "text": " \n " }] }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "turns[1].text",
        ),
        (
            "chat",
            json!({ "user_id": "newbie", "turns": [{ "speaker": "user", "text": long }] }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "turns[0].text",
        ),
        (
            "chat",
            json!({ "user_id": "newbie", "turns": [{ "speaker": "", "text": "hi" }] }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "turns[0].speaker",
        ),
        (
            "chat",
            json!({ "user_id": "newbie", "turns": [{ "speaker": "u", "text": "hi", "timestamp": "yesterday" }] }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "turns[0].timestamp",
        ),
        (
            "chat",
            json!({ "user_id": "newbie", "turns": [{ "speaker": "u", "text": "hi", "mood": "ok" }] }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "turns[0].mood",
        ),
        (
            "chat",
            json!({ "turns": [{ "speaker": "u", "text": "hi" }] }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "user_id",
        ),
        (
            "bad%20id",
            json!({ "user_id": "newbie", "turns": [{ "speaker": "u", "text": "hi" }] }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "session_id",
        ),
    ];
    for (session, body, status, field) in cases {
        let (got, answer) = app
            .api
            .post(&format!("/api/sessions/{session}/turns"), &body)
            .await;
        assert_eq!(
            (got, answer["error"]["field"].as_str()),
            (status, Some(field)),
            "{answer}"
        );
        assert_eq!(written(&app).await, before, "nothing written by {body}");
    }
    // Not JSON, too large, no key.
    let path = "/api/sessions/chat/turns";
    let (status, answer) = app
        .api
        .send(Method::POST, path, Some(b"{\"user_id\": ".to_vec()), &[])
        .await;
    assert_eq!(
        (status, answer["error"]["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("invalid_json"))
    );
    let huge =
        json!({ "user_id": "alex", "turns": [{ "speaker": "u", "text": "y".repeat(3 << 20) }] });
    let (status, _) = app.api.post(path, &huge).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    let (status, _) = app
        .api
        .with_key(None)
        .post(path, &json!({ "user_id": "alex", "turns": [turn] }))
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = app
        .api
        .with_key(Some("not-a-key"))
        .post(path, &json!({ "user_id": "alex", "turns": [turn] }))
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(written(&app).await, before);

    // Unknown sessions and users are 404, on reads and on ends.
    for (method, path, body) in [
        (Method::GET, "/api/sessions/nope?user_id=alex", None),
        (Method::GET, "/api/sessions/chat?user_id=newbie", None),
        (
            Method::POST,
            "/api/sessions/nope/end",
            Some(json!({ "user_id": "alex" })),
        ),
        (
            Method::POST,
            "/api/sessions/chat/end",
            Some(json!({ "user_id": "newbie" })),
        ),
    ] {
        let body = body.map(|b| b.to_string().into_bytes());
        let (status, answer) = app.api.send(method, path, body, &[]).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}: {answer}");
    }
    assert_eq!(written(&app).await, before);
    app.stop().await;
}

#[tokio::test]
async fn sessions_belong_to_one_user_of_one_tenant() {
    let stores = Stores::new(Directory::Sqlite).await;
    let app = stores.start().await;
    let said = conversation(4, 1);
    for turn in &said[..2] {
        app.say("alex", "chat", turn).await;
    }
    // Bob's session of the same id, and the other tenant's alex, are other sessions.
    app.say("bob", "chat", &said[2]).await;
    let (key, _) = app
        .svc
        .directory
        .create_api_key("globex", "globex app", false, app.svc.clock.now())
        .await
        .unwrap();
    let globex = app.api.with_key(Some(&key));
    super::say(&globex, "alex", "chat", &said[3]).await;
    let alex = app.session("alex", "chat").await;
    assert_eq!(
        super::buffer_texts(&alex),
        [said[0].text.clone(), said[1].text.clone()]
    );
    assert_eq!(
        super::buffer_texts(&app.session("bob", "chat").await),
        [said[2].text.clone()]
    );
    let (status, theirs) = globex.get("/api/sessions/chat?user_id=alex").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(super::buffer_texts(&theirs), [said[3].text.clone()]);

    // Context shows a session's turns only when asked for that session.
    let context = |session: Option<&str>| {
        let mut body =
            json!({ "user_id": "alex", "message": "garden plan", "budget_tokens": 2000 });
        if let Some(s) = session {
            body["session_id"] = json!(s);
        }
        let api = app.api.clone();
        async move {
            let (status, answer) = api.post("/api/context", &body).await;
            assert_eq!(status, StatusCode::OK, "{answer}");
            answer["context"].as_str().unwrap().to_owned()
        }
    };
    let with = context(Some("chat")).await;
    assert!(
        with.contains(&format!("## Recent conversation\n- user: {}", said[0].text)),
        "{with}"
    );
    assert!(
        !with.contains(&said[2].text) && !with.contains(&said[3].text),
        "{with}"
    );
    assert!(!context(None).await.contains("Recent conversation"));
    assert!(!context(Some("other")).await.contains("Recent conversation"));
    app.stop().await;
}

#[tokio::test]
async fn erasing_a_user_erases_their_sessions() {
    let stores = Stores::new(Directory::Sqlite).await;
    let app = stores.start().await;
    let said = conversation(25, 1);
    for turn in &said {
        app.say("alex", "chat", turn).await;
    }
    app.say("bob", "chat", &said[0]).await;
    let session = app.session("alex", "chat").await;
    assert_eq!(session["sources"].as_array().unwrap().len(), 1, "{session}");
    assert_eq!(app.sources("alex").await.len(), 1);

    let (status, report) = app
        .api
        .send(Method::DELETE, "/api/users/alex", None, &[])
        .await;
    assert_eq!(status, StatusCode::OK, "{report}");
    assert_eq!(
        report["session_turns"], 14,
        "turns 12 to 25 were buffered: {report}"
    );
    let (status, _) = app.api.get("/api/sessions/chat?user_id=alex").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(app.sources("alex").await.is_empty());
    let pool = match &app.svc.db {
        cosmo_shared::db::Db::Sqlite(pool) => pool.clone(),
        other => panic!("{other:?}"),
    };
    for table in [
        "cosmo_sessions",
        "cosmo_session_turns",
        "cosmo_session_chunks",
    ] {
        let left: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "SELECT COUNT(*) FROM {table} WHERE graph_user_id = 'alex'"
        )))
        .fetch_one(&pool)
        .await
        .unwrap();
        assert_eq!(left, 0, "{table}");
    }
    let words: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM cosmo_session_turns WHERE text LIKE '%garden plan 25%'",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(words, 0);
    // Bob's session is his own, and alex may start afresh.
    assert_eq!(
        super::buffer_texts(&app.session("bob", "chat").await),
        [said[0].text.clone()]
    );
    let again = app.say("alex", "chat", &said[0]).await;
    assert_eq!(again["first_seq"], 1, "{again}");
    app.stop().await;
}
