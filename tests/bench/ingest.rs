//! `cosmo-bench ingest`: sustained `POST /api/sources` against `ingest-api` in its own
//! process on loopback (no workers: only ingestion is measured), and the same run's
//! ceiling: the store calls that endpoint makes, made directly through the same store
//! types by the same drivers at the same concurrency for the same time. The graph is a
//! SQLite file, or with `--store neo4j` the server at `NEO4J_URI` (users of the run's
//! own, deleted after it).
//!
//! The endpoint's store calls (`ingest-api/src/routes/sources.rs` and the API-key
//! extractor in `ingest-api/src/extract.rs`), in order:
//! 1. `directory.authenticate(key)` — the API key's tenant;
//! 2. `directory.tenant_user(tenant, owner)` — the owner's graph user id, if known;
//! 3. `graph.source(entity_key)` — an idempotency key reused for other content is refused;
//! 4. `directory.claim_users(tenant, users)` — unknown users join the tenant;
//! 5. `graph.create_source(source)` — the raw Source;
//! 6. `queue.enqueue(process-source)` — its job.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use cosmo_shared::domain::input::SourceInput;
use cosmo_shared::queue::payloads::ProcessSource;
use cosmo_shared::services::Services;

use crate::corpus;
use crate::harness::{self, GraphKind, Line, Queue, Stores};

/// Users the posted Sources are spread over.
const USERS: usize = 100;
/// Requests before this are not measured (connections, caches, the first users).
const WARM_UP: Duration = Duration::from_secs(2);

pub async fn run(
    seconds: u64,
    concurrency: usize,
    queue: Queue,
    graph: GraphKind,
) -> anyhow::Result<()> {
    let window = Duration::from_secs(seconds);
    let Some(stores) = Stores::new(queue).await?.on(graph) else {
        eprintln!("ingest --store neo4j: skipped (NEO4J_URI is not set)");
        return Ok(());
    };
    let users: Vec<String> = (0..USERS).map(|u| stores.user(&user(u))).collect();
    let (mut api, base) = harness::start_api(&stores).await?;
    let client = cosmo_shared::http::client_builder()
        .pool_max_idle_per_host(concurrency)
        .build()?;
    let url = format!("{base}/api/sources");
    let posters = users.clone();
    let api_stats = drive(concurrency, window, move |i| {
        let (client, url) = (client.clone(), url.clone());
        let body = corpus::source_body(i, &posters[i % USERS]).to_string();
        async move {
            client
                .post(&url)
                .bearer_auth(harness::KEY)
                .header("content-type", "application/json")
                .body(body)
                .send()
                .await
                .is_ok_and(|r| r.status() == reqwest::StatusCode::ACCEPTED)
        }
    })
    .await;
    api.check_running()?;
    api.stop();
    drop((api, stores));

    // The ceiling, on fresh stores of the same kind, with the server gone.
    let stores = Stores::new(queue)
        .await?
        .on(graph)
        .ok_or_else(|| anyhow::anyhow!("NEO4J_URI went away"))?;
    let users: Vec<String> = (0..USERS).map(|u| stores.user(&user(u))).collect();
    let svc = stores.services().await?;
    let tenant = svc.config.auth.bootstrap_tenant.clone();
    svc.directory
        .add_api_key(&tenant, harness::KEY, "bench", true, svc.clock.now())
        .await?;
    let ceiling = drive(concurrency, window, move |i| {
        let svc = svc.clone();
        let input = SourceInput::parse(corpus::source_body(i, &users[i % USERS]));
        async move {
            match input {
                Ok(input) => store_calls(&svc, input).await.is_ok(),
                Err(_) => false,
            }
        }
    })
    .await;

    // On Neo4j, the floor under both: one bare write of a Source-sized node per call.
    let bare = match &stores.neo4j {
        Some(n) => Some(bare_writes(&n.config, &n.suffix, concurrency, window).await?),
        None => None,
    };

    let ratio = api_stats.per_second() / ceiling.per_second();
    let mut line = Line::new("ingest");
    if let Some(bare) = &bare {
        line = line
            .num("bare_write_per_second", bare.per_second(), 1)
            .num("bare_write_p50_ms", bare.pct_ms(0.5), 2)
            .num("bare_write_p99_ms", bare.pct_ms(0.99), 2);
    }
    line.text("queue", queue.name())
        .text("graph", stores.graph_name())
        .text("concurrency", concurrency)
        .text("seconds", seconds)
        .num("api_per_second", api_stats.per_second(), 1)
        .num("api_p50_ms", api_stats.pct_ms(0.5), 2)
        .num("api_p99_ms", api_stats.pct_ms(0.99), 2)
        .num("api_max_ms", api_stats.pct_ms(1.0), 2)
        .text("api_accepted", api_stats.ok)
        .text("api_errors", api_stats.failed)
        .num("ceiling_per_second", ceiling.per_second(), 1)
        .num("ceiling_p50_ms", ceiling.pct_ms(0.5), 2)
        .num("ceiling_p99_ms", ceiling.pct_ms(0.99), 2)
        .num("ceiling_max_ms", ceiling.pct_ms(1.0), 2)
        .text("ceiling_errors", ceiling.failed)
        .num("api_over_ceiling", ratio, 2)
        .print();
    Ok(())
}

/// The `u`-th user's name (with a run's suffix on Neo4j: [`Stores::user`]).
fn user(u: usize) -> String {
    format!("bench-user-{u}")
}

/// One `CREATE` per call through neo4rs, of a node as large as a posted Source (its body
/// as one property), by the same drivers: what a write costs on that server before any
/// of the store's statements, indexes or transactions. The nodes carry the run's users,
/// so the stores' key space deletes them.
async fn bare_writes(
    config: &cosmo_shared::config::Neo4jConfig,
    suffix: &str,
    concurrency: usize,
    window: Duration,
) -> anyhow::Result<Stats> {
    let graph = harness::neo4j_client(config, concurrency)?;
    let suffix = suffix.to_owned();
    Ok(drive(concurrency, window, move |i| {
        let graph = graph.clone();
        let body = corpus::source_body(i, &format!("{}{suffix}", user(i % USERS))).to_string();
        let user_id = format!("{}{suffix}", user(i % USERS));
        async move {
            let q = neo4rs::query("CREATE (:BenchWrite {user_id: $user_id, i: $i, body: $body})")
                .param("user_id", user_id)
                .param("i", i as i64)
                .param("body", body);
            graph.run(q).await.is_ok()
        }
    })
    .await)
}

/// What `POST /api/sources` asks of the stores for one new Source (see the module doc).
async fn store_calls(svc: &Services, input: SourceInput) -> anyhow::Result<()> {
    let now = svc.clock.now();
    let tenant = svc
        .directory
        .authenticate(harness::KEY)
        .await?
        .ok_or_else(|| anyhow::anyhow!("unknown key"))?
        .tenant_id;
    let users = input.users();
    if let Some(owner) = svc.directory.tenant_user(&tenant, &input.user_id).await? {
        let (entity_key, _) = input.identity_for(&owner.graph_user_id, None);
        svc.graph.source(&entity_key).await?;
    }
    let graph_user_ids = svc.directory.claim_users(&tenant, &users, now).await?;
    let new = input
        .with_graph_user_ids(&users, &graph_user_ids)
        .into_new_source(None, now);
    svc.graph.create_source(&new).await?;
    let request_id = ulid::Ulid::generate().to_string();
    svc.queue
        .enqueue(ProcessSource::job(&new.entity_key).request_id(Some(request_id)))
        .await?;
    Ok(())
}

/// What a driver run measured.
#[derive(Debug, Default)]
pub struct Stats {
    pub ok: usize,
    pub failed: usize,
    /// Of the successful calls, sorted.
    pub latencies: Vec<Duration>,
    pub elapsed: Duration,
}

impl Stats {
    pub fn per_second(&self) -> f64 {
        self.ok as f64 / self.elapsed.as_secs_f64()
    }

    pub fn pct_ms(&self, p: f64) -> f64 {
        harness::pct_ms(&self.latencies, p)
    }
}

/// `concurrency` drivers, each calling `op(i)` (a distinct `i` every call) back to back
/// for [`WARM_UP`] and then `window`. Calls started in the window are measured;
/// throughput is the successful ones over the time from the window's start until the
/// last of them finished.
pub async fn drive<F, Fut>(concurrency: usize, window: Duration, op: F) -> Stats
where
    F: Fn(usize) -> Fut + Clone + Send + 'static,
    Fut: Future<Output = bool> + Send,
{
    let next = Arc::new(AtomicUsize::new(0));
    let start = Instant::now();
    let (measure_from, stop_at) = (start + WARM_UP, start + WARM_UP + window);
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..concurrency {
        let (op, next) = (op.clone(), next.clone());
        tasks.spawn(async move {
            let mut mine = Stats::default();
            loop {
                let t = Instant::now();
                if t >= stop_at {
                    break;
                }
                let ok = op(next.fetch_add(1, Ordering::Relaxed)).await;
                if t < measure_from {
                    continue;
                }
                if ok {
                    mine.ok += 1;
                    mine.latencies.push(t.elapsed());
                } else {
                    mine.failed += 1;
                }
            }
            mine
        });
    }
    let mut all = Stats::default();
    while let Some(done) = tasks.join_next().await {
        let mine = done.expect("driver task");
        all.ok += mine.ok;
        all.failed += mine.failed;
        all.latencies.extend(mine.latencies);
    }
    all.elapsed = measure_from.elapsed();
    all.latencies.sort();
    all
}
