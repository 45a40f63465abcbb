//! [`Services`] on fresh stores: the embedded SQLite file, or PostgreSQL for the queue
//! with a SQLite graph (what the two-process mode runs). Fast heartbeats and backoff so
//! tests do not wait.

use std::path::Path;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use cosmo_shared::clock::ManualClock;
use cosmo_shared::config::Config;
use cosmo_shared::services::Services;

/// Settings for tests: quick heartbeats, quick backoff, short timeouts.
pub fn test_config(database_url: &str, graph_path: &Path) -> Config {
    let mut c = Config::default();
    c.database.url = database_url.to_owned();
    c.graph.sqlite_path = Some(graph_path.to_owned());
    c.queue.poll_interval_ms = 100;
    c.queue.periodic_poll_interval_ms = 200;
    c.queue.heartbeat_secs = 1;
    c.queue.missed_heartbeats = 2;
    c.workers.shutdown_timeout_secs = 1;
    for s in c.jobs.all_mut() {
        s.backoff_secs = 1;
        s.backoff_max_secs = 2;
    }
    c.log.level = "warn".into();
    c
}

/// The embedded default in `dir`: one SQLite file for queue, directory and graph.
pub async fn sqlite(dir: &Path) -> Services {
    let db = dir.join("cosmo.db");
    connect(test_config(&format!("sqlite://{}", db.display()), &db)).await
}

/// PostgreSQL queue and directory, SQLite graph in `dir`.
pub async fn postgres(pg_url: &str, dir: &Path) -> Services {
    connect(test_config(pg_url, &dir.join("graph.db"))).await
}

pub async fn connect(config: Config) -> Services {
    Services::connect(config).await.expect("connect services")
}

/// A clock fixed at `start`, for services whose time the test moves.
pub fn manual_clock(svc: Services, start: DateTime<Utc>) -> (Services, ManualClock) {
    let clock = ManualClock::new(start);
    (svc.with_clock(Arc::new(clock.clone())), clock)
}

/// Services whose graph is the Neo4j server at `NEO4J_URI`, seen through a key space of
/// its own (queue and directory in a SQLite file in `dir`). `None`, saying so, when
/// `NEO4J_URI` is not set. Keep the returned key space alive for the test: dropping it
/// deletes the test's data from the server.
pub async fn neo4j(dir: &Path, what: &str) -> Option<(Services, String, crate::neo4j::KeySpace)> {
    let Some(neo4j) = crate::neo4j::config_from_env() else {
        eprintln!("{what} on Neo4j: skipped (NEO4J_URI is not set)");
        return None;
    };
    let db = dir.join("cosmo.db");
    let mut config = test_config(&format!("sqlite://{}", db.display()), &db);
    config.graph.backend = cosmo_shared::config::GraphBackend::Neo4j;
    config.graph.neo4j = neo4j.clone();
    let dimensions = config.models.embedding_dimensions;
    let mut svc = connect(config).await;
    let suffix = crate::neo4j::new_suffix();
    let graph = cosmo_shared::graph::neo4j::Neo4jGraph::connect(&neo4j, dimensions)
        .await
        .expect("connect to the Neo4j server at NEO4J_URI");
    svc.graph = Arc::new(graph.in_key_space(suffix.clone()));
    Some((
        svc,
        suffix.clone(),
        crate::neo4j::KeySpace::new(neo4j, suffix),
    ))
}
