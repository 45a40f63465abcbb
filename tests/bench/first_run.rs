//! `cosmo-bench first-run`: README's first command, `cargo run --release --bin cosmo --
//! serve`, from nothing built, timed until the server answers `/healthz`.
//!
//! Cargo runs in the workspace folder with a target folder of its own, empty (the crates
//! already in cargo's download cache: fetching them is not timed); the server starts on
//! an empty embedded store in a temporary folder, on a free loopback port. The build ends at
//! cargo's `Finished` line; the total at the first `/healthz` answer. The ceiling is what
//! a newcomer should wait at most: 8 minutes on 2 cores.

use std::fmt::Write as _;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::harness::KEY;
use crate::report::Row;
use crate::text::{f, int, s};

/// The most a first run may take: 8 minutes.
const CEILING_S: f64 = 480.0;

/// What cargo's output told while it ran.
#[derive(Debug, Default)]
struct Build {
    /// Crates compiled (`Compiling` lines).
    crates: usize,
    /// When `Finished` was printed.
    finished: Option<Duration>,
    /// The last lines (cargo's, then the server's), shown if it fails.
    tail: std::collections::VecDeque<String>,
}

pub async fn run() -> anyhow::Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace folder");
    let dir = tempfile::tempdir()?;
    let target = dir.path().join("target");
    let bind = format!("127.0.0.1:{}", cosmo_tests::process::free_port());
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let log = std::fs::File::create(dir.path().join("cosmo.log"))?;
    let started = Instant::now();
    let mut child = Command::new(cargo)
        .args([
            "run",
            "--release",
            "--locked",
            "--bin",
            "cosmo",
            "--manifest-path",
        ])
        .arg(root.join("Cargo.toml"))
        .args(["--", "serve"])
        // The workspace folder, as README's command runs: cargo reads the workspace's
        // `.cargo/config.toml` (SQLite's build flags) from the folder it runs in.
        .current_dir(root)
        .env("CARGO_TARGET_DIR", &target)
        // The embedded default's one file (the graph store shares it), in the empty folder.
        .env(
            "COSMO_DATABASE__URL",
            format!("sqlite://{}", dir.path().join("cosmo.db").display()),
        )
        .env("COSMO_SERVER__BIND", &bind)
        .env("COSMO_AUTH__BOOTSTRAP_KEY", KEY)
        .stdin(Stdio::null())
        .stdout(log)
        .stderr(Stdio::piped())
        .spawn()?;
    let build = Arc::new(Mutex::new(Build::default()));
    let stderr = child.stderr.take().expect("piped stderr");
    let seen = Arc::clone(&build);
    // Reads cargo's output (and then the server's) to the end, so neither ever blocks.
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let mut b = seen.lock().expect("not poisoned");
            match line.split_whitespace().next() {
                Some("Compiling") => b.crates += 1,
                Some("Finished") => b.finished = Some(started.elapsed()),
                _ => {}
            }
            if b.tail.len() == 40 {
                b.tail.pop_front();
            }
            b.tail.push_back(line);
        }
    });

    let client = cosmo_shared::http::client();
    let deadline = started + Duration::from_secs(3600);
    let answered = loop {
        if let Some(status) = child.try_wait()? {
            std::thread::sleep(Duration::from_millis(200));
            let tail = Vec::from(build.lock().expect("not poisoned").tail.clone());
            anyhow::bail!(
                "`cargo run --bin cosmo -- serve` exited ({status}):\n{}\n{}",
                tail.join("\n"),
                std::fs::read_to_string(dir.path().join("cosmo.log")).unwrap_or_default()
            );
        }
        let up = client
            .get(format!("http://{bind}/healthz"))
            .send()
            .await
            .is_ok_and(|r| r.status().is_success());
        if up {
            break started.elapsed();
        }
        anyhow::ensure!(Instant::now() < deadline, "cosmo did not answer in an hour");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    // `cargo run` replaced itself with the server: this stops the server.
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let _ = child.wait();

    let b = build.lock().expect("not poisoned");
    let built = b.finished.unwrap_or(answered);
    let binary = std::fs::metadata(target.join("release/cosmo"))?.len();
    println!(
        "first-run build_s={:.1} serve_s={:.2} total_s={:.1} ceiling_s={CEILING_S} crates={} binary_mib={:.0}",
        built.as_secs_f64(),
        (answered - built).as_secs_f64(),
        answered.as_secs_f64(),
        b.crates,
        binary as f64 / f64::from(1 << 20),
    );
    Ok(())
}

/// The section of `BENCHMARKS.md`.
pub fn section(d: &mut String, rows: &[Row]) {
    d.push_str(
        "
## First run: README's first command from a fresh clone

```sh
./target/release/cosmo-bench first-run
```

`cargo run --release --bin cosmo -- serve` in the workspace folder with an empty target
folder of its own (the crates already in cargo's download cache: a first fetch adds the
download) and the embedded store in an empty folder, timed until the server answers
`/healthz`: the cold release build of `cosmo` (every crate it needs, on all the
machine's cores), then the start of the embedded default (migrations, first API key,
workers).

| cold build | start to `/healthz` | total | ceiling | crates compiled | binary |
|---:|---:|---:|---:|---:|---:|
",
    );
    for r in rows {
        let _ = writeln!(
            d,
            "| {} | {:.1} s | {} | {} | {} | {} MiB |",
            minutes(f(r, "build_s")),
            f(r, "serve_s"),
            minutes(f(r, "total_s")),
            minutes(f(r, "ceiling_s")),
            int(s(r, "crates")),
            s(r, "binary_mib"),
        );
    }
    d.push_str(
        "
How to read: the build is nearly all of it. What keeps it short: the embedded default
needs no C or C++ build but SQLite's (rustls runs on ring, not aws-lc; the offline
model's WordPiece tokenizer is Cosmo's own, not the `tokenizers` crate), the Neo4j store
and candle (the `local` embedder) are built only with the `neo4j` and `minilm`
features, code that is not on a request's path (the `cosmo` command's start-up, the MCP
protocol library, the OpenAPI document, configuration and argument parsing) is
optimised at `opt-level = 1`, the serving loops are compiled once in their own crates,
the binaries carry no debug information, and the core, the two graph stores and the
models are crates of their own that compile side by side. The CPU decides much of it:
a 2-core AMD EPYC builds faster than the 2-core Intel Xeon measured here.
",
    );
}

/// `7m 52s`.
fn minutes(seconds: f64) -> String {
    let whole = seconds.round() as u64;
    format!("{}m {:02}s", whole / 60, whole % 60)
}
