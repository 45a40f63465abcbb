//! `cosmo-bench pipeline`: Sources per second from `POST /api/sources` to `extracted`
//! with the offline model, by number of `workers` processes, on the PostgreSQL queue
//! (the graph a SQLite file, or with `--store neo4j` on the server at `NEO4J_URI`). For
//! each K: fresh stores and `ingest-api`; N Sources posted (8 at a time); then K
//! `workers` processes (default settings: every kind, concurrency 4 per kind) started;
//! the graph polled every 100 ms until every Source is `extracted`. Model calls and
//! tokens per Source come from the usage ledger (`GET /api/admin/usage`).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::corpus;
use crate::harness::{self, Child, GraphKind, Line, Queue, Stores};

/// Users the Sources are spread over.
const USERS: usize = 20;
/// Posts in flight at once.
const POSTERS: usize = 8;

pub async fn run(sources: usize, workers: &[usize], graph: GraphKind) -> anyhow::Result<()> {
    if graph == GraphKind::Neo4j && cosmo_tests::neo4j::config_from_env().is_none() {
        eprintln!("pipeline --store neo4j: skipped (NEO4J_URI is not set)");
        return Ok(());
    }
    for &k in workers {
        once(sources, k, graph).await?;
    }
    Ok(())
}

/// One drained run: what it took and the model usage it recorded.
pub struct Drained {
    pub total: Duration,
    pub posted_in: Duration,
    pub drained_in: Duration,
    /// Model calls, prompt and completion tokens per job kind, from the usage ledger.
    pub usage: BTreeMap<String, (i64, i64, i64)>,
}

impl Drained {
    /// Model calls per Source made by jobs of `kind`.
    pub fn calls_per_source(&self, kind: &str, n: usize) -> f64 {
        self.usage.get(kind).map_or(0, |u| u.0) as f64 / n as f64
    }
}

async fn once(n: usize, k: usize, graph: GraphKind) -> anyhow::Result<()> {
    let d = drain(n, k, &[], graph).await?;
    let (total, posted_in, drained_in) = (d.total, d.posted_in, d.drained_in);
    let per = |v: i64| v as f64 / n as f64;
    let (all_calls, prompt, completion) = d
        .usage
        .values()
        .fold((0, 0, 0), |a, u| (a.0 + u.0, a.1 + u.1, a.2 + u.2));
    Line::new("pipeline")
        .text("graph", graph.name())
        .text("workers", k)
        .text("sources", n)
        .num("seconds", total.as_secs_f64(), 2)
        .num("sources_per_second", n as f64 / total.as_secs_f64(), 1)
        .num("posting_seconds", posted_in.as_secs_f64(), 2)
        .num("drain_seconds", drained_in.as_secs_f64(), 2)
        .num(
            "drain_sources_per_second",
            n as f64 / drained_in.as_secs_f64(),
            1,
        )
        .num("calls_per_source", per(all_calls), 2)
        .num(
            "process_calls_per_source",
            d.calls_per_source("process-source", n),
            2,
        )
        .num(
            "extract_calls_per_source",
            d.calls_per_source("extract-entities", n),
            2,
        )
        .num("prompt_tokens_per_source", per(prompt), 0)
        .num("completion_tokens_per_source", per(completion), 0)
        .print();
    Ok(())
}

/// Fresh stores (the graph a SQLite file or on the Neo4j server) and `ingest-api` (both
/// with `env` added to the bench's settings); `n` Sources posted; then `k` `workers`
/// processes (with `env` too) run until every Source is extracted.
pub async fn drain(
    n: usize,
    k: usize,
    env: &[(String, String)],
    graph: GraphKind,
) -> anyhow::Result<Drained> {
    anyhow::ensure!(n > 0 && k > 0, "--sources and --workers must be positive");
    let stores = Stores::new(Queue::Postgres)
        .await?
        .on(graph)
        .ok_or_else(|| anyhow::anyhow!("--store neo4j needs NEO4J_URI"))?;
    let users: Vec<String> = (0..USERS)
        .map(|u| stores.user(&format!("pipe-user-{u}")))
        .collect();
    let mut settings = stores.env();
    settings.extend_from_slice(env);
    let (mut api, base) = harness::start_api_with(&stores, &settings).await?;
    let client = cosmo_shared::http::client();

    let first_post = Instant::now();
    let mut posts = tokio::task::JoinSet::new();
    for p in 0..POSTERS {
        let (client, base, users) = (client.clone(), base.clone(), users.clone());
        posts.spawn(async move {
            for i in (p..n).step_by(POSTERS) {
                let body = corpus::source_body(i, &users[i % USERS]);
                let resp = client
                    .post(format!("{base}/api/sources"))
                    .bearer_auth(harness::KEY)
                    .header("content-type", "application/json")
                    .body(body.to_string())
                    .send()
                    .await?;
                anyhow::ensure!(
                    resp.status() == reqwest::StatusCode::ACCEPTED,
                    "POST /api/sources: {}",
                    resp.status()
                );
            }
            anyhow::Ok(())
        });
    }
    while let Some(done) = posts.join_next().await {
        done??;
    }
    let posted_in = first_post.elapsed();

    let workers_started = Instant::now();
    let mut procs = Vec::with_capacity(k);
    for w in 0..k {
        let mut env = settings.clone();
        env.push(("COSMO_WORKERS__NAME".into(), format!("bench-{w}")));
        procs.push(Child::start("workers", &[], stores.dir.path(), &env)?);
    }
    let extracted = Extracted::connect(&stores, &users).await?;
    let deadline = Instant::now() + Duration::from_secs(600 + n as u64);
    loop {
        for p in &mut procs {
            p.check_running()?;
        }
        let extracted = extracted.count().await?;
        if extracted as usize >= n {
            break;
        }
        anyhow::ensure!(
            Instant::now() < deadline,
            "only {extracted} of {n} Sources extracted in time"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let total = first_post.elapsed();
    let drained_in = workers_started.elapsed();
    for p in &mut procs {
        p.stop();
    }

    let usage = usage(&client, &base).await?;
    api.stop();
    Ok(Drained {
        total,
        posted_in,
        drained_in,
        usage,
    })
}

/// How many of the run's Sources are `extracted`, read from the graph store directly.
enum Extracted {
    Sqlite(sqlx::SqlitePool),
    Neo4j(neo4rs::Graph, Vec<String>),
}

impl Extracted {
    async fn connect(stores: &Stores, users: &[String]) -> anyhow::Result<Self> {
        Ok(match &stores.neo4j {
            None => Self::Sqlite(
                sqlx::SqlitePool::connect(&format!("sqlite://{}", stores.graph_path.display()))
                    .await?,
            ),
            Some(n) => Self::Neo4j(harness::neo4j_client(&n.config, 1)?, users.to_vec()),
        })
    }

    async fn count(&self) -> anyhow::Result<i64> {
        Ok(match self {
            Self::Sqlite(pool) => {
                sqlx::query_scalar(
                    "SELECT count(*) FROM sources WHERE processing_status = 'extracted'",
                )
                .fetch_one(pool)
                .await?
            }
            Self::Neo4j(graph, users) => {
                let q = neo4rs::query(
                    "MATCH (s:Source) WHERE s.user_id IN $users
                       AND s.processing_status = 'extracted'
                     RETURN count(s) AS n",
                )
                .param("users", users.clone());
                let mut rows = graph.execute(q).await?;
                let mut n = 0;
                while let Some(row) = rows.next().await? {
                    n = row.get("n")?;
                }
                n
            }
        })
    }
}

/// Calls, prompt and completion tokens per job kind, from the usage ledger.
async fn usage(
    client: &reqwest::Client,
    base: &str,
) -> anyhow::Result<BTreeMap<String, (i64, i64, i64)>> {
    let resp = client
        .get(format!("{base}/api/admin/usage"))
        .bearer_auth(harness::KEY)
        .send()
        .await?;
    anyhow::ensure!(resp.status().is_success(), "usage: {}", resp.status());
    let report: Value = serde_json::from_slice(&resp.bytes().await?)?;
    let mut by_kind = BTreeMap::new();
    for row in report["rows"].as_array().into_iter().flatten() {
        let kind = row["job_kind"].as_str().unwrap_or("?").to_owned();
        let e: &mut (i64, i64, i64) = by_kind.entry(kind).or_default();
        e.0 += row["calls"].as_i64().unwrap_or(0);
        e.1 += row["prompt_tokens"].as_i64().unwrap_or(0);
        e.2 += row["completion_tokens"].as_i64().unwrap_or(0);
    }
    Ok(by_kind)
}
