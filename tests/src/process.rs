//! The real binaries (`cosmo`, `ingest-api`, `workers`, `scheduler`) as child processes,
//! killed when dropped. They must be built first (`cargo build --bins`; the test command
//! does this).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// Where the workspace's binaries are: next to the test executable's `deps/` folder.
pub fn bin(name: &str) -> PathBuf {
    let dir = std::env::var_os("COSMO_BIN_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let exe = std::env::current_exe().expect("current exe");
            exe.parent()
                .and_then(Path::parent)
                .expect("target dir")
                .to_owned()
        });
    let path = dir.join(name);
    assert!(
        path.exists(),
        "{} is missing: build the binaries first (`cargo build --bins`)",
        path.display()
    );
    path
}

/// A free TCP port on 127.0.0.1.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port()
}

/// A running binary; its output goes to a log file shown when a test fails.
#[derive(Debug)]
pub struct Proc {
    pub name: String,
    child: Child,
    pub log: PathBuf,
}

impl Proc {
    /// Starts `binary args…` in `dir` with `env` (plus quiet, plain logs).
    pub fn start(binary: &str, args: &[&str], dir: &Path, env: &[(String, String)]) -> Self {
        let log = dir.join(format!("{}-{}.log", binary, ulid::Ulid::generate()));
        let out = std::fs::File::create(&log).expect("log file");
        let err = out.try_clone().expect("log file");
        let child = Command::new(bin(binary))
            .args(args)
            .current_dir(dir)
            .env("COSMO_LOG__FORMAT", "pretty")
            .env(
                "RUST_LOG",
                "warn,cosmo_workers=info,cosmo_api=info,ingest_api=info",
            )
            .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .unwrap_or_else(|e| panic!("starting {binary}: {e}"));
        Self {
            name: binary.to_owned(),
            child,
            log,
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGKILL: no chance to clean up (a crashed machine).
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// SIGTERM, then wait up to `timeout` for a clean exit. Returns whether it exited.
    pub fn terminate(&mut self, timeout: Duration) -> bool {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let deadline = std::time::Instant::now() + timeout;
        while std::time::Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        false
    }

    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    pub fn output(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Waits until the server says it is listening (`cosmo serve` and `ingest-api` both
    /// say so once their port is bound); false if it exits first. Panics after `timeout`.
    pub async fn wait_listening(&mut self, timeout: Duration) -> bool {
        let deadline = std::time::Instant::now() + timeout;
        loop {
            if self.output().contains("listening") {
                return true;
            }
            if !self.is_running() {
                return false;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "{} did not listen within {timeout:?}:\n{}",
                self.name,
                self.output()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        if self.is_running() {
            self.kill();
        }
        if std::thread::panicking() {
            eprintln!("---- {} output ----\n{}", self.name, self.output());
        }
    }
}

/// Environment for a process on the given stores, with fast heartbeats.
pub fn env(database_url: &str, graph_path: &Path, extra: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut env: Vec<(String, String)> = [
        ("COSMO_DATABASE__URL", database_url.to_owned()),
        ("COSMO_GRAPH__SQLITE_PATH", graph_path.display().to_string()),
        ("COSMO_QUEUE__POLL_INTERVAL_MS", "100".into()),
        ("COSMO_QUEUE__PERIODIC_POLL_INTERVAL_MS", "200".into()),
        ("COSMO_QUEUE__HEARTBEAT_SECS", "1".into()),
        ("COSMO_QUEUE__MISSED_HEARTBEATS", "2".into()),
        ("COSMO_WORKERS__SHUTDOWN_TIMEOUT_SECS", "1".into()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    env.extend(
        extra
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned())),
    );
    env
}

/// `cosmo serve` on the embedded default in `dir` (one SQLite file `dir/cosmo.db`),
/// with API key `key` and `extra` settings; returns once it answers `/healthz`.
pub async fn embedded(dir: &Path, key: &str, extra: &[(&str, &str)]) -> (Proc, crate::http::Api) {
    let db = dir.join("cosmo.db");
    let url = format!("sqlite://{}", db.display());
    serve("cosmo", &["serve"], dir, key, |bind| {
        let mut vars = vec![
            ("COSMO_SERVER__BIND", bind),
            ("COSMO_AUTH__BOOTSTRAP_KEY", key),
        ];
        vars.extend_from_slice(extra);
        env(&url, &db, &vars)
    })
    .await
}

/// Starts a server (`binary args…` in `dir`, with the environment `env` makes for its
/// `COSMO_SERVER__BIND`) on a free loopback port; returns once this process listens
/// there and answers `/healthz`, with an API client holding `key`. A port found free may
/// be taken by another test's server before this one binds it: this one then exits, and
/// is started again on another port — trusting `/healthz` alone would have the test
/// talk to the other test's server.
pub async fn serve(
    binary: &str,
    args: &[&str],
    dir: &Path,
    key: &str,
    env: impl Fn(&str) -> Vec<(String, String)>,
) -> (Proc, crate::http::Api) {
    for _ in 0..5 {
        let bind = format!("127.0.0.1:{}", free_port());
        let mut proc = Proc::start(binary, args, dir, &env(&bind));
        if proc.wait_listening(Duration::from_secs(60)).await {
            let api = crate::http::Api::new(format!("http://{bind}"), Some(key));
            wait_healthy(&api).await;
            return (proc, api);
        }
        eprintln!(
            "{binary} stopped before listening on {bind} (taken?); starting it on another port:\n{}",
            proc.output()
        );
    }
    panic!("{binary} could not listen on a free port in five tries");
}

/// Waits until the API answers `/healthz`.
pub async fn wait_healthy(api: &crate::http::Api) {
    crate::wait_for(
        "the API to answer /healthz",
        Duration::from_secs(60),
        || async {
            let client = cosmo_shared::http::client();
            let ok = client
                .get(format!("{}/healthz", api.base))
                .send()
                .await
                .is_ok_and(|r| r.status().is_success());
            ok.then_some(())
        },
    )
    .await;
}
