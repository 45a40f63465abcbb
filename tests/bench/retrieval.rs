//! `cosmo-bench retrieval`: retrieval quality over a generated multi-session chat corpus
//! (`cosmo_tests::conversations`), Cosmo's `explore` against a BM25 baseline computed in
//! the same run. Prints one `retrieval` line per system and pass (forward, reverse,
//! after a week of nightly jobs, without intent routing), a `retrieval_category` line
//! per category and a `retrieval_intent` line per intent (what the question's wording
//! asks for), and a `retrieval_run` line with the corpus and timings.

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use cosmo_tests::conversations::run::{self, Settings};
use cosmo_tests::conversations::{CategoryScores, Scores, Size};

use cosmo_pipeline::retrieval::rank::Signal;

use crate::harness::{self, Line};

/// Which embedding model Cosmo runs with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Embeddings {
    /// The built-in offline model (the default configuration).
    Offline,
    /// all-MiniLM-L6-v2 on the CPU (`models.providers.embeddings = "local"`).
    Local,
}

impl Embeddings {
    pub fn name(self) -> &'static str {
        match self {
            Self::Offline => "offline",
            Self::Local => "local",
        }
    }
}

/// What the benchmarks over the chat corpus (`retrieval`, `context`) share.
#[derive(Debug, clap::Args)]
pub struct CorpusArgs {
    /// `quick`: 3 conversations × 20 sessions; `full`: 12 × 20–30 (about 2,000 questions).
    #[arg(long, value_enum, default_value_t = Size::Quick)]
    pub size: Size,
    /// Cosmo's embedding model.
    #[arg(long, value_enum, default_value_t = Embeddings::Offline)]
    pub embeddings: Embeddings,
    /// A TOML file merged over the test configuration (e.g. `[retrieval]` settings).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Keep the ingested store under DIR (a subfolder per corpus, size and embeddings);
    /// later runs with the same corpus and model settings copy it instead of ingesting
    /// again. Delete DIR after changing how Sources are processed or extracted.
    #[arg(long, value_name = "DIR")]
    pub keep: Option<PathBuf>,
    /// Write one JSON line per question (what each benchmark's doc says it holds).
    #[arg(long, value_name = "FILE")]
    pub dump: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// Only the forward pass: no reverse order, no week of maintenance.
    #[arg(long)]
    pub forward_only: bool,
    /// Rank by one signal alone (the others weigh 0): the figure fusion must not fall
    /// below.
    #[arg(long, value_enum)]
    pub only_signal: Option<OnlySignal>,
}

/// One of retrieval's signals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OnlySignal {
    Vector,
    Text,
    Graph,
}

impl OnlySignal {
    fn signal(self) -> Signal {
        match self {
            Self::Vector => Signal::Vector,
            Self::Text => Signal::Text,
            Self::Graph => Signal::Graph,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Self::Vector => "vector",
            Self::Text => "text",
            Self::Graph => "graph",
        }
    }
}

pub async fn run(args: Args) -> anyhow::Result<()> {
    let started = Instant::now();
    let Some(model_dir) = model_dir("retrieval", args.corpus.embeddings)? else {
        return Ok(());
    };
    let settings = Settings {
        size: args.corpus.size,
        model_dir,
        config_file: args.corpus.config.clone(),
        keep: args.corpus.keep,
        dump: args.corpus.dump,
        forward_only: args.forward_only,
        only_signal: args.only_signal.map(OnlySignal::signal),
    };
    let report = run::run(&settings).await?;
    let size = args.corpus.size.name();
    let embeddings = args.corpus.embeddings.name();
    // The configuration's file name, without spaces (the line format splits on them);
    // `only-<signal>` when one signal ranks alone.
    let config = config_name(
        args.corpus.config.as_deref(),
        args.only_signal
            .map_or_else(|| "default".to_owned(), |o| format!("only-{}", o.name())),
    );
    let line = |system: &str, order: &str| {
        let mut l = Line::new("retrieval")
            .text("size", size)
            .text("system", system);
        if system == "cosmo" {
            l = l.text("embeddings", embeddings).text("config", &config);
        }
        l.text("order", order)
    };
    let print = |system: &str, order: &str, scores: &Scores| {
        let mut l = figures(line(system, order), &scores.all);
        if let (Some(p50), Some(p95)) = (scores.p50_ms, scores.p95_ms) {
            l = l.num("p50_ms", p50, 1).num("p95_ms", p95, 1);
        }
        l.text("sessions", report.sessions).print();
        let group = |kind: &str, key: &str, name: &str, s: &CategoryScores| {
            figures(
                system_fields(
                    Line::new(kind).text("size", size),
                    system,
                    embeddings,
                    &config,
                )
                .text("order", order)
                .text(key, name),
                s,
            )
            .print();
        };
        for (category, s) in run::categories(scores) {
            group("retrieval_category", "category", category.name(), &s);
        }
        for (asked, s) in run::intents(scores) {
            group("retrieval_intent", "intent", asked.name(), &s);
        }
    };
    print("bm25", "any", &report.bm25);
    print("cosmo", "forward", &report.forward);
    print("cosmo", "unrouted", &report.unrouted);
    if let Some(s) = &report.reverse {
        print("cosmo", "reverse", s);
    }
    if let Some(s) = &report.after_week {
        print("cosmo", "after_week", s);
    }
    Line::new("retrieval_run")
        .text("size", size)
        .text("embeddings", embeddings)
        .text("config", &config)
        .text("conversations", report.conversations)
        .text("sessions", report.sessions)
        .text("questions", report.questions)
        .num("ingest_seconds", report.ingest_seconds, 1)
        .text("ingest_reused", report.reused)
        .num("week_seconds", report.week_seconds, 1)
        .text("week_archived", report.week_archived)
        .text("week_sources_archived", report.week_sources_archived)
        .num("total_seconds", started.elapsed().as_secs_f64(), 1)
        .print();
    Ok(())
}

/// The model folder of `embeddings` for `bench` (`None` inside: the offline model);
/// `None` after saying why the bench is skipped, when local files cannot be had.
pub fn model_dir(bench: &str, embeddings: Embeddings) -> anyhow::Result<Option<Option<PathBuf>>> {
    match embeddings {
        Embeddings::Offline => Ok(Some(None)),
        Embeddings::Local => Ok(match local_model()? {
            Some(dir) => Some(Some(dir)),
            None => {
                eprintln!(
                    "{bench} --embeddings local: skipped, no all-MiniLM-L6-v2 files (see above)"
                );
                None
            }
        }),
    }
}

/// A `--config` file's name without spaces (the line format splits on them), else
/// `otherwise`.
pub fn config_name(config: Option<&std::path::Path>, otherwise: String) -> String {
    config.map_or(otherwise, |p| {
        p.file_name()
            .map_or_else(
                || p.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            )
            .replace(char::is_whitespace, "_")
    })
}

/// `system=…`, and Cosmo's `embeddings` and `config` (`-` for a baseline).
pub fn system_fields(line: Line, system: &str, embeddings: &str, config: &str) -> Line {
    let cosmo = system == "cosmo";
    line.text("system", system)
        .text("embeddings", if cosmo { embeddings } else { "-" })
        .text("config", if cosmo { config } else { "-" })
}

/// The all-MiniLM-L6-v2 folder, fetched once into the target folder's `minilm/` as the
/// test suite does (`cosmo_tests::minilm`). That helper finds the target folder from a
/// test binary's place (`<target>/<profile>/deps/`), one level deeper than this binary,
/// so unless `COSMO_TEST_MINILM_DIR` or `CARGO_TARGET_DIR` says where, it runs in a
/// child process told the target folder.
pub fn local_model() -> anyhow::Result<Option<PathBuf>> {
    let what = "retrieval with local embeddings";
    let told = |var: &str| std::env::var_os(var).is_some_and(|v| !v.is_empty());
    if told("COSMO_TEST_MINILM_DIR") || told("CARGO_TARGET_DIR") {
        return Ok(cosmo_tests::minilm::model_dir(what));
    }
    let Some(target) = harness::bin_dir().parent().map(std::path::Path::to_owned) else {
        return Ok(cosmo_tests::minilm::model_dir(what));
    };
    let cached = target.join("minilm").join("all-MiniLM-L6-v2");
    if cached.join("model.safetensors").is_file() {
        return Ok(Some(cached));
    }
    let out = Command::new(harness::self_exe()?)
        .arg("minilm-dir")
        .env("CARGO_TARGET_DIR", &target)
        .stderr(std::process::Stdio::inherit())
        .output()?;
    let dir = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    Ok((out.status.success() && !dir.is_empty()).then(|| PathBuf::from(dir)))
}

/// `cosmo-bench minilm-dir`: prints the model folder, fetching it if need be.
pub fn print_model_dir() -> anyhow::Result<()> {
    let dir = cosmo_tests::minilm::model_dir("retrieval with local embeddings")
        .ok_or_else(|| anyhow::anyhow!("no all-MiniLM-L6-v2 files"))?;
    println!("{}", dir.display());
    Ok(())
}

fn figures(line: Line, s: &CategoryScores) -> Line {
    line.num("recall_at_5", s.recall_at_5, 3)
        .num("recall_at_10", s.recall_at_10, 3)
        .num("mrr", s.mrr, 3)
        .text("questions", s.questions)
}
