//! The scheduler: replicas fire each slot once, a slot missed while every scheduler was
//! down is caught up once on start (also when the queue comes back only after the
//! start), and an operator can run any periodic job now.

use std::time::Duration;

use chrono::{DateTime, Utc};
use cosmo_shared::queue::JobKind;
use cosmo_tests::http::Api;
use cosmo_tests::process::{self, Proc};
use cosmo_tests::{stores, wait_for};
use reqwest::StatusCode;
use serde_json::json;

fn at(t: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(t).unwrap().with_timezone(&Utc)
}

#[tokio::test]
async fn a_missed_slot_is_caught_up_once() {
    let dir = tempfile::tempdir().unwrap();
    let svc = stores::sqlite(dir.path()).await;
    let schedules = cosmo_scheduler::schedules(&svc).unwrap();
    // Every scheduler was down over the 01:00 decay slot; one starts at 06:00.
    let fired = cosmo_scheduler::catch_up(&svc, &schedules, at("2026-11-22T06:00:00Z"))
        .await
        .unwrap();
    assert!(
        fired.contains(&(JobKind::Decay, at("2026-11-22T01:00:00Z"))),
        "{fired:?}"
    );
    assert!(
        fired.contains(&(JobKind::PromoteMacros, at("2026-11-22T02:00:00Z"))),
        "the Sunday slot too"
    );
    let decay = svc
        .queue
        .job_by_key(JobKind::Decay, "decay@2026-11-22T01:00:00+00:00")
        .await
        .unwrap()
        .expect("queued");
    assert_eq!(
        decay.payload.unwrap().payload["as_of"],
        "2026-11-22T01:00:00Z",
        "the job runs for its slot's time"
    );
    // A second scheduler starting a minute later fires nothing already fired.
    let again = cosmo_scheduler::catch_up(&svc, &schedules, at("2026-11-22T06:01:00Z"))
        .await
        .unwrap();
    assert!(
        again.iter().all(|(k, _)| *k == JobKind::Reconcile),
        "only the newer reconcile slot: {again:?}"
    );
    // Beyond the look-back nothing is fired.
    let week_later = cosmo_scheduler::catch_up(&svc, &schedules, at("2026-11-30T23:00:00Z"))
        .await
        .unwrap();
    assert!(
        !week_later.iter().any(|(k, _)| *k == JobKind::PromoteMacros),
        "last Sunday is more than 24 h ago"
    );
}

/// The queue is unreachable as a scheduler starts (its table is gone, as under another
/// process' migration): the scheduler keeps running and catches the missed slot up once
/// the queue is back.
#[tokio::test]
async fn a_scheduler_started_during_a_queue_outage_catches_up_when_it_ends() {
    let dir = tempfile::tempdir().unwrap();
    let svc = stores::sqlite(dir.path()).await;
    let (svc, _clock) = stores::manual_clock(svc, at("2026-11-22T06:00:00Z"));
    let graph = cosmo_shared::graph::sqlite::SqliteGraph::open(&dir.path().join("cosmo.db"))
        .await
        .unwrap();
    sqlx::query("ALTER TABLE Jobs RENAME TO Jobs_offline")
        .execute(graph.pool())
        .await
        .unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let scheduler = tokio::spawn(cosmo_scheduler::run(svc.clone(), async move {
        let _ = stopped.await;
    }));
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert!(!scheduler.is_finished(), "the scheduler is still running");
    sqlx::query("ALTER TABLE Jobs_offline RENAME TO Jobs")
        .execute(graph.pool())
        .await
        .unwrap();
    wait_for("the missed decay slot", Duration::from_secs(10), || async {
        svc.queue
            .job_by_key(JobKind::Decay, "decay@2026-11-22T01:00:00+00:00")
            .await
            .ok()
            .flatten()
    })
    .await;
    stop.send(()).unwrap();
    scheduler.await.unwrap().unwrap();
}

#[tokio::test]
async fn three_scheduler_replicas_enqueue_one_job_per_slot_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cosmo.db");
    replicas_fire_each_slot_once(dir.path(), &format!("sqlite://{}", db.display()), &db).await;
}

#[tokio::test]
async fn three_scheduler_replicas_enqueue_one_job_per_slot_on_postgres() {
    let dir = tempfile::tempdir().unwrap();
    let pg = cosmo_tests::pg::TempPostgres::create().await;
    replicas_fire_each_slot_once(dir.path(), &pg.url, &dir.path().join("graph.db")).await;
}

/// Three schedulers fire decay every second for a few seconds: every slot any of them
/// fired is exactly one job, enqueued by exactly one of them.
async fn replicas_fire_each_slot_once(dir: &std::path::Path, url: &str, graph: &std::path::Path) {
    let q = stores::connect(stores::test_config(url, graph)).await.queue;
    let yearly = "0 0 0 1 1 *";
    let vars = [
        ("COSMO_SCHEDULER__CATCH_UP_HOURS", "0"),
        ("COSMO_SCHEDULER__DECAY", "* * * * * *"),
        ("COSMO_SCHEDULER__RECONCILE", yearly),
        ("COSMO_SCHEDULER__CONSOLIDATE_EPISODIC", yearly),
        ("COSMO_SCHEDULER__PROMOTE_STORYLINES", yearly),
        ("COSMO_SCHEDULER__REFRESH_STORYLINES", yearly),
        ("COSMO_SCHEDULER__CONSOLIDATE_DESCRIPTIONS", yearly),
        ("COSMO_SCHEDULER__CLEANUP_NOTES", yearly),
        ("COSMO_SCHEDULER__PROMOTE_MACROS", yearly),
        ("COSMO_SCHEDULER__REFRESH_MACROS", yearly),
        ("RUST_LOG", "cosmo_scheduler=info"),
        ("COSMO_LOG__FORMAT", "json"),
    ];
    let env = process::env(url, graph, &vars);
    let mut replicas: Vec<Proc> = (0..3)
        .map(|_| Proc::start("scheduler", &[], dir, &env))
        .collect();
    let decay_jobs = || async {
        q.counts()
            .await
            .unwrap()
            .iter()
            .filter(|c| c.kind == "decay")
            .map(|c| c.count)
            .sum::<i64>()
    };
    wait_for("five decay slots", Duration::from_secs(30), || async {
        (decay_jobs().await >= 5).then_some(())
    })
    .await;
    for r in &mut replicas {
        assert!(
            r.terminate(Duration::from_secs(10)),
            "a scheduler stops on SIGTERM"
        );
    }
    // Every firing each replica logged: (slot, duplicate).
    let mut firings: Vec<(String, bool)> = Vec::new();
    for r in &replicas {
        for line in r.output().lines() {
            let Ok(event) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            if event["message"] == "scheduled job fired" && event["kind"] == "decay" {
                let slot = event["slot"].as_str().unwrap_or_default().to_owned();
                firings.push((slot, event["duplicate"] == true));
            }
        }
    }
    let mut slots: Vec<&String> = firings.iter().map(|(s, _)| s).collect();
    slots.sort();
    slots.dedup();
    assert_eq!(
        decay_jobs().await,
        slots.len() as i64,
        "one job per slot fired: {firings:?}"
    );
    for slot in &slots {
        let enqueued = firings.iter().filter(|(s, d)| s == *slot && !d).count();
        assert_eq!(enqueued, 1, "slot {slot} enqueued by exactly one replica");
    }
    assert!(
        firings.iter().any(|(_, duplicate)| *duplicate),
        "the replicas raced for the same slots: {firings:?}"
    );
}

#[tokio::test]
async fn an_operator_runs_a_job_now_and_reads_what_it_did() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, api) = process::embedded(dir.path(), "ops-key", &[]).await;
    let (status, accepted) = api
        .post(
            "/api/admin/jobs/decay/run",
            &json!({ "as_of": "2027-03-01T00:00:00Z" }),
        )
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{accepted}");
    // (Catch-up at start may have run today's decay slot too: find ours.)
    let run = wait_for("the decay run", Duration::from_secs(30), || async {
        let (_, runs) = api.get("/api/admin/jobs/runs?kind=decay").await;
        runs.as_array().and_then(|r| {
            r.iter()
                .find(|r| r["job_id"] == accepted["job_id"])
                .cloned()
        })
    })
    .await;
    assert_eq!(
        (run["as_of"].as_str(), run["status"].as_str()),
        (Some("2027-03-01T00:00:00Z"), Some("succeeded"))
    );
    assert_eq!(run["job_id"], accepted["job_id"]);
    let (status, _) = api
        .post("/api/admin/jobs/process-source/run", &json!({}))
        .await;
    assert_eq!(
        status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "only periodic jobs"
    );
    let (status, _) = api.post("/api/admin/jobs/nonsense/run", &json!({})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // A run dated centuries away would decay every tenant's memories at once.
    for far in ["9999-12-31T00:00:00Z", "1900-01-01T00:00:00Z"] {
        let (status, error) = api
            .post("/api/admin/jobs/decay/run", &json!({ "as_of": far }))
            .await;
        assert_eq!(
            (status, error["error"]["field"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some("as_of")),
            "{error}"
        );
    }
    // An oversized body gets the same JSON 413 as every other endpoint.
    let huge = json!({ "as_of": "x".repeat(2 * 1024 * 1024) });
    let (status, error) = api.post("/api/admin/jobs/decay/run", &huge).await;
    assert_eq!(
        (status, error["error"]["code"].as_str()),
        (StatusCode::PAYLOAD_TOO_LARGE, Some("payload_too_large")),
        "{error}"
    );
    let tenant = Api::new(&api.base, Some(&create_key(dir.path()).await));
    assert_eq!(
        tenant.post("/api/admin/jobs/decay/run", &json!({})).await.0,
        StatusCode::FORBIDDEN
    );

    // The same from the command line, in-process.
    let db = dir.path().join("cosmo.db");
    let cosmo = |args: &[&str]| {
        std::process::Command::new(process::bin("cosmo"))
            .args(args)
            .current_dir(dir.path())
            .envs(process::env(
                &format!("sqlite://{}", db.display()),
                &db,
                &[("COSMO_LOG__LEVEL", "error")],
            ))
            .output()
            .unwrap()
    };
    let out = cosmo(&[
        "run-job",
        "cleanup-notes",
        "--as-of",
        "2027-03-02T04:00:00Z",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (printed["job_kind"].as_str(), printed["status"].as_str()),
        (Some("cleanup-notes"), Some("succeeded"))
    );

    // A dry run prints what a run would do and records no run.
    let out = cosmo(&[
        "run-job",
        "decay",
        "--dry-run",
        "--as-of",
        "2027-03-03T01:00:00Z",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(printed["as_of"], "2027-03-03T01:00:00Z", "{printed}");
    assert!(printed["archive"].is_array(), "{printed}");
    let (_, runs) = api.get("/api/admin/jobs/runs?kind=decay").await;
    assert!(
        runs.as_array()
            .is_some_and(|r| r.iter().all(|r| r["as_of"] != printed["as_of"])),
        "a dry run records no run: {runs}"
    );
    let out = cosmo(&["run-job", "promote-macros", "--dry-run"]);
    assert!(
        !out.status.success(),
        "only decay and cleanup-notes have a dry run"
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("promote-macros has no dry run"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

async fn create_key(dir: &std::path::Path) -> String {
    let db = dir.join("cosmo.db");
    let out = std::process::Command::new(process::bin("cosmo"))
        .args(["keys", "create", "--tenant", "acme"])
        .current_dir(dir)
        .envs(process::env(
            &format!("sqlite://{}", db.display()),
            &db,
            &[("COSMO_LOG__LEVEL", "error")],
        ))
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

/// The queue is out of reach as a slot fires: the enqueue is retried with backoff and
/// the slot's job is in the queue once the queue returns, once (a repeat is a
/// duplicate); close to the schedule's next slot it gives up, saying so.
#[tokio::test]
async fn a_slot_fired_during_a_queue_outage_is_enqueued_when_the_queue_returns() {
    use cosmo_scheduler::{fire_slot, schedules};
    use cosmo_shared::queue::Enqueued;

    let dir = tempfile::tempdir().unwrap();
    let svc = stores::sqlite(dir.path()).await;
    let (svc, clock) = stores::manual_clock(svc, at("2026-11-22T06:00:00Z"));
    let graph = cosmo_shared::graph::sqlite::SqliteGraph::open(&dir.path().join("cosmo.db"))
        .await
        .unwrap();
    let queue_down = |down: bool| {
        let (from, to) = if down {
            ("Jobs", "Jobs_offline")
        } else {
            ("Jobs_offline", "Jobs")
        };
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "ALTER TABLE {from} RENAME TO {to}"
        )))
        .execute(graph.pool())
    };
    let decay = schedules(&svc)
        .unwrap()
        .into_iter()
        .find(|s| s.kind == JobKind::Decay)
        .unwrap();
    let slot = at("2026-11-22T01:00:00Z");
    assert_eq!(
        decay.slot(svc.clock.now()).unwrap(),
        slot,
        "decay runs at 01:00 UTC"
    );

    queue_down(true).await.unwrap();
    let firing = tokio::spawn({
        let (svc, decay) = (svc.clone(), decay.clone());
        async move { fire_slot(&svc, &decay, slot).await }
    });
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert!(
        !firing.is_finished(),
        "still retrying while the queue is down"
    );
    queue_down(false).await.unwrap();
    let outcome = tokio::time::timeout(Duration::from_secs(20), firing)
        .await
        .expect("enqueued once the queue is back")
        .unwrap()
        .unwrap();
    assert!(matches!(outcome, Enqueued::Created { .. }), "{outcome:?}");
    assert!(
        svc.queue
            .job_by_key(JobKind::Decay, "decay@2026-11-22T01:00:00+00:00")
            .await
            .unwrap()
            .is_some()
    );
    let again = fire_slot(&svc, &decay, slot).await.unwrap();
    assert!(matches!(again, Enqueued::Duplicate { .. }), "{again:?}");

    // Half a second before the next slot there is no time to retry: the firing gives up
    // at once and says which slot it lost.
    clock.set(at("2026-11-23T00:59:59.5Z"));
    queue_down(true).await.unwrap();
    let late = at("2026-11-22T01:00:00Z");
    let error = fire_slot(&svc, &decay, late).await.unwrap_err();
    assert!(format!("{error:#}").contains("giving up"), "{error:#}");
    queue_down(false).await.unwrap();
}
