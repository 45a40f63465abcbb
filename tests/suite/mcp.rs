//! Cosmo as an MCP server: `cosmo mcp` over stdio beside a running `cosmo serve`, and
//! streamable HTTP at `/mcp` on the API. The tools act like the REST endpoints — same
//! answers, same precise errors, same tenant walls — for the tenant of the client's key.

use std::collections::BTreeSet;

use chrono::Utc;
use cosmo_tests::http::Api;
use cosmo_tests::mcp::{self, Client, ok, refused};
use cosmo_tests::{process, stores};
use reqwest::StatusCode;
use serde_json::{Value, json};

const KEY: &str = "mcp-test-key";

const TOOLS: [&str; 13] = [
    "append_turns",
    "confirm_fact",
    "context",
    "correct_fact",
    "end_session",
    "entity_info",
    "explain_fact",
    "explore",
    "list_facts",
    "memory_stats",
    "read_session",
    "remember_fact",
    "weak_facts",
];

/// The tools listed, each with an object schema naming its fields.
async fn assert_tools(client: &Client) {
    let tools = client.list_all_tools().await.expect("tools/list");
    let names: BTreeSet<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(names, BTreeSet::from(TOOLS));
    for tool in &tools {
        let schema = &tool.input_schema;
        assert_eq!(schema.get("type"), Some(&json!("object")), "{}", tool.name);
        let properties = schema["properties"].as_object().unwrap();
        assert!(!properties.is_empty(), "{}: {schema:?}", tool.name);
        assert!(
            tool.description.as_deref().is_some_and(|d| d.len() > 20),
            "{} is described",
            tool.name
        );
        let text = serde_json::to_string(&**schema).unwrap();
        for reference in text.split("\"$ref\":\"").skip(1) {
            let name = reference.split('"').next().unwrap();
            let name = name
                .strip_prefix("#/$defs/")
                .unwrap_or_else(|| panic!("{}: {name} points outside the schema", tool.name));
            assert!(
                schema["$defs"][name].is_object(),
                "{}: {name} is defined",
                tool.name
            );
        }
    }
    let explore = tools.iter().find(|t| t.name == "explore").unwrap();
    assert_eq!(
        explore.input_schema["required"],
        json!(["user_id", "queries"]),
        "the REST body's required fields"
    );
    let correct = tools.iter().find(|t| t.name == "correct_fact").unwrap();
    assert!(
        correct.input_schema["required"]
            .as_array()
            .unwrap()
            .contains(&json!("fact_id"))
    );
}

/// The fact ids of `user`'s live facts, as `list_facts` shows them.
async fn live_facts(client: &Client, user: &str) -> Vec<Value> {
    let listed = ok(client, "list_facts", json!({ "user_id": user })).await;
    listed["facts"].as_array().unwrap().clone()
}

#[tokio::test]
async fn stdio_tools_keep_facts_and_read_an_extracted_entity() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, api) = process::embedded(dir.path(), KEY, &[]).await;
    let (status, body) = api
        .put("/api/users/alex", &json!({ "full_name": "Alex Johnson" }))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let source = api
        .post_source(&json!({
            "user_id": "alex", "source_type": "text-note",
            "raw_content": { "content": "Lunch with Sarah Chen from Acme Corp. Sarah Chen \
                leads the hiring plan at Acme Corp. Sarah Chen wants the hiring plan done \
                by March." },
        }))
        .await;
    api.wait_extracted(&source).await;

    let db = dir.path().join("cosmo.db");
    let env = process::env(
        &format!("sqlite://{}", db.display()),
        &db,
        &[("COSMO_API_KEY", KEY)],
    );
    let client = mcp::stdio(dir.path(), &env).await;
    assert_tools(&client).await;

    // Remember a fact, find it, correct it, confirm the correction.
    let stored = ok(
        &client,
        "remember_fact",
        json!({ "user_id": "alex", "category": "diet", "key": "coffee", "value": "black" }),
    )
    .await;
    assert_eq!(stored["outcome"], "stored");
    let first = stored["fact"]["fact_id"].as_str().unwrap().to_owned();
    let facts = live_facts(&client, "alex").await;
    assert_eq!(facts.len(), 1);
    assert_eq!(facts[0]["value"], "black");
    let context = ok(
        &client,
        "context",
        json!({ "user_id": "alex", "message": "How does Alex take coffee?" }),
    )
    .await;
    assert!(
        context["context"].as_str().unwrap().contains("black"),
        "{context}"
    );
    let corrected = ok(
        &client,
        "correct_fact",
        json!({ "fact_id": first, "category": "diet", "key": "coffee",
            "value": "oat flat white" }),
    )
    .await;
    assert_eq!(corrected["supersedes"], json!(first));
    let second = corrected["fact_id"].as_str().unwrap().to_owned();
    let facts = live_facts(&client, "alex").await;
    assert_eq!(
        facts.iter().map(|f| &f["fact_id"]).collect::<Vec<_>>(),
        [&json!(second)],
        "only the correction is live"
    );
    let confirmed = ok(&client, "confirm_fact", json!({ "fact_id": second })).await;
    assert_eq!(
        (
            &confirmed["confirmed"],
            &confirmed["lifecycle"]["confidence"]
        ),
        (&json!(true), &json!(1.0))
    );
    let refusal = refused(&client, "confirm_fact", json!({ "fact_id": first })).await;
    assert_eq!(
        refusal["code"], "conflict",
        "the old fact has ended: {refusal}"
    );
    // Where the correction came from, as REST explains it.
    let explained = ok(&client, "explain_fact", json!({ "fact_id": second })).await;
    let (status, rest) = api.get(&format!("/api/facts/{second}/explain")).await;
    assert_eq!(status, StatusCode::OK, "{rest}");
    assert_eq!(explained, rest);
    assert_eq!(
        explained["superseded"][0]["fact_id"],
        json!(first),
        "it replaced the first: {explained}"
    );
    // A weakly held fact is listed for confirming; the confirmed one is not.
    let weak = ok(
        &client,
        "remember_fact",
        json!({ "user_id": "alex", "text": "might move to Lisbon", "confidence": 0.3 }),
    )
    .await;
    let listed = ok(&client, "weak_facts", json!({ "user_id": "alex" })).await;
    let (status, rest) = api.get("/api/facts/weak?user_id=alex").await;
    assert_eq!(status, StatusCode::OK, "{rest}");
    assert_eq!(listed, rest);
    assert_eq!(
        listed["facts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| &f["fact_id"])
            .collect::<Vec<_>>(),
        [&weak["fact"]["fact_id"]],
        "{listed}"
    );
    let refusal = refused(
        &client,
        "weak_facts",
        json!({ "user_id": "alex", "salience_below": 2 }),
    )
    .await;
    assert_eq!(refusal["field"], "salience_below", "{refusal}");

    // The pipeline's entity, found by explore, read by entity_info.
    let found = ok(
        &client,
        "explore",
        json!({ "user_id": "alex", "queries": [{ "query": "Sarah Chen hiring plan" }] }),
    )
    .await;
    let sarah = found["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["name"] == "Sarah Chen")
        .unwrap_or_else(|| panic!("Sarah Chen explored: {found}"));
    let entity = ok(
        &client,
        "entity_info",
        json!({ "entity_key": sarah["entity_key"] }),
    )
    .await;
    assert_eq!(entity["name"], "Sarah Chen");
    assert!(
        entity["sources"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["entity_key"] == json!(source)),
        "{entity}"
    );

    // A bad input: REST's precise error, nothing written.
    let bad = json!({ "user_id": "alex", "queries": [] });
    let (status, rest) = api.post("/api/explore", &bad).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let refusal = refused(&client, "explore", bad).await;
    assert_eq!(refusal, rest["error"]);
    assert_eq!(refusal["field"], "queries");
    let refusal = refused(
        &client,
        "remember_fact",
        json!({ "user_id": "alex", "text": "likes tea", "confidence": 2 }),
    )
    .await;
    assert_eq!(
        (refusal["code"].as_str(), refusal["field"].as_str()),
        (Some("validation_failed"), Some("confidence"))
    );
    assert_eq!(
        live_facts(&client, "alex").await.len(),
        2,
        "the correction and the weak fact; the refused one is not written"
    );

    // Nothing but the protocol went to stdout (the client would have choked), and the
    // log went to stderr.
    assert!(mcp::log_of(dir.path()).contains("serving MCP on stdio"));
}

#[tokio::test]
async fn stdio_refuses_an_unknown_key() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cosmo.db");
    let env = process::env(
        &format!("sqlite://{}", db.display()),
        &db,
        &[("COSMO_API_KEY", "not-a-key")],
    );
    let output = tokio::process::Command::new(process::bin("cosmo"))
        .arg("mcp")
        .current_dir(dir.path())
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .stdin(std::process::Stdio::null())
        .output()
        .await
        .unwrap();
    assert!(!output.status.success());
    assert!(output.stdout.is_empty(), "stdout is for the protocol only");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("unknown or revoked API key"), "{stderr}");
}

/// The API in-process; keys of tenants acme and globex, each with a user.
async fn served(dir: &std::path::Path) -> (String, String, String) {
    let svc = stores::sqlite(dir).await;
    let mut keys = Vec::new();
    for tenant in ["acme", "globex"] {
        let (key, _) = svc
            .directory
            .create_api_key(tenant, "app", false, Utc::now())
            .await
            .unwrap();
        keys.push(key);
    }
    let base = cosmo_tests::http::serve(&svc).await;
    for (key, user, name) in [
        (&keys[0], "alex", "Alex Johnson"),
        (&keys[1], "gina", "Gina Ruiz"),
    ] {
        let (status, body) = Api::new(&base, Some(key))
            .put(&format!("/api/users/{user}"), &json!({ "full_name": name }))
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let globex = keys.pop().unwrap();
    (base, keys.pop().unwrap(), globex)
}

#[tokio::test]
async fn http_needs_a_key_and_keeps_tenants_apart() {
    let dir = tempfile::tempdir().unwrap();
    let (base, acme, globex) = served(dir.path()).await;

    // No key, a wrong key: REST's 401, and no MCP session.
    let initialize = json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": { "name": "probe", "version": "1" } } });
    for key in [None, Some("wrong-key")] {
        let (status, body) = Api::new(&base, key)
            .send(
                reqwest::Method::POST,
                "/mcp",
                Some(initialize.to_string().into_bytes()),
                &[("accept", "application/json, text/event-stream")],
            )
            .await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (StatusCode::UNAUTHORIZED, Some("unauthorized")),
            "{key:?}: {body}"
        );
        assert!(mcp::http(&base, key).await.is_err(), "{key:?}");
    }

    // Bodies that are not JSON get the API's JSON errors, not the protocol layer's text.
    let accept = [("accept", "application/json, text/event-stream")];
    let keyed = Api::new(&base, Some(&acme));
    let (status, body) = keyed
        .send(
            reqwest::Method::POST,
            "/mcp",
            Some(b"{\"jsonrpc\": ".to_vec()),
            &accept,
        )
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("invalid_json")),
        "{body}"
    );
    let (status, body) = keyed
        .send(reqwest::Method::POST, "/mcp", None, &accept)
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Some("unsupported_media_type")
        ),
        "{body}"
    );

    let client = mcp::http(&base, Some(&acme)).await.expect("MCP over HTTP");
    assert_tools(&client).await;
    let stored = ok(
        &client,
        "remember_fact",
        json!({ "user_id": "alex", "text": "Alex runs the Berlin marathon in April" }),
    )
    .await;
    assert_eq!(stored["outcome"], "stored");
    let fact = stored["fact"]["fact_id"].as_str().unwrap().to_owned();
    let facts = live_facts(&client, "alex").await;
    assert_eq!(facts.len(), 1);
    assert_eq!(facts[0]["text"], "Alex runs the Berlin marathon in April");
    let (status, rest) = Api::new(&base, Some(&acme))
        .get("/api/facts?user_id=alex")
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        rest["facts"][0]["fact_id"],
        json!(fact),
        "the same store as REST"
    );

    // Precise errors.
    let refusal = refused(
        &client,
        "remember_fact",
        json!({ "user_id": "alex", "text": "x", "key": "k" }),
    )
    .await;
    assert_eq!(refusal["field"], "category");
    let refusal = refused(
        &client,
        "list_facts",
        json!({ "user_id": "alex", "limit": 0 }),
    )
    .await;
    assert_eq!(refusal["field"], "limit");
    let refusal = refused(&client, "correct_fact", json!({ "text": "x" })).await;
    assert_eq!(
        (refusal["code"].as_str(), refusal["field"].as_str()),
        (Some("validation_failed"), Some("fact_id"))
    );
    let refusal = refused(&client, "entity_info", json!({ "entity": "x" })).await;
    assert_eq!(refusal["field"], "entity");

    // Another tenant's user and fact do not exist for this key, and the other way round.
    let refusal = refused(&client, "list_facts", json!({ "user_id": "gina" })).await;
    assert_eq!(refusal["code"], "not_found");
    let other = mcp::http(&base, Some(&globex))
        .await
        .expect("MCP over HTTP");
    for (tool, args) in [
        ("list_facts", json!({ "user_id": "alex" })),
        (
            "remember_fact",
            json!({ "user_id": "alex", "text": "Alex hates marathons" }),
        ),
        ("confirm_fact", json!({ "fact_id": fact })),
        (
            "correct_fact",
            json!({ "fact_id": fact, "text": "Alex hates marathons" }),
        ),
        (
            "explore",
            json!({ "user_id": "alex", "queries": [{ "query": "marathon" }] }),
        ),
        (
            "context",
            json!({ "user_id": "alex", "message": "marathon" }),
        ),
        ("memory_stats", json!({ "user_id": "alex" })),
    ] {
        let refusal = refused(&other, tool, args).await;
        assert_eq!(refusal["code"], "not_found", "{tool}: {refusal}");
    }
    let facts = live_facts(&client, "alex").await;
    assert_eq!(
        (facts.len(), &facts[0]["confirmed"]),
        (1, &json!(false)),
        "nothing of alex changed"
    );
}
