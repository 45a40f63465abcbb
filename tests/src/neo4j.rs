//! A Neo4j server for the graph contract suite, when `NEO4J_URI` (with `NEO4J_USER`,
//! `NEO4J_PASSWORD`, optionally `NEO4J_DATABASE`) names one. Tests share the server:
//! each works in its own key space (user ids ending in a unique suffix) and deletes it
//! when done.

use std::time::Duration;

use cosmo_shared::config::Neo4jConfig;
use neo4rs::{ConfigBuilder, Graph};
use tokio::sync::Mutex;

/// The test harness's one statement: everything of one key space.
const DELETE_KEY_SPACE: &str = include_str!("neo4j/delete_key_space.cypher");

/// The server from the environment, or `None` when `NEO4J_URI` is not set.
pub fn config_from_env() -> Option<Neo4jConfig> {
    let uri = std::env::var("NEO4J_URI").ok().filter(|u| !u.is_empty())?;
    let var = |name: &str, default: &str| std::env::var(name).unwrap_or_else(|_| default.into());
    Some(Neo4jConfig {
        uri,
        user: var("NEO4J_USER", "neo4j"),
        password: var("NEO4J_PASSWORD", ""),
        database: var("NEO4J_DATABASE", "neo4j"),
        max_connections: 4,
        max_lifetime_secs: 60,
        connection_timeout_secs: 10,
        ..Neo4jConfig::default()
    })
}

/// A fresh key space: `-t` and a ULID, appended to every user id of one test.
pub fn new_suffix() -> String {
    format!("-t{}", ulid::Ulid::generate().to_string().to_lowercase())
}

/// Tests of one process apply the schema once, one at a time: concurrent schema
/// commands for the same constraint can race on the server.
static MIGRATED: Mutex<bool> = Mutex::const_new(false);

pub async fn migrate_once(graph: &dyn cosmo_shared::graph::GraphStore) {
    let mut done = MIGRATED.lock().await;
    if !*done {
        graph.migrate().await.expect("migrate the Neo4j schema");
        *done = true;
    }
}

/// Deletes every node of a key space (with its relationships) when dropped.
#[derive(Debug)]
pub struct KeySpace {
    config: Neo4jConfig,
    suffix: String,
}

impl KeySpace {
    pub fn new(config: Neo4jConfig, suffix: String) -> Self {
        assert!(suffix.len() > 8, "a key space suffix must be specific");
        Self { config, suffix }
    }
}

/// A plain Bolt connection to the server, for what a test does beside the store.
pub async fn connect(config: &Neo4jConfig) -> Graph {
    try_connect(config).expect("connect to the Neo4j server at NEO4J_URI")
}

fn try_connect(config: &Neo4jConfig) -> Result<Graph, String> {
    let settings = ConfigBuilder::default()
        .uri(config.uri.as_str())
        .user(config.user.as_str())
        .password(config.password.as_str())
        .db(config.database.as_str())
        .max_connections(1)
        .max_lifetime(Duration::from_secs(30))
        .build()
        .map_err(|e| e.to_string())?;
    Graph::connect(settings).map_err(|e| e.to_string())
}

impl Drop for KeySpace {
    fn drop(&mut self) {
        let (config, suffix) = (self.config.clone(), self.suffix.clone());
        // Drop runs inside the test's runtime; a short-lived one does the work.
        let done = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(|e| e.to_string())?;
            rt.block_on(async {
                let graph = try_connect(&config)?;
                graph
                    .run(neo4rs::query(DELETE_KEY_SPACE).param("suffix", suffix.as_str()))
                    .await
                    .map_err(|e| e.to_string())
            })
        })
        .join();
        if let Ok(Err(e)) = done {
            eprintln!("could not delete Neo4j key space {}: {e}", self.suffix);
        }
    }
}
