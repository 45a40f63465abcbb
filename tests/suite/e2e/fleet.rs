//! The production shape: `ingest-api` and `workers` as separate processes on one
//! queue. A worker killed mid-job loses nothing: another picks the job up after the
//! dead one's missed heartbeats. A stopped worker finishes its job first.

use std::path::Path;
use std::time::Duration;

use cosmo_shared::queue::{JobKind, JobQueue, JobRecord};
use cosmo_tests::http::Api;
use cosmo_tests::pg::TempPostgres;
use cosmo_tests::process::{self, Proc};
use cosmo_tests::{fixtures, stores, wait_for};

const KEY: &str = "fleet-key";

/// A queue backend for the fleet: Postgres, or the embedded SQLite file.
enum Backend {
    Postgres(TempPostgres),
    Sqlite,
}

impl Backend {
    fn url(&self, dir: &Path) -> String {
        match self {
            Self::Postgres(pg) => pg.url.clone(),
            Self::Sqlite => format!("sqlite://{}", dir.join("cosmo.db").display()),
        }
    }
}

/// Process environment: queue at `backend`, graph in `dir/graph.db` (or the one file).
fn env(backend: &Backend, dir: &Path, extra: &[(&str, &str)]) -> Vec<(String, String)> {
    let graph = match backend {
        Backend::Postgres(_) => dir.join("graph.db"),
        Backend::Sqlite => dir.join("cosmo.db"),
    };
    let mut vars = vec![("COSMO_AUTH__BOOTSTRAP_KEY", KEY)];
    vars.extend_from_slice(extra);
    process::env(&backend.url(dir), &graph, &vars)
}

async fn api_process(backend: &Backend, dir: &Path) -> (Proc, Api) {
    process::serve("ingest-api", &[], dir, KEY, |bind| {
        env(backend, dir, &[("COSMO_SERVER__BIND", bind)])
    })
    .await
}

fn worker(
    backend: &Backend,
    dir: &Path,
    name: &str,
    args: &[&str],
    extra: &[(&str, &str)],
) -> Proc {
    let mut vars = vec![("COSMO_WORKERS__NAME", name)];
    vars.extend_from_slice(extra);
    Proc::start("workers", args, dir, &env(backend, dir, &vars))
}

/// The queue as an operator would look at it.
async fn queue(backend: &Backend, dir: &Path) -> std::sync::Arc<dyn JobQueue> {
    let graph = match backend {
        Backend::Postgres(_) => dir.join("graph.db"),
        Backend::Sqlite => dir.join("cosmo.db"),
    };
    stores::connect(stores::test_config(&backend.url(dir), &graph))
        .await
        .queue
}

/// API, two worker processes and the scheduler over PostgreSQL, with the graph store
/// `graph` names (environment variables; none: a SQLite file) for `user`.
async fn fleet(dir: &Path, graph: &[(&str, &str)], user: &str) {
    let backend = Backend::Postgres(TempPostgres::create().await);
    let with_graph = |extra: &[(&str, &str)]| -> Vec<(String, String)> {
        let mut vars: Vec<(&str, &str)> = graph.to_vec();
        vars.extend_from_slice(extra);
        env(&backend, dir, &vars)
    };
    let (_api_proc, api) = process::serve("ingest-api", &[], dir, KEY, |bind| {
        with_graph(&[("COSMO_SERVER__BIND", bind)])
    })
    .await;
    // Two identical worker processes serving every job kind: how an operator scales.
    let ports = [process::free_port(), process::free_port()];
    let args = ["--concurrency", "2"];
    let _workers: Vec<Proc> = ports
        .iter()
        .zip(["worker-a", "worker-b"])
        .map(|(port, name)| {
            let port = port.to_string();
            Proc::start(
                "workers",
                &args,
                dir,
                &with_graph(&[
                    ("COSMO_WORKERS__NAME", name),
                    ("COSMO_WORKERS__HEALTH_PORT", &port),
                ]),
            )
        })
        .collect();
    let _scheduler = Proc::start(
        "scheduler",
        &[],
        dir,
        &with_graph(&[("COSMO_SCHEDULER__RECONCILE", "*/1 * * * * *")]),
    );

    let mut keys = Vec::new();
    for (_, body) in fixtures::every_type(user) {
        keys.push(api.post_source(&body).await);
    }
    let q = queue(&backend, dir).await;
    for key in &keys {
        let view = api.wait_extracted(key).await;
        assert!(!view["summary"].as_str().unwrap().is_empty());
        // Each job ended on one of the two workers. (The worker writes the job's
        // outcome on its next wake-up, so the row may trail the extraction a little.)
        let job = wait_for(
            "the job's row to say Done",
            Duration::from_secs(30),
            || async {
                q.job_by_key(JobKind::ProcessSource, key)
                    .await
                    .unwrap()
                    .filter(|j| j.status == "Done")
            },
        )
        .await;
        let by = job.lock_by.unwrap_or_default();
        assert!(
            by.starts_with("worker-a/") || by.starts_with("worker-b/"),
            "run by a fleet worker: {by}"
        );
    }
    // Each job ran once across the fleet. (A worker whose heartbeat is late, on a busy
    // host, has its job handed out again, which counts an attempt; the second hand-out
    // finds the first run's lease and does not run the job.)
    let (mut started, mut succeeded) = (0.0, 0.0);
    for port in ports {
        let scrape =
            cosmo_tests::prometheus::scrape(&format!("http://127.0.0.1:{port}/metrics")).await;
        let count = |name: &str| {
            scrape
                .value(name, &[("kind", JobKind::ProcessSource.as_str())])
                .unwrap_or(0.0)
        };
        started += count("cosmo_jobs_started_total");
        succeeded += count("cosmo_jobs_succeeded_total");
    }
    assert_eq!(
        (started, succeeded),
        (keys.len() as f64, keys.len() as f64),
        "every process-source job started once and succeeded once across the two workers"
    );
    let (status, ready) = api.get("/readyz").await;
    assert_eq!(
        (status.as_u16(), ready["queue"]["backend"].as_str()),
        (200, Some("postgres"))
    );
    let worker_health = Api::new(format!("http://127.0.0.1:{}", ports[0]), None)
        .get("/healthz")
        .await;
    assert_eq!(
        worker_health.0.as_u16(),
        200,
        "the worker's health port answers"
    );

    // The scheduler process fires the reconciler; a worker runs it.
    wait_for(
        "a scheduled reconcile job to run",
        Duration::from_secs(30),
        || async {
            let counts = q.counts().await.unwrap();
            counts
                .iter()
                .find(|c| c.kind == "reconcile" && c.status == "Done")
                .map(|_| ())
        },
    )
    .await;
}

#[tokio::test]
async fn api_workers_and_scheduler_run_as_separate_processes_over_postgres() {
    let dir = tempfile::tempdir().unwrap();
    fleet(dir.path(), &[], "alex").await;
}

#[tokio::test]
async fn the_fleet_runs_on_neo4j() {
    let Some(neo4j) = cosmo_tests::neo4j::config_from_env() else {
        eprintln!("fleet on Neo4j: skipped (NEO4J_URI is not set)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let suffix = cosmo_tests::neo4j::new_suffix();
    let _space = cosmo_tests::neo4j::KeySpace::new(neo4j.clone(), suffix.clone());
    let graph = [
        ("COSMO_GRAPH__BACKEND", "neo4j"),
        ("COSMO_GRAPH__NEO4J__URI", neo4j.uri.as_str()),
        ("COSMO_GRAPH__NEO4J__USER", neo4j.user.as_str()),
        ("COSMO_GRAPH__NEO4J__PASSWORD", neo4j.password.as_str()),
        ("COSMO_GRAPH__NEO4J__DATABASE", neo4j.database.as_str()),
        // The server is shared with other tests (and earlier runs): this fleet's
        // reconciler and jobs keep to its own users.
        ("COSMO_GRAPH__NEO4J__KEY_SPACE", suffix.as_str()),
    ];
    fleet(dir.path(), &graph, &format!("alex{suffix}")).await;
}

/// Waits until the Source's `process-source` job has `status`.
async fn wait_processing_job(q: &dyn JobQueue, key: &str, status: &str) -> JobRecord {
    wait_for(
        &format!("the job to be {status}"),
        Duration::from_secs(30),
        || async {
            q.job_by_key(JobKind::ProcessSource, key)
                .await
                .unwrap()
                .filter(|j| j.status == status)
        },
    )
    .await
}

async fn killed_worker(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let (_api_proc, api) = api_process(&backend, dir.path()).await;
    // Worker A holds every job for 20 s before working on it.
    let mut a = worker(
        &backend,
        dir.path(),
        "slow",
        &[],
        &[("COSMO_WORKERS__JOB_DELAY_MS", "20000")],
    );
    let key = api.post_source(&fixtures::text_note("alex")).await;
    let q = queue(&backend, dir.path()).await;
    let running = wait_processing_job(&*q, &key, "Running").await;
    assert!(
        running
            .lock_by
            .as_deref()
            .unwrap_or("")
            .starts_with("slow/"),
        "{running:?}"
    );
    a.kill();

    let _b = worker(&backend, dir.path(), "fresh", &[], &[]);
    api.wait_extracted(&key).await;
    let job = wait_processing_job(&*q, &key, "Done").await;
    assert_eq!(job.attempts, 2, "the killed run counts as an attempt");
    assert!(job.lock_by.unwrap_or_default().starts_with("fresh/"));
}

#[tokio::test]
async fn a_killed_workers_job_finishes_on_another_worker_over_postgres() {
    killed_worker(Backend::Postgres(TempPostgres::create().await)).await;
}

#[tokio::test]
async fn a_killed_workers_job_finishes_on_another_worker_over_sqlite() {
    killed_worker(Backend::Sqlite).await;
}

#[tokio::test]
async fn a_stopped_worker_finishes_its_job_first() {
    let dir = tempfile::tempdir().unwrap();
    let backend = Backend::Postgres(TempPostgres::create().await);
    let (_api_proc, api) = api_process(&backend, dir.path()).await;
    let slow = [
        ("COSMO_WORKERS__JOB_DELAY_MS", "2000"),
        ("COSMO_WORKERS__SHUTDOWN_TIMEOUT_SECS", "10"),
        ("COSMO_QUEUE__HEARTBEAT_SECS", "4"),
        ("COSMO_QUEUE__MISSED_HEARTBEATS", "4"),
    ];
    let mut w = worker(
        &backend,
        dir.path(),
        "graceful",
        &["--jobs", "process-source"],
        &slow,
    );
    let key = api.post_source(&fixtures::text_note("alex")).await;
    let q = queue(&backend, dir.path()).await;
    wait_processing_job(&*q, &key, "Running").await;
    assert!(
        w.terminate(Duration::from_secs(15)),
        "the worker exits after SIGTERM"
    );
    let job = q
        .job_by_key(JobKind::ProcessSource, &key)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (job.status.as_str(), job.attempts),
        ("Done", 1),
        "finished, not abandoned"
    );
    let (_, view) = api.get(&format!("/api/sources/{key}")).await;
    assert_eq!(view["status"], "processed");
}

/// PostgreSQL (queue and directory) closed to connections: the API answers writes 503
/// with `Retry-After`, not 500, within `database.acquire_timeout_ms` (1.5 s) and the
/// answer's way back, and writes nothing; reads of the (healthy) graph go on with the
/// key and users verified before; once it reopens, posts are accepted again.
#[tokio::test]
async fn a_database_outage_is_a_503_to_retry_later() {
    let dir = tempfile::tempdir().unwrap();
    let backend = Backend::Postgres(TempPostgres::create().await);
    let (_api_proc, api) = api_process(&backend, dir.path()).await;
    let Backend::Postgres(pg) = &backend else {
        unreachable!()
    };
    let note = fixtures::text_note("alice");
    let (status, accepted) = api.post("/api/sources", &note).await;
    assert_eq!(status, reqwest::StatusCode::ACCEPTED);
    let source = format!("/api/sources/{}", accepted["entity_key"].as_str().unwrap());
    let explore = serde_json::json!({"user_id": "alice", "queries": [{"query": "notes"}]});
    let reads = async || {
        (
            api.get(&source).await.0,
            api.post("/api/explore", &explore).await.0,
        )
    };
    let ok = (reqwest::StatusCode::OK, reqwest::StatusCode::OK);
    assert_eq!(reads().await, ok);

    pg.allow_connections(false).await;
    // Reads of the healthy graph go on, their key and user verified before the outage.
    assert_eq!(reads().await, ok, "reads through a directory outage");
    let client = cosmo_shared::http::client();
    let post = |text: &str| {
        let mut body = note.clone();
        body["raw_content"]["content"] = serde_json::json!(text);
        client
            .post(format!("{}/api/sources", api.base))
            .bearer_auth(KEY)
            .json(&body)
            .send()
    };
    let started = std::time::Instant::now();
    let answer = post("During the outage.").await.unwrap();
    let waited = started.elapsed();
    let status = answer.status();
    let retry_after = answer.headers().get("retry-after").cloned();
    let body: serde_json::Value = answer.json().await.unwrap_or_default();
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (
            reqwest::StatusCode::SERVICE_UNAVAILABLE,
            Some("service_unavailable")
        ),
        "{body}"
    );
    assert!(retry_after.is_some(), "a 503 says when to retry");
    assert!(
        waited < Duration::from_secs(5),
        "the outage is noticed by the acquire timeout, not after 10 s: {waited:?}"
    );
    let (status, ready) = api.get("/readyz").await;
    assert_eq!(
        (
            status,
            ready["queue"]["check"]["status"].as_str(),
            ready["graph"]["check"]["status"].as_str()
        ),
        (
            reqwest::StatusCode::SERVICE_UNAVAILABLE,
            Some("down"),
            Some("ok")
        ),
        "/readyz names what is down: {ready}"
    );

    pg.allow_connections(true).await;
    wait_for("posts accepted again", Duration::from_secs(30), || async {
        let answer = post("After the outage.").await.ok()?;
        (answer.status() == reqwest::StatusCode::ACCEPTED).then_some(())
    })
    .await;
}

/// A 60 s PostgreSQL outage (queue and directory) while two worker processes have jobs
/// in flight: far longer than the heartbeat window (2 s here), so when it ends every
/// worker looks dead to the others and their running jobs are handed out again. No job
/// runs twice (every pipeline job succeeds exactly once across the workers, the
/// hand-outs end without running), none ends dead, every Source is extracted, and the
/// workers carry on by themselves.
#[tokio::test]
async fn a_long_database_outage_runs_no_job_twice_and_kills_none() {
    let dir = tempfile::tempdir().unwrap();
    let backend = Backend::Postgres(TempPostgres::create().await);
    let (_api_proc, api) = api_process(&backend, dir.path()).await;
    let Backend::Postgres(pg) = &backend else {
        unreachable!()
    };
    // Each job takes 4 s: jobs are in flight when the outage starts, and some end
    // during it.
    let slow = ("COSMO_WORKERS__JOB_DELAY_MS", "4000");
    let ports = [process::free_port(), process::free_port()];
    let _workers: Vec<Proc> = ports
        .iter()
        .zip(["outage-a", "outage-b"])
        .map(|(port, name)| {
            let port = port.to_string();
            worker(
                &backend,
                dir.path(),
                name,
                &[
                    "--concurrency",
                    "2",
                    "--jobs",
                    "process-source,extract-entities",
                ],
                &[slow, ("COSMO_WORKERS__HEALTH_PORT", &port)],
            )
        })
        .collect();
    let mut keys = Vec::new();
    for i in 0..6 {
        let mut note = fixtures::text_note("alex");
        note["raw_content"]["content"] = serde_json::json!(format!(
            "Outage note {i}: Priya reviewed the Falcon launch plan."
        ));
        keys.push(api.post_source(&note).await);
    }
    let q = queue(&backend, dir.path()).await;
    wait_for("jobs in flight", Duration::from_secs(30), || async {
        let running = q
            .list_jobs(&cosmo_shared::queue::JobFilter {
                state: Some(cosmo_shared::queue::JobState::Running),
                kind: None,
                limit: 10,
            })
            .await
            .ok()?;
        (running.len() >= 2).then_some(())
    })
    .await;

    pg.allow_connections(false).await;
    tokio::time::sleep(Duration::from_secs(60)).await;
    pg.allow_connections(true).await;

    // The nextest budget is 180 s: wait less, so that a failure shows the processes' logs.
    wait_for(
        "every Source extracted",
        Duration::from_secs(60),
        || async {
            for key in &keys {
                let (_, view) = api.get(&format!("/api/sources/{key}")).await;
                if view["status"] != "extracted" {
                    return None;
                }
            }
            Some(())
        },
    )
    .await;
    let pipeline = [JobKind::ProcessSource, JobKind::ExtractEntities];
    let mut handed_out_finished = 0.0;
    let counts = wait_for("the queue settled", Duration::from_secs(20), || async {
        let counts = cosmo_shared::queue::JobCounts::tally(&q.state_counts().await.ok()?);
        (counts.total.pending + counts.total.running == 0).then_some(counts)
    })
    .await;
    assert_eq!(
        counts.total.dead, 0,
        "no job died of the outage: {counts:?}"
    );
    assert_eq!(counts.total.failed, 0, "{counts:?}");
    for kind in pipeline {
        let done = counts.kinds.get(kind.as_str()).map_or(0, |t| t.done);
        assert_eq!(done, keys.len() as i64, "{kind}: {counts:?}");
        let (mut succeeded, mut already) = (0.0, 0.0);
        for port in ports {
            let scrape =
                cosmo_tests::prometheus::scrape(&format!("http://127.0.0.1:{port}/metrics")).await;
            let count = |name: &str| {
                scrape
                    .value(name, &[("kind", kind.as_str())])
                    .unwrap_or(0.0)
            };
            succeeded += count("cosmo_jobs_succeeded_total");
            already += count("cosmo_jobs_already_finished_total");
        }
        assert_eq!(
            succeeded,
            keys.len() as f64,
            "{kind}: every job ran to success exactly once across the workers"
        );
        eprintln!("{kind}: {already} hand-outs of finished jobs ended without running");
        handed_out_finished += already;
    }
    // Jobs in flight finished while the database was out (their usage recorded once it
    // returned) and their workers, restarted meanwhile, could not acknowledge them: they
    // were handed out again, and ended without running.
    assert!(
        handed_out_finished >= 1.0,
        "the outage handed running jobs out again (else this test proves nothing)"
    );
}
