//! `cosmo-bench`: measurements for `BENCHMARKS.md`, never assertions.
//!
//! `cosmo-bench all` runs everything and rewrites `BENCHMARKS.md` (`report.rs`,
//! `text.rs`, `sections.rs`); each benchmark also runs alone and prints one
//! `name key=value …` line per measurement:
//! * `ingest` — sustained `POST /api/sources` against `ingest-api` in another process,
//!   and the same store calls made directly: the ceiling (`ingest.rs`);
//! * `pipeline` — post → extracted with the offline model, by `workers` processes
//!   (`pipeline.rs`); `slow-model` — the same against a model that takes seconds to
//!   answer, by processes and concurrency, beside its model-bound ceiling
//!   (`slow_model.rs`);
//! * `decay`, `promotion` — maintenance jobs over 10⁴–10⁶ nodes, time and peak memory
//!   (`decay.rs`, `promotion.rs`; on Neo4j `decay_neo4j.rs`, `promotion_neo4j.rs`);
//! * `explore` — retrieval latency over one user's Sources (`explore.rs`);
//!
//! `--store neo4j` runs `ingest`, `pipeline`, `decay`, `promotion` and `explore` with the
//! graph on the Neo4j server named by `NEO4J_URI` (`NEO4J_USER`, `NEO4J_PASSWORD`), under
//! keys and users of the run's own, deleted after it; `all` adds those runs when it is set.
//! * `retrieval` — retrieval quality over a generated multi-session chat corpus,
//!   against a BM25 baseline (`retrieval.rs`, `cosmo_tests::conversations`);
//! * `context` — what `context` hands an agent over the same corpus with relative times,
//!   fresh and after quiet nights, against BM25 over single turns (`context.rs`,
//!   `context_section.rs`);
//! * `graph` — the offline model's People and Entities against a gold list, over
//!   generated conversations and a hand-checked sample (`graph/`);
//! * `pickup` — enqueue → start between processes (`pickup.rs`);
//! * `first-run` — README's first command from nothing built (`first_run.rs`).
//!
//! Benchmarks that start processes use the binaries next to `cosmo-bench` (the same
//! target folder and profile); `all` builds them first.

use std::path::PathBuf;

use chrono::{DateTime, Utc};
use clap::{Parser, Subcommand};

mod context;
mod context_latency;
mod context_section;
mod corpus;
mod decay;
mod decay_neo4j;
mod explore;
mod first_run;
mod graph;
mod harness;
mod ingest;
mod pickup;
mod pipeline;
mod promotion;
mod promotion_neo4j;
mod report;
mod retrieval;
mod sections;
mod seed_sources;
mod slow_model;
mod text;

use harness::Queue;

#[derive(Parser)]
#[command(about = "Cosmo's benchmarks: `cosmo-bench all` writes BENCHMARKS.md")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Every benchmark at the published sizes; (re)writes BENCHMARKS.md.
    All {
        /// Small sizes: a smoke run of every benchmark (a few minutes).
        #[arg(long)]
        quick: bool,
        /// Write here instead of the workspace's BENCHMARKS.md.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Do not run `cargo build` for the binaries the benchmarks start.
        #[arg(long)]
        no_build: bool,
        /// Only these benchmarks (e.g. `decay,pickup`): their sections of the existing
        /// file are replaced, each with a note of this run; the rest is kept.
        #[arg(long, value_delimiter = ',')]
        only: Vec<String>,
    },
    /// Sustained POST /api/sources against `ingest-api`, and the stores' ceiling.
    Ingest {
        #[arg(long, default_value_t = 30)]
        seconds: u64,
        #[arg(long, default_value_t = 16)]
        concurrency: usize,
        #[arg(long, value_enum, default_value_t = Queue::Sqlite)]
        queue: Queue,
        /// The graph store: a SQLite file, or the Neo4j server named by `NEO4J_URI`
        /// (users of the run's own, deleted after it).
        #[arg(long, value_enum, default_value_t = explore::Store::Sqlite)]
        store: explore::Store,
    },
    /// Post → extracted with the offline model, for each number of `workers` processes.
    Pipeline {
        #[arg(long, default_value_t = 1000)]
        sources: usize,
        #[arg(long, value_delimiter = ',', default_value = "1,2,4")]
        workers: Vec<usize>,
        /// The graph store, as for `ingest`.
        #[arg(long, value_enum, default_value_t = explore::Store::Sqlite)]
        store: explore::Store,
    },
    /// The pipeline against a hosted model answering after `--delay-ms`, by worker
    /// processes and per-process concurrency.
    SlowModel {
        #[arg(long, default_value_t = 100)]
        sources: usize,
        #[arg(long, default_value_t = 2000)]
        delay_ms: u64,
        #[arg(long, value_delimiter = ',', default_value = "1,2")]
        workers: Vec<usize>,
        #[arg(long, value_delimiter = ',', default_value = "4,16")]
        concurrency: Vec<usize>,
    },
    /// Decay over N semantic nodes on the embedded store, or on the Neo4j server named
    /// by `NEO4J_URI` (`NEO4J_USER`, `NEO4J_PASSWORD`), under this run's own keys.
    Decay {
        #[arg(long, default_value_t = 100_000)]
        nodes: u64,
        #[arg(long, value_enum, default_value_t = explore::Store::Sqlite)]
        store: explore::Store,
    },
    /// Storyline and Macro promotion over a graph of N nodes on the embedded store, or on
    /// the Neo4j server named by `NEO4J_URI`, under this run's own keys.
    Promotion {
        #[arg(long, default_value_t = 100_000)]
        nodes: u64,
        #[arg(long, value_enum, default_value_t = explore::Store::Sqlite)]
        store: explore::Store,
    },
    /// Explore latency over N Sources (of one user, or spread over several) on the
    /// embedded store.
    Explore {
        #[arg(long, default_value_t = 10_000)]
        sources: usize,
        /// Timed queries (after 5 untimed warm-up ones).
        #[arg(long, default_value_t = 100)]
        queries: usize,
        /// 0: each Source is a short summary (one passage); N: a chat of N turns after
        /// it (30 turns: about 3,500 characters, 8 passages).
        #[arg(long, default_value_t = 0)]
        turns: usize,
        /// The Sources spread over this many users (questions are the first user's).
        #[arg(long, default_value_t = 1)]
        users: usize,
        /// Concurrent clients for the second pass over the questions.
        #[arg(long, default_value_t = 8)]
        clients: usize,
        /// Keep the store in this folder; a store kept there before is used as it is
        /// (no seeding; for repeated measurements).
        #[arg(long)]
        keep: Option<PathBuf>,
        /// Cosmo's embedding model (the vector index's recall depends on it).
        #[arg(long, value_enum, default_value_t = retrieval::Embeddings::Offline)]
        embeddings: retrieval::Embeddings,
        /// The graph store: the embedded SQLite file, or the Neo4j server named by
        /// `NEO4J_URI` (`NEO4J_USER`, `NEO4J_PASSWORD`), seeded under user ids of this run
        /// and cleaned up after.
        #[arg(long, value_enum, default_value_t = explore::Store::Sqlite)]
        store: explore::Store,
    },
    /// Retrieval quality (recall@k, MRR) of explore vs BM25 over generated chats.
    Retrieval(retrieval::Args),
    /// What context hands an agent (evidence and answer in it) vs BM25 over turns.
    Context(context::Args),
    /// People and Entities the offline model keeps, against a gold list.
    Graph(graph::Args),
    /// Latency from enqueue to a `workers` process starting the job.
    Pickup {
        #[arg(long, default_value_t = 200)]
        jobs: usize,
        #[arg(long, value_enum, default_value_t = Queue::Sqlite)]
        queue: Queue,
        /// Runs the workers inside the bench process (as `cosmo serve` does) instead of
        /// in a `workers` process.
        #[arg(long)]
        in_process: bool,
    },
    /// README's first command (`cargo run --release --bin cosmo -- serve`) with an
    /// empty target folder, until the server answers.
    FirstRun,
    /// Prints the all-MiniLM-L6-v2 folder, fetching it once (run by `retrieval`).
    #[command(hide = true)]
    MinilmDir,
    /// Seeds a graph of N nodes into the embedded store in `dir` (run by `decay` and
    /// `promotion` in a child process).
    #[command(hide = true)]
    Seed {
        #[arg(long, value_enum, default_value_t = Graph::Decay)]
        graph: Graph,
        #[arg(long)]
        nodes: u64,
        #[arg(long)]
        dir: PathBuf,
    },
}

/// Which seeded graph.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum Graph {
    Decay,
    Promotion,
}

impl Graph {
    pub fn name(self) -> &'static str {
        match self {
            Self::Decay => "decay",
            Self::Promotion => "promotion",
        }
    }
}

/// When the seeded memories were created; maintenance runs are dated from it.
pub fn created() -> DateTime<Utc> {
    "2026-01-01T00:00:00Z".parse().expect("a valid time")
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    match Cli::parse().command {
        Command::All {
            quick,
            out,
            no_build,
            only,
        } => report::run(quick, out, !no_build, &only),
        Command::Ingest {
            seconds,
            concurrency,
            queue,
            store,
        } => ingest::run(seconds, concurrency, queue, store).await,
        Command::Pipeline {
            sources,
            workers,
            store,
        } => pipeline::run(sources, &workers, store).await,
        Command::Decay { nodes, store } => match store {
            explore::Store::Sqlite => decay::run(nodes).await,
            explore::Store::Neo4j => decay_neo4j::run(nodes).await,
        },
        Command::Promotion { nodes, store } => match store {
            explore::Store::Sqlite => promotion::run(nodes).await,
            explore::Store::Neo4j => promotion_neo4j::run(nodes).await,
        },
        Command::Explore {
            sources,
            queries,
            turns,
            users,
            clients,
            keep,
            embeddings,
            store,
        } => {
            let shape = explore::Shape {
                sources,
                users,
                queries,
                turns,
                clients,
                store,
            };
            explore::run(shape, keep, embeddings).await
        }
        Command::Retrieval(args) => retrieval::run(args).await,
        Command::Context(args) => context::run(args).await,
        Command::Graph(args) => graph::run(args).await,
        Command::MinilmDir => retrieval::print_model_dir(),
        Command::SlowModel {
            sources,
            delay_ms,
            workers,
            concurrency,
        } => slow_model::run(sources, delay_ms, &workers, &concurrency).await,
        Command::Pickup {
            jobs,
            queue,
            in_process,
        } => pickup::run(jobs, queue, in_process).await,
        Command::FirstRun => first_run::run().await,
        Command::Seed { graph, nodes, dir } => match graph {
            Graph::Decay => decay::seed(nodes, &dir).await,
            Graph::Promotion => promotion::seed(nodes, &dir).await,
        },
    }
}
