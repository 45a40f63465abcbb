//! Cosmo's side of the benchmark: the configuration of a run, ingesting the corpus into
//! a fresh embedded store (once, kept as a snapshot file that every measured store is a
//! copy of), and nights of maintenance in simulated time (a week, or a year, kept as a
//! snapshot of its own).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context;
use chrono::{DateTime, Duration, Utc};
use cosmo_pipeline::retrieval::rank::Signal;
use cosmo_shared::clock::ManualClock;
use cosmo_shared::config::{Config, GraphBackend, Provider};
use cosmo_shared::db::Db;
use cosmo_shared::domain::input::SourceInput;
use cosmo_shared::domain::{MemoryState, SourceWrite};
use cosmo_shared::graph::GraphSnapshot;
use cosmo_shared::job_runs::JobRun;
use cosmo_shared::queue::JobKind;
use cosmo_shared::services::Services;
use cosmo_workers::dispatch::Dispatcher;
use serde_json::{Value, json};

use super::Corpus;
use crate::stores;

/// Bump when ingestion changes in a way a kept snapshot cannot know about.
const SNAPSHOT_VERSION: u32 = 2;

/// How every store of a run is configured.
#[derive(Debug, Clone, Default)]
pub struct Setup {
    /// A TOML file merged over the test configuration.
    pub config_file: Option<PathBuf>,
    /// The all-MiniLM-L6-v2 folder: local embeddings instead of the offline ones.
    pub model_dir: Option<PathBuf>,
    /// Rank by this signal alone (the others weigh 0): what fusion must not fall below.
    pub only_signal: Option<Signal>,
    /// Intent routing off (`retrieval.intent_routing = false`): the ranking without it.
    pub unrouted: bool,
}

impl Setup {
    /// The configuration of a store in the SQLite file `db`: the tests' settings, then
    /// what the file sets (a value differing from the defaults), then the embeddings.
    pub fn config(&self, db: &Path) -> anyhow::Result<Config> {
        let url = format!("sqlite://{}", db.display());
        let mut config = stores::test_config(&url, db);
        if let Some(file) = &self.config_file {
            config = merged(config, file)?;
        }
        if let Some(dir) = &self.model_dir {
            config.models.providers.embeddings = Provider::Local;
            config.models.local.model_dir = Some(dir.clone());
        }
        if let Some(only) = self.only_signal {
            let r = &mut config.retrieval;
            let weight = |signal| if signal == only { 1.0 } else { 0.0 };
            (r.vector_weight, r.text_weight, r.graph_weight) = (
                weight(Signal::Vector),
                weight(Signal::Text),
                weight(Signal::Graph),
            );
            r.chain_weight = 0.0;
        }
        if self.unrouted {
            config.retrieval.intent_routing = false;
        }
        // The store is always this file, whatever the file or the environment say.
        config.database.url = url;
        config.graph.backend = GraphBackend::Sqlite;
        config.graph.sqlite_path = Some(db.to_owned());
        Ok(config)
    }
}

/// `base` with every setting that `file` (loaded as Cosmo loads it: defaults, file,
/// `COSMO_…` variables) sets to something other than its default.
fn merged(base: Config, file: &Path) -> anyhow::Result<Config> {
    let loaded = Config::load(Some(file)).with_context(|| format!("loading {}", file.display()))?;
    let mut out = serde_json::to_value(&base)?;
    overlay(
        &mut out,
        &serde_json::to_value(Config::default())?,
        &serde_json::to_value(&loaded)?,
    );
    serde_json::from_value(out).context("merging the configuration file")
}

fn overlay(out: &mut Value, defaults: &Value, loaded: &Value) {
    match (out, defaults, loaded) {
        (Value::Object(out), Value::Object(defaults), Value::Object(loaded)) => {
            for (key, value) in loaded {
                match (out.get_mut(key), defaults.get(key)) {
                    (Some(o), Some(d)) => overlay(o, d, value),
                    _ => {
                        out.insert(key.clone(), value.clone());
                    }
                }
            }
        }
        (out, defaults, loaded) => {
            if defaults != loaded {
                *out = loaded.clone();
            }
        }
    }
}

/// The ingested corpus as one SQLite file, and each session's Source key.
#[derive(Debug)]
pub struct Snapshot {
    pub path: PathBuf,
    /// `keys[conversation][session]`.
    pub keys: Vec<Vec<String>>,
    pub seconds: f64,
    pub reused: bool,
    _dir: Option<tempfile::TempDir>,
}

/// A store of its own for one measurement: a copy of the snapshot, on a clock that
/// only moves when told.
#[derive(Debug)]
pub struct Store {
    pub svc: Services,
    pub clock: ManualClock,
    _dir: tempfile::TempDir,
}

/// What identifies an ingestion: the corpus, the model settings, the code's version.
fn fingerprint(corpus: &Corpus, config: &Config) -> anyhow::Result<String> {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |text: &str| {
        for b in text.bytes().chain([0xff]) {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    feed(&serde_json::to_string(&config.models)?);
    for c in &corpus.conversations {
        feed(&c.a.user_id());
        feed(&c.b.user_id());
        for s in &c.sessions {
            feed(&s.started_at.to_rfc3339());
            feed(&s.jsonl());
        }
    }
    Ok(format!(
        "v{SNAPSHOT_VERSION}-{}-{hash:016x}",
        corpus.size.name()
    ))
}

/// Ingests `corpus` (or reuses the snapshot kept in `keep` for the same corpus and
/// model settings), as a back-fill at `now`.
pub async fn snapshot(
    corpus: &Corpus,
    setup: &Setup,
    now: DateTime<Utc>,
    keep: Option<&Path>,
) -> anyhow::Result<Snapshot> {
    let scratch = tempfile::tempdir()?;
    let db = scratch.path().join("cosmo.db");
    let config = setup.config(&db)?;
    let print = fingerprint(corpus, &config)?;
    // One folder per corpus, size and embedding model, so one DIR serves every run.
    let models = if setup.model_dir.is_some() {
        "local"
    } else {
        "offline"
    };
    let planted = if corpus.options.relative_times {
        "-relative"
    } else {
        ""
    };
    let keep = keep.map(|k| k.join(format!("{}{planted}-{models}", corpus.size.name())));
    let keep = keep.as_deref();
    if let Some(dir) = keep {
        let manifest = std::fs::read_to_string(dir.join("manifest.json"))
            .ok()
            .and_then(|m| serde_json::from_str::<Value>(&m).ok());
        if let Some(m) = manifest.filter(|m| m["fingerprint"] == print.as_str()) {
            let keys: Vec<Vec<String>> = serde_json::from_value(m["keys"].clone())?;
            return Ok(Snapshot {
                path: dir.join("cosmo.db"),
                keys,
                seconds: 0.0,
                reused: true,
                _dir: None,
            });
        }
    }
    let started = Instant::now();
    let (svc, _clock) = stores::manual_clock(Services::connect(config).await?, now);
    let keys = ingest(&svc, corpus).await?;
    let seconds = started.elapsed().as_secs_f64();
    let (path, kept) = match keep {
        Some(dir) => {
            std::fs::create_dir_all(dir)?;
            let _ = std::fs::remove_file(dir.join("manifest.json"));
            let _ = std::fs::remove_file(dir.join("cosmo.db"));
            (dir.join("cosmo.db"), None)
        }
        None => (scratch.path().join("snapshot.db"), Some(scratch)),
    };
    vacuum_into(&svc, &path).await?;
    if let Some(dir) = keep {
        let manifest = json!({ "fingerprint": print, "keys": keys });
        std::fs::write(dir.join("manifest.json"), serde_json::to_string(&manifest)?)?;
    }
    Ok(Snapshot {
        path,
        keys,
        seconds,
        reused: false,
        _dir: kept,
    })
}

/// Each conversation for its first speaker, both speakers as participants, every
/// session a `conversation` Source processed and extracted in-process; then the night's
/// `infer-causal-links` (the only nightly job whose work the questions need the same
/// morning: the rest run in the week of nights).
async fn ingest(svc: &Services, corpus: &Corpus) -> anyhow::Result<Vec<Vec<String>>> {
    let mut keys = Vec::new();
    for c in &corpus.conversations {
        keys.push(ingest_conversation(svc, c, &c.a.user_id(), &c.b.user_id()).await?);
    }
    Dispatcher::new(svc.clone())
        .run_periodic(JobKind::InferCausalLinks, svc.clock.now(), None)
        .await
        .map_err(|e| anyhow::anyhow!("infer-causal-links: {}", e.message))?;
    Ok(keys)
}

/// One conversation for `owner` (its first speaker) with `other` (the second) as the
/// other participant, at the services' clock time: each session a `conversation`
/// Source, processed and extracted in-process. Returns the Sources' keys in session
/// order.
pub async fn ingest_conversation(
    svc: &Services,
    c: &super::Conversation,
    owner: &str,
    other: &str,
) -> anyhow::Result<Vec<String>> {
    let now = svc.clock.now();
    svc.directory.ensure_tenant("default", now).await?;
    let users = [owner.to_owned(), other.to_owned()];
    let graph_user_ids = svc.directory.claim_users("default", &users, now).await?;
    anyhow::ensure!(
        graph_user_ids == users,
        "{users:?} are known to the graph as {graph_user_ids:?}"
    );
    svc.graph.upsert_owner(owner, &c.a.full_name(), now).await?;
    svc.directory
        .set_profile(owner, &c.a.full_name(), now)
        .await?;
    let mut conversation = Vec::new();
    for s in &c.sessions {
        let input = SourceInput::parse(json!({
            "user_id": owner,
            "participants": users,
            "source_type": "conversation",
            "context_type": "chat",
            "started_at": s.started_at.to_rfc3339(),
            "external_id": format!("conversation-{}-session-{}", c.index, s.index),
            "raw_content": { "content": s.jsonl() },
        }))
        .map_err(|e| anyhow::anyhow!("session {} of conversation {}: {e}", s.index, c.index))?;
        let key = match svc
            .graph
            .create_source(&input.into_new_source(None, now))
            .await?
        {
            SourceWrite::Created(s) | SourceWrite::Existing(s) => s.entity_key,
        };
        crate::ingest::run_pipeline(svc, &key, owner).await?;
        conversation.push(key);
    }
    Ok(conversation)
}

/// Writes the store as one consistent file at `path`, whatever is still in the WAL,
/// and closes it.
async fn vacuum_into(svc: &Services, path: &Path) -> anyhow::Result<()> {
    let Db::Sqlite(pool) = &svc.db else {
        anyhow::bail!("the benchmark's store is SQLite");
    };
    sqlx::query("VACUUM INTO ?")
        .bind(path.display().to_string())
        .execute(pool)
        .await
        .context("writing the snapshot")?;
    pool.close().await;
    Ok(())
}

/// The snapshot after `nights` nights of maintenance from `from` ([`nights`]), as a
/// snapshot of its own (in a temporary folder), with the runs and how long they took.
pub async fn aged(
    snapshot: &Snapshot,
    setup: &Setup,
    from: DateTime<Utc>,
    count: u32,
) -> anyhow::Result<(Snapshot, Vec<JobRun>)> {
    let store = open(snapshot, setup, from).await?;
    let started = Instant::now();
    let runs = nights(&store, from, count).await?;
    let seconds = started.elapsed().as_secs_f64();
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("snapshot.db");
    vacuum_into(&store.svc, &path).await?;
    let aged = Snapshot {
        path,
        keys: snapshot.keys.clone(),
        seconds,
        reused: false,
        _dir: Some(dir),
    };
    Ok((aged, runs))
}

/// How many of the corpus' Sources (its owners') are archived, out of default
/// retrieval.
pub async fn archived_sources(store: &Store, corpus: &Corpus) -> anyhow::Result<usize> {
    let mut archived = 0;
    for c in &corpus.conversations {
        let graph = GraphSnapshot::of_user(&*store.svc.graph, &c.a.user_id()).await?;
        archived += graph
            .sources
            .iter()
            .filter(|s| s.lifecycle.state == MemoryState::Archived)
            .count();
    }
    Ok(archived)
}

/// A fresh copy of the snapshot, its clock at `now`.
pub async fn open(snapshot: &Snapshot, setup: &Setup, now: DateTime<Utc>) -> anyhow::Result<Store> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("cosmo.db");
    std::fs::copy(&snapshot.path, &db).context("copying the snapshot")?;
    let svc = Services::connect(setup.config(&db)?).await?;
    let clock = ManualClock::new(now);
    Ok(Store {
        svc: svc.with_clock(Arc::new(clock.clone())),
        clock,
        _dir: dir,
    })
}

/// Every maintenance job at every slot its schedule (`[scheduler]`) has in the seven
/// days after `from`, in time order, each on the clock of its slot; the clock ends at
/// `from` + 7 days.
pub async fn week_of_nights(store: &Store, from: DateTime<Utc>) -> anyhow::Result<Vec<JobRun>> {
    nights(store, from, 7).await
}

/// Every maintenance job at every slot its schedule has in the `count` days after
/// `from`, in time order, each on the clock of its slot and as of it (as `cosmo run-job
/// KIND --as-of SLOT` runs it); the clock ends at `from` + `count` days.
pub async fn nights(store: &Store, from: DateTime<Utc>, count: u32) -> anyhow::Result<Vec<JobRun>> {
    let end = from + Duration::days(i64::from(count));
    let mut slots = Vec::new();
    for schedule in cosmo_scheduler::schedules(&store.svc)?
        .into_iter()
        .filter(|s| s.kind.is_maintenance())
    {
        let mut t = end;
        loop {
            let slot = schedule.slot(t)?;
            if slot <= from {
                break;
            }
            slots.push((slot, schedule.kind));
            t = slot - Duration::seconds(1);
        }
    }
    slots.sort();
    let jobs = Dispatcher::new(store.svc.clone());
    let mut runs = Vec::new();
    for (slot, kind) in slots {
        store.clock.set(slot);
        let run = jobs
            .run_periodic(kind, slot, None)
            .await
            .map_err(|e| anyhow::anyhow!("{kind} at {slot}: {}", e.message))?;
        runs.push(run);
    }
    store.clock.set(end);
    Ok(runs)
}
