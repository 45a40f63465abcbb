//! `cosmo-bench context`: what an agent reads. Over the generated chat corpus with
//! relative times planted (`cosmo_tests::conversations`), every question's `context`
//! (markdown) at each token budget, fresh and after quiet nights of every maintenance
//! job, against BM25 over single turns given the same budget in the same run; and
//! explore's recall@10 counting the Sources reached through insights. Prints a `context`
//! line per system, pass and budget, a `context_category` line per category too, a
//! `context_explore` line per pass and a `context_run` line (`context_section.rs` turns
//! them into BENCHMARKS.md's section). With `--latency-sources N` it times context
//! against explore on the explore benchmark's store instead (`context_latency.rs`).

use std::time::Instant;

use cosmo_tests::conversations::context::{self, Settings};
use cosmo_tests::conversations::figures::{Figures, Measured};

use crate::harness::Line;
use crate::retrieval::{CorpusArgs, config_name, model_dir, system_fields};

/// `--dump FILE`: one JSON line per question and pass, with its evidence turns and, at
/// each budget, Cosmo's context and the baseline's with which turns each holds.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// Token budgets of the contexts.
    #[arg(long, value_delimiter = ',', default_value = "800,2000")]
    pub budgets: Vec<u64>,
    /// The passes, each after this many quiet nights of every maintenance job (0:
    /// fresh). Each pass starts from the store of the one before, unasked.
    #[arg(long, value_delimiter = ',', default_value = "0,30,365")]
    pub nights: Vec<u32>,
    /// Instead of the corpus: context's and explore's latency over N short Sources of
    /// one user, the explore benchmark's store and questions.
    #[arg(long, value_name = "N")]
    pub latency_sources: Option<usize>,
    /// Timed questions of `--latency-sources` (after 5 untimed ones).
    #[arg(long, default_value_t = 100)]
    pub queries: usize,
}

pub async fn run(args: Args) -> anyhow::Result<()> {
    if let Some(sources) = args.latency_sources {
        return crate::context_latency::run(
            sources,
            args.queries,
            &args.budgets,
            args.corpus.embeddings,
        )
        .await;
    }
    let started = Instant::now();
    let Some(model_dir) = model_dir("context", args.corpus.embeddings)? else {
        return Ok(());
    };
    let settings = Settings {
        size: args.corpus.size,
        model_dir,
        config_file: args.corpus.config.clone(),
        keep: args.corpus.keep,
        dump: args.corpus.dump,
        budgets: args.budgets,
        nights: args.nights,
    };
    let report = context::run(&settings).await?;
    let size = args.corpus.size.name();
    let embeddings = args.corpus.embeddings.name();
    let config = config_name(args.corpus.config.as_deref(), "default".to_owned());
    let head = |name: &str, system: &str, nights: &str, budget: u64| {
        system_fields(
            Line::new(name).text("size", size),
            system,
            embeddings,
            &config,
        )
        .text("nights", nights)
        .text("budget", budget)
    };
    let print =
        |system: &str, nights: &str, budget: u64, m: &Measured, latency: Option<(f64, f64)>| {
            let mut line = figures(head("context", system, nights, budget), &m.all);
            if let Some((p50, p95)) = latency {
                line = line.num("p50_ms", p50, 1).num("p95_ms", p95, 1);
            }
            line.print();
            for (category, f) in m.categories() {
                figures(head("context_category", system, nights, budget), &f)
                    .text("category", category.name())
                    .print();
            }
        };
    for (budget, m) in &report.baseline {
        print("bm25_turns", "any", *budget, m, None);
    }
    for pass in &report.passes {
        let nights = pass.nights.to_string();
        for (budget, m, p50, p95) in &pass.budgets {
            print("cosmo", &nights, *budget, m, Some((*p50, *p95)));
        }
        Line::new("context_explore")
            .text("size", size)
            .text("embeddings", embeddings)
            .text("config", &config)
            .text("nights", &nights)
            .num("recall_at_10_sources", pass.explore.sources, 3)
            .num("recall_at_10", pass.explore.with_insights, 3)
            .text("questions", pass.explore.questions)
            .text("sources_archived", pass.sources_archived)
            .num("nights_seconds", pass.nights_seconds, 1)
            .print();
    }
    Line::new("context_run")
        .text("size", size)
        .text("embeddings", embeddings)
        .text("config", &config)
        .text("conversations", report.conversations)
        .text("sessions", report.sessions)
        .text("questions", report.questions)
        .text("relative_questions", report.relative_questions)
        .num("ingest_seconds", report.ingest_seconds, 1)
        .text("ingest_reused", report.reused)
        .num("total_seconds", started.elapsed().as_secs_f64(), 1)
        .print();
    Ok(())
}

fn figures(line: Line, f: &Figures) -> Line {
    line.num("evidence", f.evidence, 3)
        .num("answer", f.answer, 3)
        .num("tokens", f.tokens, 0)
        .text("questions", f.questions)
}
