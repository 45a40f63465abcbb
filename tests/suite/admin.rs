//! Operator endpoints over HTTP: the usage ledger summed by tenant, user and job kind,
//! for admin keys only.

use chrono::Utc;
use cosmo_shared::queue::JobKind;
use cosmo_shared::queue::payloads::ProcessSource;
use cosmo_tests::http::Api;
use cosmo_tests::{fixtures, stores};
use cosmo_workers::dispatch::Dispatcher;
use reqwest::StatusCode;
use serde_json::json;

#[tokio::test]
async fn usage_is_summed_by_tenant_user_and_job_kind_for_admins_only() {
    let dir = tempfile::tempdir().unwrap();
    let svc = stores::sqlite(dir.path()).await;
    let now = Utc::now();
    let (admin, _) = svc
        .directory
        .create_api_key("ops", "admin", true, now)
        .await
        .unwrap();
    let (acme, _) = svc
        .directory
        .create_api_key("acme", "acme app", false, now)
        .await
        .unwrap();
    let base = cosmo_tests::http::serve(&svc).await;

    let api = Api::new(&base, Some(&acme));
    let mut keys = Vec::new();
    for user in ["ann", "ben"] {
        keys.push(api.post_source(&fixtures::text_note(user)).await);
    }
    let d = Dispatcher::new(svc.clone());
    for key in &keys {
        d.run(
            JobKind::ProcessSource,
            &json!(ProcessSource {
                entity_key: key.clone()
            }),
            None,
        )
        .await
        .unwrap();
    }

    let (status, report) = Api::new(&base, Some(&admin)).get("/api/admin/usage").await;
    assert_eq!(status, StatusCode::OK, "{report}");
    let rows = report["rows"].as_array().unwrap();
    for user in ["ann", "ben"] {
        let row = rows
            .iter()
            .find(|r| r["user_id"] == user && r["job_kind"] == "process-source")
            .expect("a row per user");
        assert_eq!(row["tenant_id"], "acme");
        assert_eq!(row["calls"], 2, "describe + embed for a text note");
        assert!(row["prompt_tokens"].as_i64().unwrap() > 0);
    }
    assert_eq!(
        report["calls"].as_i64(),
        Some(rows.iter().map(|r| r["calls"].as_i64().unwrap()).sum())
    );

    let (status, empty) = Api::new(&base, Some(&admin))
        .get("/api/admin/usage?tenant_id=ops")
        .await;
    assert_eq!(
        (status, empty["rows"].as_array().map(Vec::len)),
        (StatusCode::OK, Some(0))
    );
    let (status, none) = Api::new(&base, Some(&admin))
        .get("/api/admin/usage?to=2020-01-01T00:00:00Z")
        .await;
    assert_eq!(
        (status, none["calls"].as_i64()),
        (StatusCode::OK, Some(0)),
        "the range is honoured"
    );
    let (status, body) = api.get("/api/admin/usage").await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("forbidden"))
    );
    let (status, body) = Api::new(&base, Some(&admin))
        .get("/api/admin/usage?from=yesterday")
        .await;
    assert_eq!(
        (status, body["error"]["field"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("from"))
    );
}
