//! Store factories and builders for the contract cases.

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use cosmo_shared::domain::input::SourceInput;
use cosmo_shared::domain::{
    ExtractionWrite, Lifecycle, LifecycleChange, MemoryKind, NewSource, NodeIdentity, NodeRef,
    NodeUpsert, NoteLifetime, NoteTarget, NoteWrite, ProcessedContent, RelationshipUpsert,
    SourceBrief,
};
use cosmo_shared::graph::neo4j::Neo4jGraph;
use cosmo_shared::graph::ports::*;
use cosmo_shared::graph::sqlite::SqliteGraph;
use cosmo_tests::neo4j::KeySpace;
use serde_json::json;

/// A store under test, its key space, and whatever keeps it alive. On a shared server
/// (Neo4j) each test's user ids carry a unique suffix, so tests neither see nor clean
/// up each other's data.
pub struct Store {
    graph: Arc<dyn GraphStore>,
    suffix: String,
    _dir: Option<tempfile::TempDir>,
    /// Deletes the key space on a shared server; dropped after `graph`.
    _key_space: Option<KeySpace>,
    /// How far (relative) a salience the store decays may be from `lifecycle::decay`'s:
    /// 0 on SQLite, whose `exp` and `pow` are the C maths library Rust calls; on Neo4j
    /// they are Java's, which may round the last bit differently.
    decay_tolerance: f64,
    /// The store's own handle, for putting its data back as an older Cosmo left it.
    raw: Raw,
}

enum Raw {
    Sqlite(sqlx::SqlitePool),
    Neo4j(cosmo_shared::config::Neo4jConfig),
}

/// The users a case works with, in the store's key space.
#[derive(Debug, Clone)]
pub struct Users {
    pub alice: String,
    pub bob: String,
    pub carol: String,
}

impl Store {
    pub fn graph(&self) -> &dyn GraphStore {
        &*self.graph
    }

    pub fn decay_tolerance(&self) -> f64 {
        self.decay_tolerance
    }

    /// The notes and facts as a Cosmo before "when said" was kept left them: SQLite's
    /// `said_at` columns and their migration gone (so `migrate()` runs it again), or
    /// Neo4j's `note_said_at` lists and facts' `said_at` removed (this key space's).
    pub async fn forget_when_said(&self) {
        match &self.raw {
            Raw::Sqlite(pool) => {
                for sql in [
                    "ALTER TABLE notes DROP COLUMN said_at",
                    "ALTER TABLE facts DROP COLUMN said_at",
                    "DELETE FROM cosmo_graph_migrations WHERE version = 12",
                ] {
                    sqlx::query(sql).execute(pool).await.expect(sql);
                }
            }
            Raw::Neo4j(config) => {
                let graph = cosmo_tests::neo4j::connect(config).await;
                for cypher in [
                    "MATCH (x:Semantic) WHERE x.user_id ENDS WITH $suffix REMOVE x.note_said_at",
                    "MATCH ()-[x:RELATES]->() WHERE x.user_id ENDS WITH $suffix REMOVE x.note_said_at",
                    "MATCH (x:Fact) WHERE x.user_id ENDS WITH $suffix REMOVE x.said_at",
                ] {
                    graph
                        .run(neo4rs::query(cypher).param("suffix", self.suffix.as_str()))
                        .await
                        .expect(cypher);
                }
            }
        }
    }

    pub fn users(&self) -> Users {
        let u = |name: &str| format!("{name}{}", self.suffix);
        Users {
            alice: u("alice"),
            bob: u("bob"),
            carol: u("carol"),
        }
    }
}

/// A fresh SQLite graph file.
pub async fn sqlite() -> Option<Store> {
    let dir = tempfile::tempdir().expect("temp dir");
    let graph = SqliteGraph::open(&dir.path().join("graph.db"))
        .await
        .expect("open sqlite graph");
    graph.migrate().await.expect("migrate");
    Some(Store {
        raw: Raw::Sqlite(graph.pool().clone()),
        graph: Arc::new(graph),
        suffix: String::new(),
        _dir: Some(dir),
        _key_space: None,
        decay_tolerance: 0.0,
    })
}

/// The Neo4j server at `NEO4J_URI` (`NEO4J_USER`, `NEO4J_PASSWORD`, `NEO4J_DATABASE`),
/// shared by the tests: each gets its own key space, deleted afterwards.
pub async fn neo4j() -> Option<Store> {
    neo4j_store("graph contract on Neo4j", false).await
}

/// The Neo4j server as above, with every user's Sources searched through the shared
/// indexes (`exact_search_max = 0`) and the over-fetched statements' errors returned:
/// the Source search cases must hold for that path as they do for the exact one.
pub async fn neo4j_over_fetched() -> Option<Store> {
    neo4j_store("graph contract on Neo4j (over-fetched search)", true).await
}

async fn neo4j_store(what: &str, over_fetched: bool) -> Option<Store> {
    let Some(mut config) = cosmo_tests::neo4j::config_from_env() else {
        eprintln!("{what}: skipped (NEO4J_URI is not set)");
        return None;
    };
    if over_fetched {
        config.exact_search_max = 0;
    }
    let mut graph = Neo4jGraph::connect(&config, 384)
        .await
        .expect("connect to the Neo4j server at NEO4J_URI");
    if over_fetched {
        graph = graph.with_strict_over_fetch();
    }
    cosmo_tests::neo4j::migrate_once(&graph).await;
    let suffix = cosmo_tests::neo4j::new_suffix();
    Some(Store {
        graph: Arc::new(graph.in_key_space(suffix.clone())),
        raw: Raw::Neo4j(config.clone()),
        _key_space: Some(KeySpace::new(config, suffix.clone())),
        suffix,
        _dir: None,
        decay_tolerance: 1e-12,
    })
}

/// The embedder fingerprint the cases' processed Sources are saved with.
pub const EMBEDDED_WITH: &str = "test:embedder-v1:384";

pub fn t0() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-11-01T08:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

pub fn days(n: i64) -> Duration {
    Duration::days(n)
}

/// A text-note Source of `user` that happened at `started_at`.
pub fn source(user: &str, text: &str, started_at: DateTime<Utc>) -> NewSource {
    let body = json!({
        "user_id": user,
        "source_type": "text-note",
        "started_at": started_at.to_rfc3339(),
        "raw_content": { "content": text },
    });
    SourceInput::parse(body)
        .expect("valid source")
        .into_new_source(None, started_at)
}

/// A team Source owned by `owner` shared with `participants`.
pub fn team_source(owner: &str, participants: &[&str], text: &str, at: DateTime<Utc>) -> NewSource {
    let body = json!({
        "user_id": owner,
        "team_id": "team-1",
        "participants": participants,
        "source_type": "text-note",
        "raw_content": { "content": text },
    });
    SourceInput::parse(body)
        .expect("valid source")
        .into_new_source(None, at)
}

pub fn person(name: &str, confidence: f64) -> NodeUpsert {
    NodeUpsert {
        identity: NodeIdentity::person(name),
        display_name: name.to_owned(),
        confidence,
    }
}

pub fn concept(name: &str) -> NodeUpsert {
    NodeUpsert {
        identity: NodeIdentity::concept(name),
        display_name: name.to_owned(),
        confidence: 0.8,
    }
}

pub fn organization(name: &str) -> NodeUpsert {
    NodeUpsert {
        identity: NodeIdentity::entity(name, "organization"),
        display_name: name.to_owned(),
        confidence: 0.9,
    }
}

/// A note said at [`SAID_AT`] (before anything is noted: a back-filled chat).
pub fn note(target: NoteTarget, text: &str, lifetime: NoteLifetime) -> NoteWrite {
    NoteWrite {
        target,
        text: text.to_owned(),
        lifetime,
        said_at: said_at(),
    }
}

/// When [`note`]'s notes were said: 8 May 2023, 18:00 UTC.
pub fn said_at() -> chrono::DateTime<chrono::Utc> {
    chrono::DateTime::parse_from_rfc3339("2023-05-08T18:00:00Z")
        .unwrap()
        .to_utc()
}

pub fn link(from: usize, to: usize, relationship_type: &str) -> RelationshipUpsert {
    RelationshipUpsert {
        from: NodeRef::Extracted(from),
        to: NodeRef::Extracted(to),
        relationship_type: relationship_type.to_owned(),
        description: format!("{relationship_type} link"),
        attitude: "positive".into(),
        proximity: 0.6,
        strength: 0.5,
        confidence: 0.8,
    }
}

/// An extraction write of `source` for `user` with the given parts.
pub fn write(
    source: &NewSource,
    user: &str,
    at: DateTime<Utc>,
    nodes: Vec<NodeUpsert>,
) -> ExtractionWrite {
    ExtractionWrite {
        source_key: source.entity_key.clone(),
        user_id: user.to_owned(),
        event_time: source.started_at.unwrap_or(source.lifecycle.created_at),
        at,
        nodes,
        relationships: Vec::new(),
        notes: Vec::new(),
        storylines: Vec::new(),
        is_source_owner: source.user_id == user,
    }
}

// ---- maintenance ----

/// Creates a processed Source of `user` that happened at `at` (summary "Summary of
/// {text}") and applies its extraction at `at`: `nodes`, then whatever `edit` adds
/// (relationships, notes, Storylines). Returns the Source key and the node keys.
pub async fn extracted(
    g: &dyn GraphStore,
    user: &str,
    text: &str,
    at: DateTime<Utc>,
    nodes: Vec<NodeUpsert>,
    edit: impl FnOnce(&mut ExtractionWrite),
) -> (String, Vec<String>) {
    let s = source(user, text, at);
    g.create_source(&s).await.unwrap();
    let processed = ProcessedContent {
        content: text.to_owned(),
        summary: format!("Summary of {text}"),
        keywords: Vec::new(),
        tags: Vec::new(),
        embedding: vec![0.5, 0.5],
        passages: Vec::new(),
        embedded_with: EMBEDDED_WITH.into(),
    };
    assert!(
        g.save_processed(&s.entity_key, &processed, at)
            .await
            .unwrap()
    );
    let mut w = write(&s, user, at, nodes);
    edit(&mut w);
    let out = g.write_extraction(&w).await.unwrap();
    assert!(!out.already_complete);
    (s.entity_key, out.node_keys)
}

/// One extracted Source of `user` naming `node` per time in `at` ("{label} #i").
/// Returns the node's key and the Source keys, in the order of `at`.
pub async fn mentioned(
    g: &dyn GraphStore,
    user: &str,
    label: &str,
    node: NodeUpsert,
    at: &[DateTime<Utc>],
) -> (String, Vec<String>) {
    let mut anchor = String::new();
    let mut keys = Vec::new();
    for (i, t) in at.iter().enumerate() {
        let (key, nodes) = extracted(
            g,
            user,
            &format!("{label} #{i}"),
            *t,
            vec![node.clone()],
            |_| {},
        )
        .await;
        anchor = nodes[0].clone();
        keys.push(key);
    }
    (anchor, keys)
}

/// `t0() + days(d)` for each `d`.
pub fn on_days(ds: &[i64]) -> Vec<DateTime<Utc>> {
    ds.iter().map(|d| t0() + days(*d)).collect()
}

/// A Source as maintenance sees it, from the stored Source.
pub async fn brief_of(g: &dyn GraphStore, key: &str) -> SourceBrief {
    let s = g.source(key).await.unwrap().expect("source exists");
    SourceBrief {
        event_time: s.event_time(),
        entity_key: s.entity_key,
        user_id: s.user_id,
        summary: s.summary,
    }
}

pub async fn briefs_of(g: &dyn GraphStore, keys: &[String]) -> Vec<SourceBrief> {
    let mut out = Vec::new();
    for k in keys {
        out.push(brief_of(g, k).await);
    }
    out
}

/// A memory's lifecycle through the read of its own kind (`user` for relationships).
pub async fn read_lifecycle(
    g: &dyn GraphStore,
    kind: MemoryKind,
    key: &str,
    user: &str,
) -> Lifecycle {
    match kind {
        MemoryKind::Source => {
            g.source(key)
                .await
                .unwrap()
                .unwrap_or_else(|| panic!("{kind} {key} does not exist"))
                .lifecycle
        }
        MemoryKind::Node => {
            g.node(key)
                .await
                .unwrap()
                .unwrap_or_else(|| panic!("{kind} {key} does not exist"))
                .lifecycle
        }
        MemoryKind::Relationship => {
            g.relationships_for_user(user, None, 1000)
                .await
                .unwrap()
                .into_iter()
                .find(|r| r.rel_key == key)
                .unwrap_or_else(|| panic!("{kind} {key} does not exist"))
                .lifecycle
        }
        MemoryKind::Storyline => {
            g.storyline(key)
                .await
                .unwrap()
                .unwrap_or_else(|| panic!("{kind} {key} does not exist"))
                .lifecycle
        }
        MemoryKind::Macro => {
            g.macro_by_id(key)
                .await
                .unwrap()
                .unwrap_or_else(|| panic!("{kind} {key} does not exist"))
                .lifecycle
        }
        MemoryKind::Fact => {
            g.fact(key)
                .await
                .unwrap()
                .unwrap_or_else(|| panic!("{kind} {key} does not exist"))
                .lifecycle
        }
    }
}

/// Changes a memory's lifecycle with `edit` (no event), as the lifecycle jobs do.
pub async fn set_lifecycle(
    g: &dyn GraphStore,
    kind: MemoryKind,
    key: &str,
    user: &str,
    edit: impl FnOnce(&mut Lifecycle),
) {
    let mut lifecycle = read_lifecycle(g, kind, key, user).await;
    edit(&mut lifecycle);
    g.apply_lifecycle(&[LifecycleChange {
        kind,
        key: key.to_owned(),
        lifecycle,
        event: None,
    }])
    .await
    .unwrap();
}
