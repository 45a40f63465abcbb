//! The OpenAPI document (`GET /api/openapi.json`) against the router it describes: every
//! route is documented and nothing else is, every documented request example is
//! accepted, the required fields it names are the ones the API requires, and the
//! Swagger UI page at `/docs` is served whole by the API itself.

use std::collections::{BTreeMap, BTreeSet};

use chrono::Utc;
use cosmo_shared::queue::JobKind;
use cosmo_shared::queue::payloads::ProcessSource;
use cosmo_shared::services::Services;
use cosmo_tests::http::Api;
use cosmo_tests::{fixtures, stores};
use cosmo_workers::dispatch::Dispatcher;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

/// Routes that are not API operations: the documentation itself, the MCP endpoint
/// (a protocol of its own, see docs/mcp.md), and the operator's HTML dashboard.
const UNDOCUMENTED: &[(&str, &str)] = &[
    ("GET", "/api/openapi.json"),
    ("GET", "/docs"),
    ("GET", "/docs/"),
    ("GET", "/docs/{*rest}"),
    ("POST", "/mcp"),
    ("GET", "/admin/jobs"),
    ("POST", "/admin/jobs/{job_id}/retry"),
    ("POST", "/admin/jobs/retry"),
];

const METHODS: &[&str] = &["get", "put", "post", "delete", "patch"];

/// The API in-process on a fresh embedded store; `key` is an admin key of tenant acme.
async fn serve(dir: &std::path::Path) -> (Services, Api, String) {
    let svc = stores::sqlite(dir).await;
    let (key, _) = svc
        .directory
        .create_api_key("acme", "acme admin", true, Utc::now())
        .await
        .unwrap();
    let base = cosmo_tests::http::serve(&svc).await;
    (svc, Api::new(&base, Some(&key)), base)
}

/// The document as served, without an API key.
async fn document(base: &str) -> Value {
    let (status, doc) = Api::new(base, None).get("/api/openapi.json").await;
    assert_eq!(status, StatusCode::OK, "{doc}");
    doc
}

/// Every `(METHOD, path)` the document lists, with its operation.
fn operations(doc: &Value) -> BTreeMap<(String, String), Value> {
    let mut ops = BTreeMap::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for method in METHODS {
            if let Some(op) = item.get(*method) {
                ops.insert((method.to_uppercase(), path.clone()), op.clone());
            }
        }
    }
    ops
}

#[tokio::test]
async fn every_route_is_documented_and_nothing_else_is() {
    let dir = tempfile::tempdir().unwrap();
    let (_svc, _api, base) = serve(dir.path()).await;
    let doc = document(&base).await;
    assert_eq!(doc["openapi"], "3.1.0");

    let routed: BTreeSet<(String, String)> = cosmo_api::routes()
        .into_iter()
        .map(|(m, p)| (m.to_string(), p.to_owned()))
        .collect();
    let excluded: BTreeSet<(String, String)> = UNDOCUMENTED
        .iter()
        .map(|(m, p)| ((*m).to_owned(), (*p).to_owned()))
        .collect();
    // Client generators name a method after each operationId: one each, none twice.
    let mut ids = BTreeMap::new();
    for (route, op) in operations(&doc) {
        let id = op["operationId"].as_str().unwrap_or_default().to_owned();
        assert!(!id.is_empty(), "{route:?}: an operationId");
        if let Some(other) = ids.insert(id.clone(), route.clone()) {
            panic!("operationId {id} names both {other:?} and {route:?}");
        }
    }
    let documented: BTreeSet<(String, String)> = operations(&doc).into_keys().collect();
    let missing: Vec<_> = routed
        .difference(&excluded)
        .filter(|r| !documented.contains(*r))
        .collect();
    assert!(
        missing.is_empty(),
        "routes missing from the OpenAPI document (annotate the handler with \
         #[utoipa::path] and list it in ingest-api/src/openapi.rs): {missing:?}"
    );
    let phantom: Vec<_> = documented.difference(&routed).collect();
    assert!(phantom.is_empty(), "documented but not routed: {phantom:?}");
    let stale: Vec<_> = excluded.difference(&routed).collect();
    assert!(
        stale.is_empty(),
        "excluded routes that no longer exist: {stale:?}"
    );
}

#[tokio::test]
async fn every_operation_documents_its_key_errors_and_request_id() {
    let dir = tempfile::tempdir().unwrap();
    let (_svc, _api, base) = serve(dir.path()).await;
    let doc = document(&base).await;
    let scheme = &doc["components"]["securitySchemes"]["api_key"];
    assert_eq!(
        (scheme["type"].as_str(), scheme["scheme"].as_str()),
        (Some("http"), Some("bearer"))
    );
    assert!(doc["components"]["schemas"]["ErrorBody"].is_object());

    for ((method, path), op) in operations(&doc) {
        let what = format!("{method} {path}");
        let responses = op["responses"].as_object().unwrap();
        let on_api = path.starts_with("/api/");
        assert_eq!(
            op["security"] == json!([{ "api_key": [] }]),
            on_api,
            "{what}: the bearer key, exactly on /api"
        );
        assert_eq!(responses.contains_key("401"), on_api, "{what}: 401");
        assert_eq!(responses.contains_key("429"), on_api, "{what}: 429");
        if path.starts_with("/api/admin/") {
            assert!(responses.contains_key("403"), "{what}: admin only");
        }
        if op.get("requestBody").is_some() {
            for status in ["400", "408", "413"] {
                assert!(responses.contains_key(status), "{what}: {status}");
            }
        }
        for (status, response) in responses {
            assert!(
                response["headers"]["x-request-id"].is_object(),
                "{what} {status}: x-request-id"
            );
            let is_error = status.starts_with('4') || status.starts_with('5');
            // `/readyz` answers 503 with its usual body, saying what is down.
            if is_error && !(path == "/readyz" && status == "503") {
                assert_eq!(
                    response["content"]["application/json"]["schema"]["$ref"],
                    "#/components/schemas/ErrorBody",
                    "{what} {status}: the error body"
                );
            }
        }
    }
}

/// What the document says about keys is what the API does: every `/api/*` operation
/// refuses a request without a key (401, the error body), and every `/api/admin/*` one a
/// tenant's key (403).
#[tokio::test]
async fn every_documented_api_operation_refuses_a_missing_or_weaker_key() {
    let dir = tempfile::tempdir().unwrap();
    let (svc, _api, base) = serve(dir.path()).await;
    let (tenant_key, _) = svc
        .directory
        .create_api_key("acme", "acme app", false, Utc::now())
        .await
        .unwrap();
    let doc = document(&base).await;
    let (anonymous, tenant) = (Api::new(&base, None), Api::new(&base, Some(&tenant_key)));
    let mut checked = 0;
    for ((method, path), op) in operations(&doc) {
        if !path.starts_with("/api/") || path == "/api/openapi.json" {
            continue;
        }
        // Any well-formed values: the key is checked before anything is looked up.
        let kind = if path.starts_with("/api/memories/") {
            "node"
        } else {
            "decay"
        };
        let ids = BTreeMap::from([
            ("key", "k".to_owned()),
            ("user_id", "alex".to_owned()),
            ("id", "f".to_owned()),
            ("job_id", "j".to_owned()),
            ("entity_key", "e".to_owned()),
            ("kind", kind.to_owned()),
            ("action", "pin".to_owned()),
            ("session_id", "chat-1".to_owned()),
        ]);
        let url = fill(&path, &ids);
        let method = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
        let body = op.get("requestBody").map(|_| b"{}".to_vec());
        let (status, error) = anonymous
            .send(method.clone(), &url, body.clone(), &[])
            .await;
        assert_eq!(
            status,
            StatusCode::UNAUTHORIZED,
            "{method} {path} without a key: {error}"
        );
        assert!(
            error["error"]["code"].is_string(),
            "{method} {path}: {error}"
        );
        if path.starts_with("/api/admin/") {
            let (status, error) = tenant.send(method.clone(), &url, body, &[]).await;
            assert_eq!(
                status,
                StatusCode::FORBIDDEN,
                "{method} {path}, tenant key: {error}"
            );
        }
        checked += 1;
    }
    assert!(checked > 20, "only {checked} operations found");
}

/// A documented example, found on the body or on its schema.
fn example_of(doc: &Value, op: &Value) -> Option<Value> {
    let content = &op["requestBody"]["content"]["application/json"];
    if let Some(e) = content.get("example") {
        return Some(e.clone());
    }
    let schema = resolve(doc, &content["schema"]);
    schema
        .get("example")
        .cloned()
        .or_else(|| schema["examples"].get(0).cloned())
}

/// The schema `schema` points at; for an optional body (`oneOf` it or `null`), the
/// body's.
fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    if let Some(body) = schema["oneOf"]
        .as_array()
        .and_then(|alternatives| alternatives.iter().find(|s| s.get("$ref").is_some()))
    {
        return resolve(doc, body);
    }
    match schema["$ref"].as_str() {
        Some(r) => {
            let name = r
                .strip_prefix("#/components/schemas/")
                .expect("a schema ref");
            &doc["components"]["schemas"][name]
        }
        None => schema,
    }
}

/// A world where every documented path has something to point at: user alex with a
/// profile, a processed meeting of alex with participant bob, a structured fact.
async fn world(svc: &Services, api: &Api) -> BTreeMap<&'static str, String> {
    let (status, body) = api
        .put("/api/users/alex", &json!({ "full_name": "Alex Johnson" }))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let source = api
        .post_source(&fixtures::team_meeting("alex", &["bob"]))
        .await;
    Dispatcher::new(svc.clone())
        .run(
            JobKind::ProcessSource,
            &json!(ProcessSource {
                entity_key: source.clone()
            }),
            None,
        )
        .await
        .unwrap();
    let (status, fact) = api
        .post(
            "/api/facts",
            &json!({ "user_id": "alex", "category": "diet", "key": "coffee",
                "value": "espresso" }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{fact}");
    BTreeMap::from([
        ("key", source),
        ("user_id", "alex".to_owned()),
        ("id", fact["fact"]["fact_id"].as_str().unwrap().to_owned()),
        ("kind", "decay".to_owned()),
        ("session_id", "chat-1".to_owned()),
    ])
}

/// `path` with each `{param}` replaced by the world's value for it.
fn fill(path: &str, ids: &BTreeMap<&str, String>) -> String {
    let mut out = path.to_owned();
    while let Some(start) = out.find('{') {
        let end = out[start..].find('}').unwrap() + start;
        let name = &out[start + 1..end];
        let value = ids
            .get(name)
            .unwrap_or_else(|| panic!("no value for {{{name}}} in {path}: add one to world()"));
        out.replace_range(start..=end, value);
    }
    out
}

#[tokio::test]
async fn documented_examples_are_accepted_and_required_fields_are_required() {
    let dir = tempfile::tempdir().unwrap();
    let (svc, api, base) = serve(dir.path()).await;
    let doc = document(&base).await;
    let ids = world(&svc, &api).await;

    let mut posted = 0;
    // Ending a session comes last: an ended session takes no more turns (409).
    let mut operations: Vec<_> = operations(&doc).into_iter().collect();
    operations.sort_by_key(|((_, path), _)| path.ends_with("/end"));
    for ((method, path), op) in operations {
        if op.get("requestBody").is_none() {
            continue;
        }
        let what = format!("{method} {path}");
        let example = example_of(&doc, &op).unwrap_or_else(|| panic!("{what}: no request example"));
        let url = fill(&path, &ids);
        let method: Method = method.parse().unwrap();
        let send = |body: &Value| {
            api.send(
                method.clone(),
                &url,
                Some(body.to_string().into_bytes()),
                &[],
            )
        };
        let (status, answer) = send(&example).await;
        assert!(
            status.is_success(),
            "{what}: the documented example {example} is refused: {status} {answer}"
        );
        posted += 1;

        let schema = resolve(
            &doc,
            &op["requestBody"]["content"]["application/json"]["schema"],
        );
        for field in schema["required"].as_array().into_iter().flatten() {
            let field = field.as_str().unwrap();
            let mut without = example.clone();
            without.as_object_mut().unwrap().remove(field);
            let (status, answer) = send(&without).await;
            assert_eq!(
                (status, answer["error"]["field"].as_str()),
                (StatusCode::UNPROCESSABLE_ENTITY, Some(field)),
                "{what}: documented as required, so leaving out `{field}` is refused: {answer}"
            );
        }
        if schema["additionalProperties"] == json!(false) {
            let mut extra = example.clone();
            extra["surely_unknown"] = json!(1);
            let (status, answer) = send(&extra).await;
            assert_eq!(
                (status, answer["error"]["field"].as_str()),
                (StatusCode::UNPROCESSABLE_ENTITY, Some("surely_unknown")),
                "{what}: documented as closed, so an unknown field is refused: {answer}"
            );
        }
    }
    assert!(
        posted >= 8,
        "every body endpoint has an example ({posted} posted)"
    );
}

#[tokio::test]
async fn swagger_ui_is_served_whole_by_the_api() {
    let dir = tempfile::tempdir().unwrap();
    let (_svc, _api, base) = serve(dir.path()).await;
    let client = cosmo_shared::http::client();
    let get = |path: String| {
        let client = client.clone();
        let url = format!("{base}{path}");
        async move {
            let resp = client.get(&url).send().await.unwrap();
            let status = resp.status();
            (status, resp.text().await.unwrap())
        }
    };
    let (status, page) = get("/docs/".into()).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("swagger-ui"), "{page}");

    // Every asset the page loads is ours, and is there.
    let assets: Vec<&str> = ["src=\"", "href=\""]
        .iter()
        .flat_map(|attr| page.split(attr).skip(1))
        .filter_map(|rest| rest.split('"').next())
        .collect();
    assert!(
        assets.len() >= 3,
        "the page loads its scripts and styles: {assets:?}"
    );
    for asset in assets {
        assert!(
            !asset.contains("//"),
            "{asset}: the page must not load anything from elsewhere"
        );
        let path = format!("/docs/{}", asset.trim_start_matches("./"));
        let (status, body) = get(path.clone()).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(!body.is_empty(), "{path}");
    }
    let (status, init) = get("/docs/swagger-initializer.js".into()).await;
    assert_eq!(status, StatusCode::OK);
    assert!(init.contains("/api/openapi.json"), "{init}");
    assert!(
        !init.contains("http://") && !init.contains("https://"),
        "the initializer points nowhere else: {init}"
    );
}
