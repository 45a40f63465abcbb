//! `cosmo-bench all`: builds the binaries the benchmarks start, runs every benchmark at
//! the sizes (or small ones with `--quick`), each in its own child process (so
//! each peak-memory figure is that run's alone), reads back their result lines and
//! (re)writes `BENCHMARKS.md` with the machine, the command and a table per benchmark.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::harness;
use crate::text;

/// One result line: its name and its `key=value` fields.
pub type Row = BTreeMap<String, String>;

/// Every benchmark child run: its arguments (after `cosmo-bench`).
fn plan(quick: bool) -> Vec<Vec<String>> {
    let mut runs: Vec<Vec<&str>> = Vec::new();
    // On the embedded store; and on the Neo4j server named by NEO4J_URI, when there is one.
    let on_neo4j = std::env::var("NEO4J_URI").is_ok_and(|u| !u.is_empty());
    let stores: &[&str] = if on_neo4j {
        &["sqlite", "neo4j"]
    } else {
        &["sqlite"]
    };
    let (ingest_seconds, concurrencies) = if quick {
        ("2", &["4"][..])
    } else {
        ("30", &["1", "16"][..])
    };
    // The embedded default, the PostgreSQL queue with the SQLite graph and, on Neo4j,
    // the deployment's pair: the PostgreSQL queue with the Neo4j graph.
    let mut ingest = vec![("sqlite", "sqlite"), ("postgres", "sqlite")];
    if on_neo4j {
        ingest.push(("postgres", "neo4j"));
    }
    for (queue, store) in ingest {
        for &c in concurrencies {
            runs.push(vec![
                "ingest",
                "--seconds",
                ingest_seconds,
                "--concurrency",
                c,
                "--queue",
                queue,
                "--store",
                store,
            ]);
        }
    }
    for &store in stores {
        runs.push(if quick {
            vec![
                "pipeline",
                "--sources",
                "20",
                "--workers",
                "1,2",
                "--store",
                store,
            ]
        } else {
            vec![
                "pipeline",
                "--sources",
                "1000",
                "--workers",
                "1,2,4",
                "--store",
                store,
            ]
        });
    }
    runs.push(if quick {
        vec![
            "slow-model",
            "--sources",
            "10",
            "--delay-ms",
            "200",
            "--workers",
            "1",
            "--concurrency",
            "4",
        ]
    } else {
        vec![
            "slow-model",
            "--sources",
            "100",
            "--delay-ms",
            "2000",
            "--workers",
            "1,2",
            "--concurrency",
            "4,16",
        ]
    });
    let nodes: &[&str] = if quick {
        &["10000"]
    } else {
        &["10000", "100000", "1000000"]
    };
    for &store in stores {
        for &n in nodes {
            runs.push(vec!["decay", "--store", store, "--nodes", n]);
        }
    }
    for &store in stores {
        for &n in nodes {
            runs.push(vec!["promotion", "--store", store, "--nodes", n]);
        }
    }
    let (sources, queries): (&[&str], &str) = if quick {
        (&["1000"], "20")
    } else {
        (&["10000", "100000"], "100")
    };
    for &store in stores {
        for &s in sources {
            runs.push(vec![
                "explore",
                "--store",
                store,
                "--sources",
                s,
                "--queries",
                queries,
            ]);
        }
        if !quick {
            // Many users in one store: 10⁶ Sources, 10⁴ each (seeding takes about an
            // hour on the embedded store).
            runs.push(vec![
                "explore",
                "--store",
                store,
                "--sources",
                "1000000",
                "--users",
                "100",
                "--queries",
                queries,
            ]);
        }
    }
    // Long Sources: chat sessions of 30 turns, about 8 content passages each; and the
    // vector index's recall with a real embedding model's vectors.
    for (option, value) in [("--turns", "30"), ("--embeddings", "local")] {
        runs.push(vec![
            "explore",
            "--sources",
            sources[0],
            "--queries",
            queries,
            option,
            value,
        ]);
    }
    let size = if quick { "quick" } else { "full" };
    for embeddings in ["offline", "local"] {
        runs.push(vec![
            "retrieval",
            "--size",
            size,
            "--embeddings",
            embeddings,
        ]);
    }
    // Each signal alone, the figures fusion must not fall below.
    for (embeddings, signal) in [
        ("offline", "text"),
        ("offline", "vector"),
        ("local", "vector"),
    ] {
        runs.push(vec![
            "retrieval",
            "--size",
            size,
            "--embeddings",
            embeddings,
            "--only-signal",
            signal,
            "--forward-only",
        ]);
    }
    // A year of quiet nights in the full run; a week in the quick one.
    let nights = if quick { "0,7" } else { "0,30,365" };
    runs.push(vec![
        "context",
        "--latency-sources",
        sources[0],
        "--queries",
        queries,
    ]);
    for embeddings in ["offline", "local"] {
        runs.push(vec![
            "context",
            "--size",
            size,
            "--embeddings",
            embeddings,
            "--nights",
            nights,
        ]);
    }
    runs.push(if quick {
        vec!["graph", "--conversations", "10"]
    } else {
        vec!["graph"]
    });
    for (queue, in_process) in [("sqlite", false), ("sqlite", true), ("postgres", false)] {
        let mut run = vec![
            "pickup",
            "--jobs",
            if quick { "10" } else { "200" },
            "--queue",
            queue,
        ];
        if in_process {
            run.push("--in-process");
        }
        runs.push(run);
    }
    if !quick {
        // Last: its cold build would slow every benchmark running beside it.
        runs.push(vec!["first-run"]);
    }
    runs.into_iter()
        .map(|r| r.into_iter().map(str::to_owned).collect())
        .collect()
}

pub fn run(quick: bool, out: Option<PathBuf>, build: bool, only: &[String]) -> anyhow::Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace folder")
        .to_owned();
    if build {
        build_binaries(&root)?;
    }
    let started = Instant::now();
    let mut rows: BTreeMap<String, Vec<Row>> = BTreeMap::new();
    let mut failures = Vec::new();
    let chosen = |args: &Vec<String>| only.is_empty() || only.contains(&args[0]);
    for args in plan(quick).into_iter().filter(chosen) {
        eprintln!("cosmo-bench: {}", args.join(" "));
        match run_child(&args) {
            Ok(lines) => {
                for (name, row) in lines {
                    rows.entry(name).or_default().push(row);
                }
            }
            Err(e) => {
                eprintln!("cosmo-bench: {} failed: {e:#}", args.join(" "));
                failures.push(format!("`{}`: {e:#}", args.join(" ")));
            }
        }
    }
    let command = format!(
        "cargo run {}-p cosmo-tests --bin cosmo-bench -- {}",
        harness::profile_flag().map_or(String::new(), |f| format!("{f} ")),
        std::env::args().skip(1).collect::<Vec<_>>().join(" ")
    );
    let machine = text::Machine::read(&root);
    let inputs = text::Inputs {
        quick,
        command,
        machine,
        minutes: started.elapsed().as_secs_f64() / 60.0,
        rows,
        failures: failures.clone(),
    };
    let out = out.unwrap_or_else(|| root.join("BENCHMARKS.md"));
    let doc = if only.is_empty() {
        text::document(&inputs)
    } else {
        // Only the sections measured are rewritten; a failed benchmark leaves its old one.
        anyhow::ensure!(
            failures.is_empty(),
            "{} benchmark(s) failed: {failures:?}",
            failures.len()
        );
        text::replace_sections(
            &std::fs::read_to_string(&out).unwrap_or_default(),
            &inputs,
            only,
        )
    };
    std::fs::write(&out, doc)?;
    eprintln!("cosmo-bench: wrote {}", out.display());
    anyhow::ensure!(
        failures.is_empty(),
        "{} benchmark(s) failed",
        failures.len()
    );
    Ok(())
}

/// `cargo build [--release] --bin ingest-api --bin workers` into the target folder this
/// bench runs from, so the processes it starts are of the same code and profile.
fn build_binaries(root: &Path) -> anyhow::Result<()> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.arg("build")
        .args(harness::profile_flag())
        .args(["--bin", "ingest-api", "--bin", "workers", "--manifest-path"])
        .arg(root.join("Cargo.toml"));
    if let Some(target) = harness::bin_dir().parent() {
        cmd.arg("--target-dir").arg(target);
    }
    eprintln!("cosmo-bench: building the binaries it starts: {cmd:?}");
    let status = cmd.status()?;
    anyhow::ensure!(status.success(), "cargo build failed: {status}");
    Ok(())
}

/// Runs `cosmo-bench args…`, echoing its output; returns its result lines.
fn run_child(args: &[String]) -> anyhow::Result<Vec<(String, Row)>> {
    let mut child = Command::new(crate::harness::self_exe()?)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()?;
    let mut lines = Vec::new();
    let stdout = child.stdout.take().expect("piped stdout");
    for line in BufReader::new(stdout).lines() {
        let line = line?;
        println!("{line}");
        if let Some(parsed) = parse(&line) {
            lines.push(parsed);
        }
    }
    let status = child.wait()?;
    anyhow::ensure!(status.success(), "exited with {status}");
    Ok(lines)
}

/// `name key=value …` → (name, fields); `None` for other output.
pub fn parse(line: &str) -> Option<(String, Row)> {
    let mut words = line.split_whitespace();
    let name = words.next()?;
    let row: Row = words
        .map(|w| w.split_once('=').map(|(k, v)| (k.to_owned(), v.to_owned())))
        .collect::<Option<_>>()?;
    (!row.is_empty()).then(|| (name.to_owned(), row))
}
