//! `cosmo-bench context --latency-sources N`: context's latency at scale, on the explore
//! benchmark's store (N short Sources of one user, `seed_sources.rs`) and questions,
//! beside explore's on the same store and questions in the same run: 5 untimed
//! questions, then each timed question asked of explore and of context at each budget.
//! Prints one `context_latency` line per budget.

use std::time::{Duration as StdDuration, Instant};

use cosmo_pipeline::retrieval;
use cosmo_shared::config::Provider;
use cosmo_shared::domain::input::read::{ContextInput, ExploreInput};
use cosmo_tests::stores;
use serde_json::json;

use crate::harness::{self, Line};
use crate::retrieval::{Embeddings, local_model};
use crate::seed_sources;

pub async fn run(
    sources: usize,
    queries: usize,
    budgets: &[u64],
    embeddings: Embeddings,
) -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("cosmo.db");
    let mut config = stores::test_config(&format!("sqlite://{}", db.display()), &db);
    if embeddings == Embeddings::Local {
        let Some(model) = local_model()? else {
            eprintln!("context --latency-sources: skipped, no all-MiniLM-L6-v2 files");
            return Ok(());
        };
        config.models.providers.embeddings = Provider::Local;
        config.models.local.model_dir = Some(model);
    }
    let svc = stores::connect(config).await;
    let user = |u: usize| format!("bench-user-{u}");
    let seeding = Instant::now();
    seed_sources::seed(&svc, sources, 1, 0, &user).await?;
    let seeded_in = seeding.elapsed();
    let asks = seed_sources::questions(queries + 5);
    let explore = |ask: &str| {
        ExploreInput::parse(json!({
            "user_id": user(0),
            "queries": [{ "query": ask }],
            "limit": 10,
        }))
        .map_err(|e| anyhow::anyhow!("{e:?}"))
    };
    let context = |ask: &str, budget: u64| {
        ContextInput::parse(json!({
            "user_id": user(0),
            "message": ask,
            "budget_tokens": budget,
            "format": "markdown",
        }))
        .map_err(|e| anyhow::anyhow!("{e:?}"))
    };
    // The first question loads the user's indexes; the next four warm up the rest.
    for ask in &asks[..5] {
        retrieval::explore(&svc, &explore(ask)?, None).await?;
        for &budget in budgets {
            retrieval::context::build(&svc, &context(ask, budget)?, None).await?;
        }
    }
    let mut explored: Vec<StdDuration> = Vec::new();
    let mut built: Vec<Vec<StdDuration>> = vec![Vec::new(); budgets.len()];
    let mut tokens = vec![0u64; budgets.len()];
    for ask in &asks[5..] {
        let input = explore(ask)?;
        let t = Instant::now();
        retrieval::explore(&svc, &input, None).await?;
        explored.push(t.elapsed());
        for (b, &budget) in budgets.iter().enumerate() {
            let input = context(ask, budget)?;
            let t = Instant::now();
            let made = retrieval::context::build(&svc, &input, None).await?;
            built[b].push(t.elapsed());
            tokens[b] += made.tokens_used;
        }
    }
    explored.sort();
    for ((budget, took), tokens) in budgets.iter().zip(&mut built).zip(tokens) {
        took.sort();
        Line::new("context_latency")
            .text("store", "sqlite")
            .text("sources", sources)
            .text("embeddings", embeddings.name())
            .text("queries", queries)
            .text("budget", budget)
            .num("context_p50_ms", harness::pct_ms(took, 0.5), 1)
            .num("context_p95_ms", harness::pct_ms(took, 0.95), 1)
            .num("context_p99_ms", harness::pct_ms(took, 0.99), 1)
            .num("explore_p50_ms", harness::pct_ms(&explored, 0.5), 1)
            .num("explore_p95_ms", harness::pct_ms(&explored, 0.95), 1)
            .num("tokens", tokens as f64 / queries.max(1) as f64, 0)
            .num("seeding_seconds", seeded_in.as_secs_f64(), 1)
            .print();
    }
    Ok(())
}
