//! Everything a request handler or a job needs, built once from the configuration: the
//! stores, the models and the clock. The API, the workers, the scheduler and the tests
//! all run on a [`Services`].

use std::sync::Arc;

use anyhow::Context;

use crate::clock::{Clock, SystemClock};
use crate::config::{Config, GraphBackend, ModelsConfig, Provider};
use crate::db::Db;
use crate::directory::Directory;
use crate::graph::GraphStore;
use crate::graph::sqlite::SqliteGraph;
use crate::job_runs::JobRunLedger;
use crate::llm::counted::Counted;
use crate::llm::offline::OfflineModel;
use crate::llm::openai::OpenAiProvider;
use crate::llm::{CauseFinder, Embedder, EntityExtractor, NoteTaker, SourceProcessor, Summarizer};
use crate::queue::JobQueue;
use crate::sessions::Sessions;
use crate::usage::{Metering, UsageLedger};

/// One provider per capability, each counted in the metrics ([`crate::llm::counted`]).
#[derive(Debug, Clone)]
pub struct Models {
    pub processor: Arc<dyn SourceProcessor>,
    pub extractor: Arc<dyn EntityExtractor>,
    pub note_taker: Arc<dyn NoteTaker>,
    pub summarizer: Arc<dyn Summarizer>,
    pub causes: Arc<dyn CauseFinder>,
    pub embedder: Arc<dyn Embedder>,
}

/// The `local` provider's model in `dir`.
#[cfg(feature = "minilm")]
fn local_embedder(dir: &std::path::Path) -> anyhow::Result<Arc<dyn Embedder>> {
    let model = crate::llm::minilm::MiniLmEmbedder::load(dir)
        .context("loading the local embedding model")?;
    Ok(Arc::new(model))
}

/// Without the `minilm` feature there is no local model to load: start-up stops here.
#[cfg(not(feature = "minilm"))]
fn local_embedder(_dir: &std::path::Path) -> anyhow::Result<Arc<dyn Embedder>> {
    anyhow::bail!(
        "models.providers.embeddings = \"local\" needs Cosmo built with the `minilm` feature \
         (cargo build --release --features minilm); this build embeds with the offline or \
         an OpenAI-compatible provider only"
    )
}

impl Models {
    /// The provider `[models.providers]` names for each task. Loads the local embedding
    /// model (if chosen) here, so a wrong folder stops start-up with the file it lacks.
    pub fn from_config(cfg: &ModelsConfig) -> anyhow::Result<Self> {
        cfg.validate()?;
        let offline = Arc::new(OfflineModel::new(cfg.embedding_dimensions));
        let openai = if cfg.uses_openai() {
            Some(Arc::new(OpenAiProvider::new(
                &cfg.openai,
                cfg.embedding_dimensions,
            )?))
        } else {
            None
        };
        let local = match (cfg.providers.embeddings, &cfg.local.model_dir) {
            (Provider::Local, Some(dir)) => Some(local_embedder(dir)?),
            _ => None,
        };
        // Each task's provider, wrapped so its calls are counted under its name.
        macro_rules! pick {
            ($task:ident: $model:ident) => {{
                let (model, provider): (Arc<dyn $model>, _) = match (cfg.providers.$task, &openai) {
                    (Provider::Openai, Some(o)) => (o.clone(), "openai"),
                    _ => (offline.clone(), "offline"),
                };
                Counted::new(model, provider, stringify!($task))
            }};
        }
        Ok(Self {
            processor: pick!(processing: SourceProcessor),
            extractor: pick!(extraction: EntityExtractor),
            note_taker: pick!(notes: NoteTaker),
            summarizer: pick!(summaries: Summarizer),
            causes: pick!(causes: CauseFinder),
            embedder: match local {
                Some(local) => Counted::<dyn Embedder>::new(local, "local", "embeddings"),
                None => pick!(embeddings: Embedder),
            },
        })
    }

    /// The offline provider for every task.
    pub fn offline(dimensions: usize) -> Self {
        let model = Arc::new(OfflineModel::new(dimensions));
        Self {
            processor: Counted::<dyn SourceProcessor>::new(model.clone(), "offline", "processing"),
            extractor: Counted::<dyn EntityExtractor>::new(model.clone(), "offline", "extraction"),
            note_taker: Counted::<dyn NoteTaker>::new(model.clone(), "offline", "notes"),
            summarizer: Counted::<dyn Summarizer>::new(model.clone(), "offline", "summaries"),
            causes: Counted::<dyn CauseFinder>::new(model.clone(), "offline", "causes"),
            embedder: Counted::<dyn Embedder>::new(model, "offline", "embeddings"),
        }
    }
}

#[derive(Debug, Clone)]
pub struct Services {
    pub config: Arc<Config>,
    /// The relational database of the queue and the directory.
    pub db: Db,
    pub graph: Arc<dyn GraphStore>,
    pub queue: Arc<dyn JobQueue>,
    pub directory: Directory,
    /// The live session buffer (in the directory's database).
    pub sessions: Sessions,
    pub usage: UsageLedger,
    pub runs: JobRunLedger,
    pub models: Models,
    pub clock: Arc<dyn Clock>,
}

impl Services {
    /// Connects to the configured stores and brings their schemas up to date.
    pub async fn connect(config: Config) -> anyhow::Result<Self> {
        let db = Db::connect(
            &config.database.url,
            config.database.max_connections,
            std::time::Duration::from_millis(config.database.acquire_timeout_ms.max(1)),
        )
        .await?;
        let graph: Arc<dyn GraphStore> = match config.graph.backend {
            GraphBackend::Sqlite => {
                let path = config.graph_sqlite_path();
                let graph = match &db {
                    // One file for everything: share the pool rather than open a second.
                    Db::Sqlite(pool)
                        if crate::db::DbUrl::parse(&config.database.url)?
                            == crate::db::DbUrl::Sqlite(path.clone()) =>
                    {
                        SqliteGraph::with_pool(pool.clone())
                    }
                    _ => SqliteGraph::open(&path).await?,
                };
                Arc::new(
                    graph
                        .with_vector_budget(config.graph.sqlite_vector_cache_mib << 20)
                        .with_text_budget(config.graph.sqlite_text_cache_mib << 20),
                )
            }
            #[cfg(feature = "neo4j")]
            GraphBackend::Neo4j => Arc::new(
                crate::graph::neo4j::Neo4jGraph::connect(
                    &config.graph.neo4j,
                    config.models.embedding_dimensions,
                )
                .await?,
            ),
            // Refused by the configuration's validation.
            #[cfg(not(feature = "neo4j"))]
            GraphBackend::Neo4j => anyhow::bail!(
                "graph.backend = \"neo4j\" needs Cosmo built with the `neo4j` feature"
            ),
        };
        let queue = crate::queue::connect(&db, &config.jobs);
        let services = Self {
            directory: Directory::new(db.clone()),
            sessions: Sessions::new(db.clone()),
            usage: UsageLedger::new(db.clone()),
            runs: JobRunLedger::new(db.clone()),
            models: Models::from_config(&config.models)?,
            clock: Arc::new(SystemClock),
            config: Arc::new(config),
            db,
            graph,
            queue,
        };
        services.migrate().await?;
        Ok(services)
    }

    /// Applies every schema migration (directory, queue, graph). Idempotent.
    pub async fn migrate(&self) -> anyhow::Result<()> {
        self.directory
            .migrate()
            .await
            .context("migrating the directory tables")?;
        self.queue
            .migrate()
            .await
            .context("migrating the job queue")?;
        self.graph
            .migrate()
            .await
            .context("migrating the graph store")?;
        Ok(())
    }

    /// What recording a model call needs (the usage ledger, the directory, the clock).
    pub fn metering(&self) -> Metering<'_> {
        Metering {
            ledger: &self.usage,
            directory: &self.directory,
            clock: self.clock.as_ref(),
        }
    }

    /// Replaces the models (tests).
    pub fn with_models(mut self, models: Models) -> Self {
        self.models = models;
        self
    }

    /// Replaces the clock (tests, back-fills).
    pub fn with_clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.clock = clock;
        self
    }
}
