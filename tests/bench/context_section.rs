//! BENCHMARKS.md's "Context" section, from `cosmo-bench context`'s lines: each of
//! Cosmo's figures beside the baseline's at the same budget from the same run.

use std::fmt::Write as _;

use crate::report::Row;
use crate::text::{f, int, ms, num, s, secs};

const CATEGORIES: [&str; 5] = ["single-hop", "temporal", "multi-hop", "open", "dated"];

fn pass_name(nights: &str) -> String {
    match nights {
        "0" => "fresh".into(),
        n => format!("after {n} quiet nights"),
    }
}

/// The rows of `embeddings` in the order they ran: Cosmo's with the default settings,
/// or the baseline's (`-`: it has no embeddings and no settings either).
fn of<'a>(rows: &'a [Row], embeddings: &str) -> impl Iterator<Item = &'a Row> {
    let embeddings = embeddings.to_owned();
    rows.iter().filter(move |r| {
        let config = s(r, "config");
        s(r, "embeddings") == embeddings && (config == "default" || embeddings == "-")
    })
}

pub fn section(
    d: &mut String,
    lines: &[Row],
    categories: &[Row],
    explore: &[Row],
    runs: &[Row],
    latency: &[Row],
) {
    let run = runs
        .iter()
        .find(|r| s(r, "embeddings") == "offline")
        .or(runs.first());
    let field = |key: &str| run.map_or("?".to_owned(), |r| int(s(r, key)));
    let _ = write!(
        d,
        "
## Context: what an agent reads, against BM25 over single turns

```sh
./target/release/cosmo-bench context --size full   # --embeddings local, --budgets 800,2000, --nights 0,30,365, --keep DIR, --dump FILE
```

The retrieval benchmark's corpus ({conversations} conversations, {sessions} sessions,
{questions} questions) with relative times planted: about half the events whose line names no time already are told with
when they happened relative to the session (\"yesterday\", \"two days ago\", \"last
Friday\", \"on Tuesday\", \"last week\", \"this morning\", \"last month\" …), and
{relative} temporal questions expect the date that refers to (\"7 May 2023\" for
\"yesterday\" in a session of 8 May 2023); the others expect the session's date. Ingested as
there (each conversation for its first speaker, both speakers participants, the
session's date as `started_at`); then every question is a `context` call (markdown) as
that user at each budget, in order, on a copy of the store of its own per budget: fresh,
and after 30 and 365 quiet nights (every maintenance job at each of its scheduled slots,
on the clock of the slot, nobody asking; each pass from the one before, unasked).

Each question carries its *evidence turns*: for each event it is about, the turn that
tells it and the two of the first exchange about it. **Evidence in context** is the share
of them present in the context text, averaged over questions: a turn is present when at
least half of its distinct word bigrams (lower-cased runs of letters and digits,
apostrophes kept) are among the context's bigrams. **Answer in context** is the share of
the expected answer's content words (the same words less a short stopword list, numbers
kept) among the context's words, a date written `2023-05-07` counting as \"7 May 2023\".
**BM25 over turns** is the baseline in the same run: BM25 (as in the retrieval
benchmark) over the owner's conversation's turns, each `Speaker: text` its own document,
best first, as many turns as fit in the budget by Cosmo's own token estimate (4
characters a token), nothing else added. Tokens are the estimate of the text returned.

| embeddings | pass | budget | evidence: BM25 turns | evidence: Cosmo | answer: BM25 turns | answer: Cosmo | tokens: BM25 turns | tokens: Cosmo | context p50 | context p95 |
|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|
",
        conversations = field("conversations"),
        sessions = field("sessions"),
        questions = field("questions"),
        relative = field("relative_questions"),
    );
    let baseline = |budget: &str| of(lines, "-").find(|r| s(r, "budget") == budget);
    for embeddings in ["offline", "local"] {
        for r in of(lines, embeddings) {
            let b = baseline(s(r, "budget"));
            let base = |key: &str| b.map_or("?".to_owned(), |b| num(f(b, key), 3));
            let _ = writeln!(
                d,
                "| {embeddings} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                pass_name(s(r, "nights")),
                int(s(r, "budget")),
                base("evidence"),
                num(f(r, "evidence"), 3),
                base("answer"),
                num(f(r, "answer"), 3),
                b.map_or("?".to_owned(), |b| num(f(b, "tokens"), 0)),
                num(f(r, "tokens"), 0),
                ms(f(r, "p50_ms")),
                ms(f(r, "p95_ms")),
            );
        }
    }
    d.push_str("\nEvidence in context by question category (questions in brackets):\n\n");
    d.push_str("| system | pass | budget |");
    for name in CATEGORIES {
        let count = categories
            .iter()
            .find(|r| s(r, "embeddings") == "-" && s(r, "category") == name)
            .map_or("?", |r| s(r, "questions"));
        let _ = write!(d, " {name} ({count}) |");
    }
    let _ = writeln!(d, "\n|---|---|---:|{}", "---:|".repeat(CATEGORIES.len()));
    let mut groups: Vec<(String, String, String, &str)> = Vec::new();
    for r in of(categories, "-")
        .chain(of(categories, "offline"))
        .chain(of(categories, "local"))
    {
        let key = (
            s(r, "embeddings").to_owned(),
            s(r, "nights").to_owned(),
            s(r, "budget").to_owned(),
            s(r, "system"),
        );
        if !groups.contains(&key) {
            groups.push(key);
        }
    }
    for (embeddings, nights, budget, system) in &groups {
        let label = match *system {
            "cosmo" => format!("Cosmo ({embeddings})"),
            _ => "BM25 over turns".to_owned(),
        };
        let pass = if nights == "any" {
            "any".to_owned()
        } else {
            pass_name(nights)
        };
        let _ = write!(d, "| {label} | {pass} | {} |", int(budget));
        for name in CATEGORIES {
            let cell = categories.iter().find(|r| {
                s(r, "embeddings") == embeddings
                    && s(r, "nights") == nights
                    && s(r, "budget") == budget
                    && s(r, "category") == name
            });
            let _ = write!(
                d,
                " {} |",
                cell.map_or("–".to_owned(), |r| num(f(r, "evidence"), 3))
            );
        }
        d.push('\n');
    }
    d.push_str(
        "
Explore's recall@10 of the evidence sessions (granularity 1, limit 10, as the retrieval
benchmark asks) on the same stores: a session counts as found when its Source is among
the Sources returned, or (second column) also when a returned consolidation insight was
derived from it (its `derived_from` holds the Source).

| embeddings | pass | recall@10, Sources | recall@10, Sources or insights | Sources archived | nights took |
|---|---|---:|---:|---:|---:|
",
    );
    for embeddings in ["offline", "local"] {
        for r in explore
            .iter()
            .filter(|r| s(r, "embeddings") == embeddings && s(r, "config") == "default")
        {
            let _ = writeln!(
                d,
                "| {embeddings} | {} | {} | {} | {} | {} |",
                pass_name(s(r, "nights")),
                num(f(r, "recall_at_10_sources"), 3),
                num(f(r, "recall_at_10"), 3),
                int(s(r, "sources_archived")),
                secs(f(r, "nights_seconds")),
            );
        }
    }
    d.push_str(
        "
Latency at scale, `cosmo-bench context --latency-sources 10000`: the explore benchmark's
store (10⁴ short Sources of one user, offline embeddings) and questions; after 5 untimed
questions each timed one is asked of explore and then of context at each budget, one
client, in-process:

| Sources | budget | context p50 | context p95 | context p99 | explore p50 | explore p95 | tokens used |
|---:|---:|---:|---:|---:|---:|---:|---:|
",
    );
    for r in latency {
        let _ = writeln!(
            d,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            int(s(r, "sources")),
            int(s(r, "budget")),
            ms(f(r, "context_p50_ms")),
            ms(f(r, "context_p95_ms")),
            ms(f(r, "context_p99_ms")),
            ms(f(r, "explore_p50_ms")),
            ms(f(r, "explore_p95_ms")),
            num(f(r, "tokens"), 0),
        );
    }
    let _ = write!(
        d,
        "
How to read: the baseline is what an agent would get from the raw turns and nothing
else, so a memory system's context should hold more of the evidence at the same budget;
the issue's goal is Cosmo at least 0.05 above it, fresh and after a year of quiet
nights. Answer in context counts words, not meaning: a context that names the session's
date but not the day \"yesterday\" refers to scores only the month and year. The
baseline has no dates at all. `--dump FILE` writes, per question and pass, the evidence
turns and both contexts at each budget with the turns each holds. The run took
{total} (ingest {ingest}).
",
        total = run.map_or("?".to_owned(), |r| secs(f(r, "total_seconds"))),
        ingest = run.map_or("?".to_owned(), |r| secs(f(r, "ingest_seconds"))),
    );
}
