//! What the benchmarks share: throw-away stores (a SQLite file, or a PostgreSQL database
//! created and dropped here), the workspace's binaries as child processes on loopback
//! with the stores' settings, percentiles, peak memory, and the one-line result format
//! that `all` reads back.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use cosmo_shared::config::{Config, GraphBackend, Neo4jConfig};
use cosmo_shared::services::Services;
use cosmo_tests::pg::TempPostgres;

pub use crate::explore::Store as GraphKind;

/// Where the queue (and the directory) live; the graph is a SQLite file unless the
/// stores are [on Neo4j](Stores::on_neo4j).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Queue {
    /// The embedded default: queue, directory and graph in one SQLite file.
    Sqlite,
    /// PostgreSQL queue and directory, SQLite graph (the two-process mode).
    Postgres,
}

impl Queue {
    pub fn name(self) -> &'static str {
        match self {
            Self::Sqlite => "sqlite",
            Self::Postgres => "postgres",
        }
    }
}

/// Fresh, empty stores, removed when dropped.
#[derive(Debug)]
pub struct Stores {
    pub dir: tempfile::TempDir,
    pub database_url: String,
    pub graph_path: PathBuf,
    /// The graph on the Neo4j server at `NEO4J_URI` instead of the SQLite file.
    pub neo4j: Option<OnNeo4j>,
    _pg: Option<TempPostgres>,
}

/// A benchmark's graph on a shared Neo4j server: its users carry a suffix of the run's
/// own, and everything under them is deleted when the stores are dropped, 10,000 nodes a
/// transaction (a benchmark's graph can be too large for one).
#[derive(Debug)]
pub struct OnNeo4j {
    pub config: Neo4jConfig,
    pub suffix: String,
}

/// Deletes a batch of the nodes (with their relationships) of the users whose id ends
/// with `$suffix`.
const DELETE_BATCH: &str = "
MATCH (n) WHERE n.user_id ENDS WITH $suffix
WITH n LIMIT 10000
DETACH DELETE n
RETURN count(*) AS done";

/// A bare neo4rs client of the server in `config`, with `connections` in its pool: for
/// what a benchmark writes or reads around the store (seeding, ceilings, clean-up).
pub fn neo4j_client(config: &Neo4jConfig, connections: usize) -> anyhow::Result<neo4rs::Graph> {
    let settings = neo4rs::ConfigBuilder::default()
        .uri(config.uri.as_str())
        .user(config.user.as_str())
        .password(config.password.as_str())
        .db(config.database.as_str())
        .max_connections(connections.max(1))
        .max_lifetime(Duration::from_secs(600))
        .build()?;
    Ok(neo4rs::Graph::connect(settings)?)
}

impl Drop for OnNeo4j {
    fn drop(&mut self) {
        let (config, suffix) = (self.config.clone(), self.suffix.clone());
        let done = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()?;
            rt.block_on(async {
                let graph = neo4j_client(&config, 1)?;
                loop {
                    let q = neo4rs::query(DELETE_BATCH).param("suffix", suffix.as_str());
                    let mut rows = graph.execute(q).await?;
                    let mut deleted = 0i64;
                    while let Some(row) = rows.next().await? {
                        deleted = row.get("done")?;
                    }
                    if deleted == 0 {
                        return anyhow::Ok(());
                    }
                }
            })
        })
        .join();
        if let Ok(Err(e)) = done {
            eprintln!("could not delete the run's data from Neo4j: {e}");
        }
    }
}

impl Stores {
    pub async fn new(queue: Queue) -> anyhow::Result<Self> {
        let dir = tempfile::tempdir()?;
        Ok(match queue {
            Queue::Sqlite => {
                let db = dir.path().join("cosmo.db");
                Self {
                    database_url: format!("sqlite://{}", db.display()),
                    graph_path: db,
                    dir,
                    neo4j: None,
                    _pg: None,
                }
            }
            Queue::Postgres => {
                let pg = TempPostgres::create().await;
                Self {
                    database_url: pg.url.clone(),
                    graph_path: dir.path().join("graph.db"),
                    dir,
                    neo4j: None,
                    _pg: Some(pg),
                }
            }
        })
    }

    /// With `graph` Neo4j: the same stores with the graph on the Neo4j server at
    /// `NEO4J_URI` (`NEO4J_USER`, `NEO4J_PASSWORD`, `NEO4J_DATABASE`), the users named by
    /// [`Stores::user`] deleted with everything of theirs when the stores are dropped;
    /// `None` when `NEO4J_URI` is not set.
    pub fn on(mut self, graph: GraphKind) -> Option<Self> {
        if graph == GraphKind::Sqlite {
            return Some(self);
        }
        let config = cosmo_tests::neo4j::config_from_env()?;
        let suffix = cosmo_tests::neo4j::new_suffix();
        self.neo4j = Some(OnNeo4j { config, suffix });
        Some(self)
    }

    /// The graph's name in result lines.
    pub fn graph_name(&self) -> &'static str {
        if self.neo4j.is_some() {
            "neo4j"
        } else {
            "sqlite"
        }
    }

    /// A benchmark's user `name` as posted: with the run's suffix on a shared Neo4j
    /// server (so reruns never meet an earlier run's Sources), as it is otherwise.
    pub fn user(&self, name: &str) -> String {
        match &self.neo4j {
            Some(n) => format!("{name}{}", n.suffix),
            None => name.to_owned(),
        }
    }

    /// The settings every process of a benchmark runs with: the defaults, these stores,
    /// warnings-only logs. The child processes get the same through [`Stores::env`].
    pub fn config(&self) -> Config {
        let mut c = Config::default();
        c.database.url = self.database_url.clone();
        c.graph.sqlite_path = Some(self.graph_path.clone());
        if let Some(n) = &self.neo4j {
            c.graph.backend = GraphBackend::Neo4j;
            c.graph.neo4j = n.config.clone();
        }
        c.log.level = "warn".into();
        c
    }

    /// [`Stores::config`] in this process.
    pub async fn services(&self) -> anyhow::Result<Services> {
        Services::connect(self.config()).await
    }

    pub fn env(&self) -> Vec<(String, String)> {
        [
            ("COSMO_DATABASE__URL", self.database_url.clone()),
            (
                "COSMO_GRAPH__SQLITE_PATH",
                self.graph_path.display().to_string(),
            ),
            ("COSMO_LOG__LEVEL", "warn".into()),
            ("RUST_LOG", "warn".into()),
        ]
        .into_iter()
        .chain(self.neo4j.iter().flat_map(|n| {
            [
                ("COSMO_GRAPH__BACKEND", "neo4j".to_owned()),
                ("COSMO_GRAPH__NEO4J__URI", n.config.uri.clone()),
                ("COSMO_GRAPH__NEO4J__USER", n.config.user.clone()),
                ("COSMO_GRAPH__NEO4J__PASSWORD", n.config.password.clone()),
                ("COSMO_GRAPH__NEO4J__DATABASE", n.config.database.clone()),
            ]
        }))
        .map(|(k, v)| (k.to_owned(), v))
        .collect()
    }
}

/// The folder of the binaries the bench starts: next to `cosmo-bench` itself, i.e. the
/// target folder of the profile the bench was built in (`COSMO_BIN_DIR` overrides).
pub fn bin_dir() -> PathBuf {
    std::env::var_os("COSMO_BIN_DIR")
        .map(PathBuf::from)
        .or_else(|| {
            self_exe()
                .ok()
                .and_then(|exe| exe.parent().map(Path::to_owned))
        })
        .unwrap_or_else(|| PathBuf::from("."))
}

/// This executable's path. When the file was replaced while running (a rebuild during a
/// long run), Linux reports it with " (deleted)"; the rebuilt file at the same path is
/// then used.
pub fn self_exe() -> anyhow::Result<PathBuf> {
    let exe = std::env::current_exe()?;
    Ok(exe
        .to_str()
        .and_then(|s| s.strip_suffix(" (deleted)"))
        .map_or(exe.clone(), PathBuf::from))
}

/// `cargo build` flags for the profile this bench was built in.
pub fn profile_flag() -> Option<&'static str> {
    (!cfg!(debug_assertions)).then_some("--release")
}

fn bin(name: &str) -> anyhow::Result<PathBuf> {
    let path = bin_dir().join(name);
    anyhow::ensure!(
        path.exists(),
        "{} is missing: build the binaries first (`cargo build {}--bins`)",
        path.display(),
        profile_flag().map_or(String::new(), |f| format!("{f} "))
    );
    Ok(path)
}

/// A workspace binary running as a child process, its output in a log file; killed
/// when dropped.
#[derive(Debug)]
pub struct Child {
    name: String,
    child: std::process::Child,
    log: PathBuf,
}

impl Child {
    pub fn start(
        binary: &str,
        args: &[&str],
        dir: &Path,
        env: &[(String, String)],
    ) -> anyhow::Result<Self> {
        let log = dir.join(format!("{binary}-{}.log", ulid::Ulid::generate()));
        let out = std::fs::File::create(&log)?;
        let child = Command::new(bin(binary)?)
            .args(args)
            .current_dir(dir)
            .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .stdin(Stdio::null())
            .stdout(out.try_clone()?)
            .stderr(out)
            .spawn()
            .map_err(|e| anyhow::anyhow!("starting {binary}: {e}"))?;
        Ok(Self {
            name: binary.to_owned(),
            child,
            log,
        })
    }

    /// Fails with the process's output if it has exited.
    pub fn check_running(&mut self) -> anyhow::Result<()> {
        if let Some(status) = self.child.try_wait()? {
            anyhow::bail!(
                "{} exited ({status}); its output:\n{}",
                self.name,
                std::fs::read_to_string(&self.log).unwrap_or_default()
            );
        }
        Ok(())
    }

    /// SIGTERM, up to 10 s for a clean exit, then SIGKILL.
    pub fn stop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The API key the bench's servers are started with (an admin key of the default
/// tenant, registered by `auth.bootstrap_key`).
pub const KEY: &str = "cosmo-bench-key";

/// `ingest-api` on `stores` and a free loopback port, with [`KEY`]; returns once it
/// answers `/healthz`, with its base URL.
pub async fn start_api(stores: &Stores) -> anyhow::Result<(Child, String)> {
    start_api_with(stores, &stores.env()).await
}

/// [`start_api`] with these settings (`stores.env()` and more).
pub async fn start_api_with(
    stores: &Stores,
    settings: &[(String, String)],
) -> anyhow::Result<(Child, String)> {
    let bind = format!("127.0.0.1:{}", cosmo_tests::process::free_port());
    let mut env = settings.to_vec();
    env.push(("COSMO_SERVER__BIND".into(), bind.clone()));
    env.push(("COSMO_AUTH__BOOTSTRAP_KEY".into(), KEY.into()));
    let mut api = Child::start("ingest-api", &[], stores.dir.path(), &env)?;
    let base = format!("http://{bind}");
    let client = cosmo_shared::http::client();
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        api.check_running()?;
        let up = client
            .get(format!("{base}/healthz"))
            .send()
            .await
            .is_ok_and(|r| r.status().is_success());
        if up {
            return Ok((api, base));
        }
        anyhow::ensure!(
            Instant::now() < deadline,
            "ingest-api did not answer /healthz"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Polls `check` every `every` until it yields `Some`; fails after `timeout`.
pub async fn poll<T, F, Fut>(
    what: &str,
    every: Duration,
    timeout: Duration,
    mut check: F,
) -> anyhow::Result<T>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = anyhow::Result<Option<T>>>,
{
    let start = Instant::now();
    loop {
        if let Some(v) = check().await? {
            return Ok(v);
        }
        anyhow::ensure!(
            start.elapsed() < timeout,
            "timed out after {timeout:?} waiting for {what}"
        );
        tokio::time::sleep(every).await;
    }
}

/// The `p`-quantile (0..=1, nearest rank) of sorted durations, in milliseconds.
pub fn pct_ms(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize].as_secs_f64() * 1e3
}

/// Peak resident memory of this process, in MiB (Linux `VmHWM`).
pub fn peak_mib() -> f64 {
    status_mib("VmHWM:")
}

/// Resident memory of this process now, in MiB (Linux `VmRSS`).
pub fn rss_mib() -> f64 {
    status_mib("VmRSS:")
}

/// The peak of this process's anonymous resident memory (Linux `RssAnon`: heap and
/// stacks, not file pages such as a database's memory map) while `run` runs, sampled
/// every 5 ms by a thread.
pub async fn peak_anon_mib<T>(run: impl std::future::Future<Output = T>) -> (T, f64) {
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let sampler = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut peak = status_mib("RssAnon:");
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                peak = peak.max(status_mib("RssAnon:"));
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            peak.max(status_mib("RssAnon:"))
        })
    };
    let out = run.await;
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    (out, sampler.join().unwrap_or(0.0))
}

fn status_mib(field: &str) -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with(field)).map(str::to_owned))
        .and_then(|l| {
            l.split_whitespace()
                .nth(1)
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

/// Resets `VmHWM` to the current resident size (Linux ≥ 4.0), so the next
/// [`peak_mib`] is the peak of what runs from now on.
pub fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// One result: `name key=value …` on one line of stdout, which `all` parses back.
#[derive(Debug)]
pub struct Line(String);

impl Line {
    pub fn new(name: &str) -> Self {
        Self(name.to_owned())
    }

    pub fn text(mut self, key: &str, value: impl std::fmt::Display) -> Self {
        let _ = write!(self.0, " {key}={value}");
        self
    }

    pub fn num(self, key: &str, value: f64, decimals: usize) -> Self {
        self.text(key, format!("{value:.decimals$}"))
    }

    pub fn print(self) {
        println!("{}", self.0);
    }
}
