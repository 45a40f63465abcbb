//! The job queue for operators over HTTP: the admin JSON endpoints (list by state and
//! kind, counts, retry) and the browser dashboard at `/admin/jobs`, admin keys only.

use chrono::Utc;
use cosmo_shared::queue::{JobKind, JobState, NewJob};
use cosmo_shared::services::Services;
use cosmo_tests::http::Api;
use cosmo_tests::stores;
use reqwest::StatusCode;
use serde_json::json;

use crate::queue_contract::support::{KIND, Workers, wait_job};

/// Jobs that failed for good, for real: run by a worker whose handler gives up with
/// `error` (apalis records them `Killed`, with the error as their last result).
pub(crate) async fn dead_jobs(svc: &Services, errors: &[&str]) -> Vec<String> {
    let workers = Workers::start(svc);
    let mut ids = Vec::new();
    for error in errors {
        let job = NewJob::new(KIND, json!({"permanent": true, "error": error}));
        ids.push(svc.queue.enqueue(job).await.unwrap().job_id().to_owned());
    }
    for id in &ids {
        wait_job(svc, id, "job failed for good", |j| j.status == "Killed").await;
    }
    workers.stop().await;
    ids
}

/// Services on a fresh SQLite file, served on a free port, with an admin and a tenant
/// key.
struct Server {
    svc: Services,
    base: String,
    admin: String,
    tenant: String,
    _dir: tempfile::TempDir,
}

impl Server {
    async fn start() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let svc = stores::sqlite(dir.path()).await;
        let now = Utc::now();
        let (admin, _) = svc
            .directory
            .create_api_key("ops", "admin", true, now)
            .await
            .unwrap();
        let (tenant, _) = svc
            .directory
            .create_api_key("acme", "acme app", false, now)
            .await
            .unwrap();
        let base = cosmo_tests::http::serve(&svc).await;
        Self {
            svc,
            base,
            admin,
            tenant,
            _dir: dir,
        }
    }

    fn api(&self, key: &str) -> Api {
        Api::new(&self.base, Some(key))
    }

    async fn state(&self, job_id: &str) -> JobState {
        self.svc.queue.job(job_id).await.unwrap().unwrap().state()
    }
}

#[tokio::test]
async fn admins_list_count_and_retry_jobs_over_http() {
    let s = Server::start().await;
    let dead = dead_jobs(&s.svc, &["model refused: quota", "graph conflict"]).await;
    let pending = s
        .svc
        .queue
        .enqueue(NewJob::new(
            JobKind::ProcessSource,
            json!({"entity_key": "k"}),
        ))
        .await
        .unwrap()
        .job_id()
        .to_owned();
    let admin = s.api(&s.admin);

    let (status, jobs) = admin.get("/api/admin/jobs?state=dead").await;
    assert_eq!(status, StatusCode::OK, "{jobs}");
    let mut ids: Vec<&str> = jobs
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["job_id"].as_str().unwrap())
        .collect();
    ids.sort_unstable();
    let mut expected: Vec<&str> = dead.iter().map(String::as_str).collect();
    expected.sort_unstable();
    assert_eq!(ids, expected, "{jobs}");
    let first = jobs
        .as_array()
        .unwrap()
        .iter()
        .find(|j| j["job_id"] == dead[0])
        .unwrap();
    assert_eq!(
        (&first["state"], &first["status"], &first["kind"]),
        (&json!("dead"), &json!("Killed"), &json!("reconcile"))
    );
    assert!(
        first["last_error"]
            .as_str()
            .unwrap()
            .contains("model refused: quota"),
        "{first}"
    );
    let (_, by_kind) = admin.get("/api/admin/jobs?kind=process-source").await;
    assert_eq!(by_kind.as_array().map(Vec::len), Some(1), "{by_kind}");
    assert_eq!(
        (&by_kind[0]["job_id"], &by_kind[0]["state"]),
        (&json!(pending), &json!("pending"))
    );
    let (_, one) = admin.get("/api/admin/jobs?limit=1").await;
    assert_eq!(one.as_array().map(Vec::len), Some(1));

    for (query, field) in [
        ("state=zombie", "state"),
        ("kind=teleport", "kind"),
        ("colour=red", "query"),
        ("limit=0", "limit"),
        ("limit=1001", "limit"),
    ] {
        let (status, body) = admin.get(&format!("/api/admin/jobs?{query}")).await;
        assert_eq!(
            (status, body["error"]["field"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some(field)),
            "{query}: {body}"
        );
    }
    let (_, bad_state) = admin.get("/api/admin/jobs?state=zombie").await;
    assert!(
        bad_state["error"]["message"]
            .as_str()
            .unwrap()
            .contains("pending running done failed dead"),
        "the message lists the states: {bad_state}"
    );

    let (status, counts) = admin.get("/api/admin/jobs/counts").await;
    assert_eq!(status, StatusCode::OK, "{counts}");
    assert_eq!(counts["kinds"]["reconcile"]["dead"], 2, "{counts}");
    assert_eq!(counts["kinds"]["process-source"]["pending"], 1, "{counts}");
    assert_eq!(
        (&counts["total"]["dead"], &counts["total"]["pending"]),
        (&json!(2), &json!(1))
    );

    let (status, job) = admin.get(&format!("/api/admin/jobs/{}", dead[0])).await;
    assert_eq!((status, &job["state"]), (StatusCode::OK, &json!("dead")));
    let (status, body) = admin
        .post(&format!("/api/admin/jobs/{pending}/retry"), &json!({}))
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("conflict")),
        "a pending job is not retryable: {body}"
    );
    let (status, body) = admin
        .post(
            "/api/admin/jobs/01JNOSUCHJOB0000000000000/retry",
            &json!({}),
        )
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("not_found"))
    );
    let (status, retried) = admin
        .post(&format!("/api/admin/jobs/{}/retry", dead[0]), &json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{retried}");
    assert_eq!(
        (&retried["state"], &retried["attempts"]),
        (&json!("pending"), &json!(0))
    );
    assert_eq!(s.state(&dead[0]).await, JobState::Pending);

    let (status, body) = admin
        .post("/api/admin/jobs/retry", &json!({"kind": "process-source"}))
        .await;
    assert_eq!((status, &body["retried"]), (StatusCode::OK, &json!(0)));
    let (status, body) = admin.post("/api/admin/jobs/retry", &json!({})).await;
    assert_eq!(
        (status, &body["retried"]),
        (StatusCode::OK, &json!(1)),
        "{body}"
    );
    assert_eq!(s.state(&dead[1]).await, JobState::Pending);

    let tenant = s.api(&s.tenant);
    for (status, body) in [
        tenant.get("/api/admin/jobs").await,
        tenant.get("/api/admin/jobs/counts").await,
        tenant
            .post(&format!("/api/admin/jobs/{pending}/retry"), &json!({}))
            .await,
        tenant.post("/api/admin/jobs/retry", &json!({})).await,
    ] {
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (StatusCode::FORBIDDEN, Some("forbidden"))
        );
    }
}

#[tokio::test]
async fn the_dashboard_shows_counts_and_errors_and_retries_for_admins_only() {
    let s = Server::start().await;
    let error = r#"<script>alert('x')</script> & the model said no"#;
    let mut dead_ids = dead_jobs(&s.svc, &[error, "the second failure"]).await;
    let (dead, other) = (dead_ids.remove(0), dead_ids.remove(0));
    let browser = cosmo_shared::http::client_builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let page = format!("{}/admin/jobs", s.base);

    let anonymous = browser.get(&page).send().await.unwrap();
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
    let challenge = anonymous.headers()["www-authenticate"].to_str().unwrap();
    assert!(challenge.starts_with("Basic "), "{challenge}");
    for key in [s.tenant.as_str(), "not-a-key"] {
        let refused = browser
            .get(&page)
            .basic_auth("admin", Some(key))
            .send()
            .await
            .unwrap();
        let expected = if key == s.tenant {
            StatusCode::FORBIDDEN
        } else {
            StatusCode::UNAUTHORIZED
        };
        assert_eq!(refused.status(), expected, "{key}");
    }

    let shown = browser
        .get(&page)
        .basic_auth("admin", Some(&s.admin))
        .send()
        .await
        .unwrap();
    assert_eq!(shown.status(), StatusCode::OK);
    assert!(
        shown.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    for (header, value) in [
        ("x-frame-options", "DENY"),
        ("content-security-policy", "frame-ancestors 'none'"),
        ("cache-control", "no-store"),
    ] {
        assert_eq!(
            shown.headers()[header],
            value,
            "another site cannot frame it (a click there would post with our Origin); \
             nothing is cached"
        );
    }
    let html = shown.text().await.unwrap();
    assert!(
        html.contains(
            "<tr><td>reconcile</td><td>0</td><td>0</td><td>0</td><td>0</td><td class=\"bad\">2</td></tr>"
        ),
        "the counts table has reconcile's dead job: {html}"
    );
    assert!(html.contains(&dead), "the dead job is listed");
    assert!(
        html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; the model said no"),
        "its error, escaped: {html}"
    );
    assert!(!html.contains("<script>"), "no markup from job errors");
    assert!(html.contains(&format!("action=\"/admin/jobs/{dead}/retry\"")));
    let bearer = browser
        .get(&page)
        .bearer_auth(&s.admin)
        .send()
        .await
        .unwrap();
    assert_eq!(bearer.status(), StatusCode::OK, "a Bearer header works too");

    let retry = format!("{}/admin/jobs/{dead}/retry", s.base);
    let cross_site = browser
        .post(&retry)
        .basic_auth("admin", Some(&s.admin))
        .header("origin", "https://evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(cross_site.status(), StatusCode::FORBIDDEN);
    let as_tenant = browser
        .post(&retry)
        .basic_auth("", Some(&s.tenant))
        .send()
        .await
        .unwrap();
    assert_eq!(as_tenant.status(), StatusCode::FORBIDDEN);
    assert_eq!(
        s.state(&dead).await,
        JobState::Dead,
        "refused posts change nothing"
    );

    let posted = browser
        .post(&retry)
        .basic_auth("admin", Some(&s.admin))
        .header("origin", &s.base)
        .send()
        .await
        .unwrap();
    assert_eq!(posted.status(), StatusCode::SEE_OTHER);
    let back = posted.headers()["location"].to_str().unwrap().to_owned();
    assert_eq!(back, format!("/admin/jobs?retried={dead}"));
    assert_eq!(s.state(&dead).await, JobState::Pending, "re-queued");
    let after = browser
        .get(format!("{}{back}", s.base))
        .basic_auth("admin", Some(&s.admin))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        after.contains(&format!("Job {dead} is back to pending")),
        "{after}"
    );
    assert!(
        after.contains(&other) && !after.contains(&format!("action=\"/admin/jobs/{dead}/retry\""))
    );

    let all = browser
        .post(format!("{}/admin/jobs/retry", s.base))
        .basic_auth("admin", Some(&s.admin))
        .send()
        .await
        .unwrap();
    assert_eq!(all.status(), StatusCode::SEE_OTHER);
    assert_eq!(
        all.headers()["location"].to_str().unwrap(),
        "/admin/jobs?retried_dead=1"
    );
    assert_eq!(s.state(&other).await, JobState::Pending);
    let emptied = browser
        .get(&page)
        .basic_auth("admin", Some(&s.admin))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        emptied.contains("Dead jobs (failed for good)</h2><p>None.</p>"),
        "{emptied}"
    );
}
