//! The live session buffer (`/api/sessions/…`), over HTTP to the API in this process,
//! on the embedded SQLite store and on a PostgreSQL directory: concurrent appends and
//! the exactly-once flush (`concurrent`), a restart with a chunk claimed but never
//! posted (`restart`), and refusals, context and erasure (`behaviour`).
//!
//! What a user can check is checked: the Sources stored for the user (the graph's own
//! list, not the API's account of it), their transcripts, and the buffer.

mod behaviour;
mod concurrent;
mod restart;

use std::collections::BTreeMap;

use cosmo_shared::config::Config;
use cosmo_shared::db::Db;
use cosmo_shared::domain::Source;
use cosmo_shared::queue::JobKind;
use cosmo_shared::queue::payloads::{ExtractEntities, ProcessSource};
use cosmo_shared::services::Services;
use cosmo_tests::http::Api;
use cosmo_tests::pg::TempPostgres;
use cosmo_tests::stores;
use cosmo_workers::dispatch::Dispatcher;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// Where the directory lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Directory {
    Sqlite,
    Postgres,
}

/// Stores that outlive the processes using them: a folder (the SQLite file, or the
/// graph file beside a PostgreSQL directory) and, for PostgreSQL, a database.
pub struct Stores {
    dir: tempfile::TempDir,
    pg: Option<TempPostgres>,
    key: std::sync::OnceLock<String>,
}

/// The API running on [`Stores`], until [`Running::stop`].
pub struct Running {
    pub svc: Services,
    pub api: Api,
    stop: tokio::sync::oneshot::Sender<()>,
    served: tokio::task::JoinHandle<anyhow::Result<()>>,
}

impl Stores {
    pub async fn new(directory: Directory) -> Self {
        let pg = match directory {
            Directory::Sqlite => None,
            Directory::Postgres => Some(TempPostgres::create().await),
        };
        Self {
            dir: tempfile::tempdir().unwrap(),
            pg,
            key: std::sync::OnceLock::new(),
        }
    }

    pub fn config(&self) -> Config {
        match &self.pg {
            None => {
                let db = self.dir.path().join("cosmo.db");
                stores::test_config(&format!("sqlite://{}", db.display()), &db)
            }
            Some(pg) => stores::test_config(&pg.url, &self.dir.path().join("graph.db")),
        }
    }

    /// Connects services (migrating), and serves the API as `cosmo serve` does (which
    /// posts chunks left unposted by an earlier process).
    pub async fn start(&self) -> Running {
        let svc = stores::connect(self.config()).await;
        if self.key.get().is_none() {
            let (key, _) = svc
                .directory
                .create_api_key("acme", "acme app", false, svc.clock.now())
                .await
                .unwrap();
            self.key.set(key).unwrap();
        }
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let served = tokio::spawn(cosmo_api::serve(svc.clone(), listener, async move {
            let _ = stopped.await;
        }));
        Running {
            api: Api::new(base, self.key.get().map(String::as_str)),
            svc,
            stop,
            served,
        }
    }
}

impl Running {
    /// Stops serving and closes the directory's connections: what a stopped process
    /// leaves is what is in the stores.
    pub async fn stop(self) {
        let _ = self.stop.send(());
        self.served.await.unwrap().unwrap();
        match &self.svc.db {
            Db::Sqlite(pool) => pool.close().await,
            Db::Postgres(pool) => pool.close().await,
        }
    }

    /// [`say`] through this API.
    pub async fn say(&self, user: &str, session: &str, turn: &Turn) -> Value {
        say(&self.api, user, session, turn).await
    }

    /// `GET /api/sessions/{session}?user_id={user}` (200 asserted).
    pub async fn session(&self, user: &str, session: &str) -> Value {
        let (status, answer) = self
            .api
            .get(&format!("/api/sessions/{session}?user_id={user}"))
            .await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        answer
    }

    /// `POST /api/sessions/{session}/end` (200 asserted).
    pub async fn end(&self, user: &str, session: &str) -> Value {
        let (status, answer) = self
            .api
            .post(
                &format!("/api/sessions/{session}/end"),
                &json!({ "user_id": user }),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        answer
    }

    /// Every Source the graph holds for `user` (a user of tenant `acme`).
    pub async fn sources(&self, user: &str) -> Vec<Source> {
        let graph_user = self
            .svc
            .directory
            .tenant_user("acme", user)
            .await
            .unwrap()
            .map_or_else(|| user.to_owned(), |u| u.graph_user_id);
        self.svc
            .graph
            .sources_for_user(&graph_user, None, 10_000)
            .await
            .unwrap()
    }

    /// Runs `process-source` and the owner's `extract-entities` for `key`, as workers
    /// would; the Source must come out extracted.
    pub async fn pipeline(&self, key: &str, user: &str) {
        let jobs = Dispatcher::new(self.svc.clone());
        jobs.run(
            JobKind::ProcessSource,
            &json!(ProcessSource {
                entity_key: key.to_owned()
            }),
            None,
        )
        .await
        .unwrap_or_else(|e| panic!("processing {key}: {}", e.message));
        jobs.run(
            JobKind::ExtractEntities,
            &json!(ExtractEntities {
                entity_key: key.to_owned(),
                user_id: user.to_owned(),
            }),
            None,
        )
        .await
        .unwrap_or_else(|e| panic!("extracting {key}: {}", e.message));
        let source = self.svc.graph.source(key).await.unwrap().unwrap();
        assert_eq!(source.processing_status.to_string(), "extracted", "{key}");
    }
}

/// One turn the tests say: its text is unique, its time is its number in minutes
/// after 09:00 on 2 March 2026.
#[derive(Debug, Clone)]
pub struct Turn {
    pub n: usize,
    pub text: String,
}

impl Turn {
    pub fn at(&self) -> chrono::DateTime<chrono::Utc> {
        "2026-03-02T09:00:00Z"
            .parse::<chrono::DateTime<chrono::Utc>>()
            .unwrap()
            + chrono::Duration::minutes(self.n as i64)
    }

    pub fn json(&self) -> Value {
        let speaker = if self.n.is_multiple_of(2) {
            "assistant"
        } else {
            "user"
        };
        json!({ "speaker": speaker, "text": self.text, "timestamp": self.at().to_rfc3339() })
    }

    pub fn new_turn(&self) -> cosmo_shared::domain::input::session::NewTurn {
        cosmo_shared::domain::input::session::NewTurn {
            speaker: "user".into(),
            text: self.text.clone(),
            at: Some(self.at()),
        }
    }
}

/// Turns 1 to `n`, each said by client `i % clients`.
pub fn conversation(n: usize, clients: usize) -> Vec<Turn> {
    (1..=n)
        .map(|i| Turn {
            n: i,
            text: format!(
                "Turn {i} from client {}: Priya wants the garden plan {i} done soon.",
                i % clients
            ),
        })
        .collect()
}

/// `POST /api/sessions/{session}/turns` with one turn; the answer (200 asserted).
pub async fn say(api: &Api, user: &str, session: &str, turn: &Turn) -> Value {
    let body = json!({ "user_id": user, "turns": [turn.json()] });
    let (status, answer) = api
        .post(&format!("/api/sessions/{session}/turns"), &body)
        .await;
    assert_eq!(
        status,
        StatusCode::OK,
        "appending turn {}: {answer}",
        turn.n
    );
    answer
}

/// Says `turns` from `clients` concurrent clients, client `c` saying the turns whose
/// number is `c` modulo `clients`, each client one turn after another. Asserts that no
/// append leaves more than `flush_after` turns in the buffer.
pub async fn say_concurrently(
    api: &Api,
    user: &str,
    session: &str,
    turns: &[Turn],
    clients: usize,
    flush_after: i64,
) {
    let mut running = tokio::task::JoinSet::new();
    for c in 0..clients {
        let mine: Vec<Turn> = turns
            .iter()
            .filter(|t| t.n % clients == c)
            .cloned()
            .collect();
        let (api, user, session) = (api.clone(), user.to_owned(), session.to_owned());
        running.spawn(async move {
            for turn in mine {
                let answer = say(&api, &user, &session, &turn).await;
                let buffered = answer["buffered_turns"].as_i64().unwrap();
                assert!(
                    buffered <= flush_after,
                    "{buffered} turns buffered: {answer}"
                );
            }
        });
    }
    while let Some(done) = running.join_next().await {
        done.unwrap();
    }
}

/// The texts of a transcript's turns, in order.
pub fn transcript_texts(source: &Source) -> Vec<String> {
    source.raw_content["content"]
        .as_array()
        .unwrap_or_else(|| {
            panic!(
                "{} has a transcript: {}",
                source.entity_key, source.raw_content
            )
        })
        .iter()
        .map(|t| t["text"].as_str().unwrap().to_owned())
        .collect()
}

/// The texts of the turns in a session's buffer, in order.
pub fn buffer_texts(session: &Value) -> Vec<String> {
    session["buffer"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["text"].as_str().unwrap().to_owned())
        .collect()
}

/// How many times each text appears in the user's Sources and in the buffer.
pub fn placements(sources: &[Source], session: &Value) -> BTreeMap<String, usize> {
    let mut seen = BTreeMap::new();
    let texts = sources
        .iter()
        .flat_map(transcript_texts)
        .chain(buffer_texts(session));
    for text in texts {
        *seen.entry(text).or_insert(0) += 1;
    }
    seen
}

/// Asserts that each of `said` is in exactly one Source or in the buffer, and that
/// nothing else is.
pub fn assert_each_once(said: &[Turn], sources: &[Source], session: &Value) {
    let seen = placements(sources, session);
    let twice: Vec<_> = seen.iter().filter(|(_, n)| **n > 1).collect();
    assert!(twice.is_empty(), "turns stored more than once: {twice:?}");
    let missing: Vec<_> = said
        .iter()
        .filter(|t| !seen.contains_key(&t.text))
        .map(|t| t.n)
        .collect();
    assert!(missing.is_empty(), "turns lost: {missing:?}");
    assert_eq!(seen.len(), said.len(), "only the turns said are stored");
}
