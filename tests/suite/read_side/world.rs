//! The API in-process on the embedded store, with a manual clock: requests go over HTTP
//! to the real router; jobs run when the test says, through the workers' dispatcher
//! (their queued copies stay in the queue, as if no worker had picked them up yet).

use std::path::PathBuf;

use chrono::{DateTime, Duration, Utc};
use cosmo_shared::clock::ManualClock;
use cosmo_shared::db::Db;
use cosmo_shared::graph::GraphSnapshot;
use cosmo_shared::job_runs::JobRun;
use cosmo_shared::queue::JobKind;
use cosmo_shared::queue::payloads::{ExtractEntities, ProcessSource};
use cosmo_shared::services::Services;
use cosmo_tests::http::Api;
use cosmo_tests::stores;
use cosmo_workers::dispatch::Dispatcher;
use reqwest::StatusCode;
use serde_json::{Value, json};
use sqlx::SqlitePool;

/// Day `n` of the tests' calendar, 09:00 UTC.
pub fn day(n: i64) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-03-02T09:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
        + Duration::days(n)
}

pub struct World {
    pub svc: Services,
    pub clock: ManualClock,
    pub jobs: Dispatcher,
    /// A key of tenant `acme`, where every test user lives.
    pub api: Api,
    pub base: String,
    /// The one SQLite file of the embedded store.
    pub db: PathBuf,
    _dir: tempfile::TempDir,
}

impl World {
    pub async fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let (svc, clock) = stores::manual_clock(stores::sqlite(dir.path()).await, day(0));
        let (key, _) = svc
            .directory
            .create_api_key("acme", "acme app", false, day(0))
            .await
            .unwrap();
        let base = cosmo_tests::http::serve(&svc).await;
        Self {
            jobs: Dispatcher::new(svc.clone()),
            api: Api::new(&base, Some(&key)),
            db: dir.path().join("cosmo.db"),
            svc,
            clock,
            base,
            _dir: dir,
        }
    }

    /// A client with a key of another tenant.
    pub async fn other_tenant(&self) -> Api {
        let (key, _) = self
            .svc
            .directory
            .create_api_key("globex", "globex app", false, day(0))
            .await
            .unwrap();
        Api::new(&self.base, Some(&key))
    }

    pub fn pool(&self) -> SqlitePool {
        match &self.svc.db {
            Db::Sqlite(pool) => pool.clone(),
            other => panic!("the embedded store is SQLite, not {other:?}"),
        }
    }

    pub fn at(&self, n: i64) {
        self.clock.set(day(n));
    }

    pub async fn profile(&self, user: &str, full_name: &str) {
        let (status, body) = self
            .api
            .put(
                &format!("/api/users/{user}"),
                &json!({ "full_name": full_name }),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }

    /// Posts a Source, then processes it and extracts it for its owner.
    pub async fn ingest(&self, body: Value) -> String {
        let key = self.api.post_source(&body).await;
        self.process(&key).await;
        self.extract(&key, body["user_id"].as_str().unwrap()).await;
        key
    }

    pub async fn process(&self, key: &str) {
        let payload = json!(ProcessSource {
            entity_key: key.to_owned()
        });
        self.jobs
            .run(JobKind::ProcessSource, &payload, None)
            .await
            .unwrap_or_else(|e| panic!("processing {key}: {e}"));
    }

    pub async fn extract(&self, key: &str, user: &str) {
        let payload = json!(ExtractEntities {
            entity_key: key.to_owned(),
            user_id: user.to_owned(),
        });
        self.jobs
            .run(JobKind::ExtractEntities, &payload, None)
            .await
            .unwrap_or_else(|e| panic!("extracting {key} for {user}: {e}"));
    }

    /// Runs a periodic job as of day `n` (the clock moves there).
    pub async fn run(&self, kind: JobKind, n: i64) -> JobRun {
        self.at(n);
        self.jobs
            .run_periodic(kind, day(n), None)
            .await
            .unwrap_or_else(|e| panic!("{kind}: {}", e.message))
    }

    /// `POST path` answered with 200; the answer.
    pub async fn ok(&self, path: &str, body: Value) -> Value {
        let (status, answer) = self.api.post(path, &body).await;
        assert_eq!(status, StatusCode::OK, "{path}: {answer}");
        answer
    }

    /// `GET path` answered with 200; the answer.
    pub async fn read(&self, path: &str) -> Value {
        let (status, answer) = self.api.get(path).await;
        assert_eq!(status, StatusCode::OK, "{path}: {answer}");
        answer
    }

    /// Explores `user`'s memory with one query at a granularity.
    pub async fn explore(&self, user: &str, query: &str, granularity: u8) -> Value {
        self.ok(
            "/api/explore",
            json!({ "user_id": user, "queries": [{ "query": query }], "granularity": granularity }),
        )
        .await
    }

    /// A memory's lifecycle as `GET /api/memories/{kind}/{key}` shows it.
    pub async fn memory(&self, kind: &str, key: &str) -> Value {
        self.read(&format!("/api/memories/{kind}/{key}")).await
    }
}

/// The entity key of `user`'s node called `name` (read from the store, so it counts
/// as no recall).
pub async fn node_named(w: &World, user: &str, name: &str) -> String {
    let snapshot = GraphSnapshot::of_user(&*w.svc.graph, user).await.unwrap();
    let names: Vec<&str> = snapshot.nodes.iter().map(|n| n.name.as_str()).collect();
    snapshot
        .node_named(name)
        .unwrap_or_else(|| panic!("{name} extracted for {user}; nodes: {names:?}"))
        .entity_key
        .clone()
}

/// A text note of `user` on day `n`.
pub fn note(user: &str, n: i64, text: &str) -> Value {
    json!({
        "user_id": user, "source_type": "text-note", "started_at": day(n).to_rfc3339(),
        "raw_content": { "content": text },
    })
}

/// The entity keys of a list of results (`sources`, `nodes`, …) of an answer.
pub fn keys_of(answer: &Value, list: &str, key: &str) -> Vec<String> {
    answer[list]
        .as_array()
        .unwrap_or_else(|| panic!("no {list} in {answer}"))
        .iter()
        .map(|r| r[key].as_str().unwrap().to_owned())
        .collect()
}
