//! `BENCHMARKS.md` as `all` writes it: how to run, the machine and the command, then a
//! section per benchmark (`sections.rs`); and the number formats they share.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use crate::report::Row;
use crate::sections;

/// What `all` hands over for writing.
#[derive(Debug)]
pub struct Inputs {
    pub quick: bool,
    pub command: String,
    pub machine: Machine,
    pub minutes: f64,
    /// Result lines by name (`ingest`, `pipeline`, …), in the order they ran.
    pub rows: BTreeMap<String, Vec<Row>>,
    pub failures: Vec<String>,
}

/// The machine and the code a run measured.
#[derive(Debug)]
pub struct Machine {
    cpu: String,
    cores: usize,
    memory_gib: f64,
    os: String,
    rustc: String,
    commit: String,
    date: String,
}

impl Machine {
    pub fn read(root: &Path) -> Self {
        let file = |p: &str| std::fs::read_to_string(p).unwrap_or_default();
        let cpuinfo = file("/proc/cpuinfo");
        let field = |text: &str, key: &str| {
            text.lines()
                .find(|l| l.starts_with(key))
                .and_then(|l| l.split_once([':', '=']))
                .map(|(_, v)| v.trim().trim_matches('"').to_owned())
                .unwrap_or_else(|| "unknown".into())
        };
        let memory_kib: f64 = field(&file("/proc/meminfo"), "MemTotal")
            .trim_end_matches(" kB")
            .parse()
            .unwrap_or(0.0);
        let run = |program: &str, args: &[&str]| {
            Command::new(program)
                .args(args)
                .current_dir(root)
                .output()
                .ok()
                .filter(|o| o.status.success())
                .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        };
        let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
        let dirty = run("git", &["status", "--porcelain", "--untracked-files=no"])
            .is_some_and(|s| !s.is_empty());
        Self {
            cpu: field(&cpuinfo, "model name"),
            cores: cpuinfo
                .lines()
                .filter(|l| l.starts_with("processor"))
                .count(),
            memory_gib: memory_kib / 1024.0 / 1024.0,
            os: format!(
                "{}, Linux {}",
                field(&file("/etc/os-release"), "PRETTY_NAME"),
                file("/proc/sys/kernel/osrelease").trim()
            ),
            rustc: run(&rustc, &["--version"]).unwrap_or_else(|| "unknown".into()),
            commit: run("git", &["rev-parse", "--short=12", "HEAD"]).map_or_else(
                || "unknown".into(),
                |c| {
                    if dirty {
                        format!("{c} with uncommitted changes")
                    } else {
                        c
                    }
                },
            ),
            date: chrono::Utc::now().format("%Y-%m-%d %H:%M UTC").to_string(),
        }
    }
}

pub fn document(i: &Inputs) -> String {
    let mut d = String::new();
    let m = &i.machine;
    let profile = if cfg!(debug_assertions) {
        "dev profile (dependencies at `opt-level = 2`, Cosmo's own code unoptimised: a floor)"
    } else {
        "release profile"
    };
    let _ = write!(
        d,
        "# Benchmarks

Measurements, not tests: nothing here is asserted anywhere. This file is written by
`cosmo-bench all` (`tests/bench/`); rerun it rather than editing numbers by hand.
{quick}
## Running them

```sh
cargo run --release -p cosmo-tests --bin cosmo-bench -- all
```

That one command builds the binaries the benchmarks start (`cargo build --release --bin
ingest-api --bin workers`, into the same target folder), runs every benchmark below, each
in its own process, and rewrites this file. It needs PostgreSQL at
`COSMO_TEST_POSTGRES_URL` (default `postgres://postgres@127.0.0.1:5432/postgres`); every
benchmark creates and drops its own databases and temporary folders. The run took the
duration below, plus the first release build. `-- all --quick` runs every benchmark at
small sizes (a smoke test, about a minute; all but `first-run`, a cold build of its
own); `--out FILE` writes elsewhere; `--only
decay,pickup` runs those benchmarks alone and replaces only their sections, each then
noting the run that measured it. Each section gives the command that runs its benchmark
alone (after `cargo build --release --bins`). With `NEO4J_URI` (and `NEO4J_USER`,
`NEO4J_PASSWORD`) naming a Neo4j 5.26 server, `all` also runs `ingest` (PostgreSQL
queue), `pipeline`, `decay`, `promotion` and `explore` on it, under keys and users of the
run's own, deleted after it (the rows marked neo4j, and the Neo4j sections).

## Machine and run

| | |
|---|---|
| CPU | {cpu} |
| logical CPUs | {cores} |
| memory | {mem:.1} GiB |
| OS | {os} |
| Rust | {rustc} |
| build | {profile} |
| code | commit {commit} |
| date | {date} |
| command | `{command}` |
| duration | {minutes:.0} min |

Everything runs on this one machine: load generator, server, workers and PostgreSQL
share its cores, and the load generator competes with what it measures.
",
        quick = if i.quick {
            "\n> **Quick run** (`--quick`): small sizes, to check that every benchmark runs. These\n\
             > numbers are not comparable to a full run's.\n"
        } else {
            ""
        },
        cpu = m.cpu,
        cores = m.cores,
        mem = m.memory_gib,
        os = m.os,
        rustc = m.rustc,
        commit = m.commit,
        date = m.date,
        command = i.command,
        minutes = i.minutes,
    );
    if !i.failures.is_empty() {
        d.push_str("\n**Failed in this run:**\n\n");
        for f in &i.failures {
            let _ = writeln!(d, "* {f}");
        }
    }
    for (_, section) in sections(&i.rows) {
        d.push_str(&section);
    }
    d
}

/// Each benchmark's section, in the file's order, under the name its runs have in the
/// plan (`cosmo-bench NAME …`).
pub fn sections(rows: &BTreeMap<String, Vec<Row>>) -> Vec<(&'static str, String)> {
    let rows = |name: &str| rows.get(name).cloned().unwrap_or_default();
    let one = |render: &dyn Fn(&mut String)| {
        let mut d = String::new();
        render(&mut d);
        d
    };
    vec![
        (
            "first-run",
            one(&|d| crate::first_run::section(d, &rows("first-run"))),
        ),
        ("ingest", one(&|d| sections::ingest(d, &rows("ingest")))),
        (
            "pipeline",
            one(&|d| sections::pipeline(d, &rows("pipeline"))),
        ),
        (
            "slow-model",
            one(&|d| sections::slow_model(d, &rows("slow-model"))),
        ),
        ("decay", one(&|d| sections::decay(d, &rows("decay")))),
        (
            "promotion",
            one(&|d| sections::promotion(d, &rows("promotion"))),
        ),
        ("explore", one(&|d| sections::explore(d, &rows("explore")))),
        (
            "retrieval",
            one(&|d| {
                sections::retrieval(
                    d,
                    &rows("retrieval"),
                    &rows("retrieval_category"),
                    &rows("retrieval_intent"),
                    &rows("retrieval_run"),
                )
            }),
        ),
        (
            "context",
            one(&|d| {
                crate::context_section::section(
                    d,
                    &rows("context"),
                    &rows("context_category"),
                    &rows("context_explore"),
                    &rows("context_run"),
                    &rows("context_latency"),
                )
            }),
        ),
        (
            "graph",
            one(&|d| crate::graph::section::section(d, &rows("graph"), &rows("graph_type"))),
        ),
        ("pickup", one(&|d| sections::pickup(d, &rows("pickup")))),
    ]
}

/// The `## ` heading a section starts with.
fn heading(section: &str) -> Option<&str> {
    section.lines().find(|l| l.starts_with("## "))
}

/// `old` (a whole BENCHMARKS.md) with the sections of `names` replaced by this run's,
/// each headed by a note of the run that measured it; a section `old` does not have (by
/// its heading) goes after the section before it in the file's order, or, when `old`
/// has none of those, before the first section it has.
pub fn replace_sections(old: &str, i: &Inputs, names: &[String]) -> String {
    // `old` cut at each `## ` heading: the preamble, then one part per section.
    let mut parts: Vec<String> = vec![String::new()];
    for line in old.split_inclusive('\n') {
        if line.starts_with("## ") {
            parts.push(String::new());
        }
        parts.last_mut().expect("a part").push_str(line);
    }
    let all = sections(&i.rows);
    // Where a section goes that has none of the order before it in `old`: before the
    // first section `old` has, or at the end.
    let first_known = parts
        .iter()
        .position(|p| {
            all.iter()
                .any(|(_, s)| heading(s).is_some() && heading(s) == heading(p))
        })
        .unwrap_or(parts.len());
    let mut after: Option<usize> = None;
    for (name, section) in all.iter().cloned() {
        let chosen = names.iter().any(|n| n == name);
        if chosen {
            // A section may hold more than one heading (a store's own table): the old
            // parts of its later headings go, the new text holds them.
            let later: Vec<&str> = section
                .lines()
                .filter(|l| l.starts_with("## "))
                .skip(1)
                .collect();
            parts.retain(|p| !heading(p).is_some_and(|h| later.contains(&h)));
        }
        let position = parts
            .iter()
            .position(|p| heading(p).is_some_and(|h| Some(h) == heading(&section)));
        if chosen {
            let note = format!(
                "\n> Measured alone, by `{}`,\n> at commit {} on {} ({}); the rest of this file comes from earlier runs.\n",
                i.command, i.machine.commit, i.machine.date, i.machine.cpu
            );
            let body = section.trim_start_matches('\n');
            let (head, rest) = body.split_once('\n').unwrap_or((body, ""));
            let replaced = format!("{head}\n{note}{}\n\n", rest.trim_end());
            match position {
                Some(p) => parts[p] = replaced,
                None => {
                    let at = after.map_or(first_known, |a| a + 1);
                    parts.insert(at, replaced);
                    after = Some(at);
                    continue;
                }
            }
        }
        if position.is_some() {
            after = position;
        }
    }
    format!("{}\n", parts.concat().trim_end())
}

pub fn s<'a>(r: &'a Row, key: &str) -> &'a str {
    r.get(key).map_or("?", String::as_str)
}

pub fn f(r: &Row, key: &str) -> f64 {
    r.get(key).and_then(|v| v.parse().ok()).unwrap_or(f64::NAN)
}

/// `1234567` → `1,234,567`; anything else unchanged.
pub fn int(v: &str) -> String {
    if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
        return v.to_owned();
    }
    let mut out = String::new();
    for (n, c) in v.chars().enumerate() {
        if n > 0 && (v.len() - n).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A number with `decimals` decimals and thousands separators.
pub fn num(v: f64, decimals: usize) -> String {
    if !v.is_finite() {
        return "?".into();
    }
    let text = format!("{v:.decimals$}");
    let (whole, frac) = text
        .split_once('.')
        .map_or((text.as_str(), None), |(w, f)| (w, Some(f)));
    let (sign, digits) = whole.strip_prefix('-').map_or(("", whole), |d| ("-", d));
    let mut out = format!("{sign}{}", int(digits));
    if let Some(frac) = frac {
        out.push('.');
        out.push_str(frac);
    }
    out
}

pub fn ms(v: f64) -> String {
    let decimals = if v < 1.0 {
        2
    } else if v < 10.0 {
        1
    } else {
        0
    };
    format!("{} ms", num(v, decimals))
}

pub fn secs(v: f64) -> String {
    let decimals = if v < 10.0 {
        2
    } else if v < 100.0 {
        1
    } else {
        0
    };
    format!("{} s", num(v, decimals))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs(rows: &[(&str, &[(&str, &str)])]) -> Inputs {
        let mut by_name: BTreeMap<String, Vec<Row>> = BTreeMap::new();
        for (name, fields) in rows {
            let row: Row = fields
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect();
            by_name.entry((*name).to_owned()).or_default().push(row);
        }
        Inputs {
            quick: false,
            command: "cosmo-bench all --only decay".into(),
            machine: Machine {
                cpu: "test cpu".into(),
                cores: 2,
                memory_gib: 1.0,
                os: "test".into(),
                rustc: "rustc".into(),
                commit: "abc".into(),
                date: "today".into(),
            },
            minutes: 1.0,
            rows: by_name,
            failures: Vec::new(),
        }
    }

    fn decay_row(store: &str, nodes: &str) -> Vec<(&'static str, String)> {
        vec![
            ("store", store.to_owned()),
            ("nodes", nodes.to_owned()),
            ("examined", nodes.to_owned()),
            ("seconds", "1.0".into()),
            ("ceiling_seconds", "0.5".into()),
        ]
    }

    /// A section with a table per store (decay's) replaces both of its old parts, keeps
    /// every other section as it was, and is not written twice when run again.
    #[test]
    fn replacing_a_section_of_two_headings_replaces_both_once() {
        let first = decay_row("sqlite", "10000");
        let first: Vec<(&str, &str)> = first.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let old = document(&inputs(&[("decay", &first), ("pickup", &[])]));
        assert!(old.contains("| 10,000 |"));
        assert!(old.contains("## Maintenance: `decay` on Neo4j"));

        let sqlite = decay_row("sqlite", "20000");
        let neo4j = decay_row("neo4j", "30000");
        let sqlite: Vec<(&str, &str)> = sqlite.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let neo4j: Vec<(&str, &str)> = neo4j.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let new = inputs(&[("decay", &sqlite), ("decay", &neo4j)]);
        let once = replace_sections(&old, &new, &["decay".to_owned()]);
        let twice = replace_sections(&once, &new, &["decay".to_owned()]);
        for doc in [&once, &twice] {
            assert_eq!(doc.matches("## Maintenance: `decay` on Neo4j").count(), 1);
            assert_eq!(
                doc.matches("## Maintenance: `decay` on the embedded store")
                    .count(),
                1
            );
            assert!(!doc.contains("| 10,000 |"), "the old rows are gone");
            assert!(doc.contains("| 20,000 |") && doc.contains("| 30,000 |"));
            let on_neo4j = doc
                .split("## ")
                .find(|part| part.starts_with("Maintenance: `decay` on Neo4j"))
                .unwrap();
            assert!(
                on_neo4j.contains("| 30,000 |"),
                "the Neo4j row is in its table"
            );
            assert!(!on_neo4j.contains("Not measured in this run"));
            assert_eq!(doc.matches("## Queue pickup latency").count(), 1);
        }
        assert_eq!(once, twice, "replacing again changes nothing");
    }
}
