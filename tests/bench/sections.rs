//! One section of `BENCHMARKS.md` per benchmark: the command that runs it alone, its
//! method, a table of its result lines and a line on how to read it.

use std::fmt::Write as _;

use crate::report::Row;
use crate::text::{f, int, ms, num, s, secs};

pub fn ingest(d: &mut String, rows: &[Row]) {
    d.push_str(
        "
## Ingest: sustained `POST /api/sources`

```sh
./target/release/cosmo-bench ingest --seconds 30 --concurrency 16 --queue sqlite   # or --queue postgres
```

`ingest-api` runs in its own process on loopback, without workers (only ingestion is
measured), on fresh stores: **sqlite** is the embedded default (queue, directory and graph
in one SQLite file), **postgres** the PostgreSQL queue and directory with the SQLite
graph. The bench process is the load generator: C clients (reqwest, keep-alive) post back
to back, 2 s of warm-up and then the measured seconds; every body is a distinct Source (a
meeting transcript, an email, a conversation or a note, 0.5–1.5 KB, over 100 users of one
tenant). Accepted/s counts 202 answers; latencies are of those.

**Ceiling**: right after, on fresh stores of the same kind and with the server stopped,
the same drivers at the same concurrency for the same time make directly, through the same
`cosmo_shared` types, the store calls the endpoint makes for a new Source: the API key's
lookup, the users' tenants, the idempotency check (`graph.source`), claiming the users,
writing the Source, enqueueing its `process-source` job.

| queue | clients | API accepted/s | API p50 | API p99 | ceiling ops/s | ceiling p50 | ceiling p99 | API / ceiling |
|---|---:|---:|---:|---:|---:|---:|---:|---:|
",
    );
    for r in rows {
        let _ = writeln!(
            d,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {:.2} |",
            s(r, "queue"),
            s(r, "concurrency"),
            num(f(r, "api_per_second"), 0),
            ms(f(r, "api_p50_ms")),
            ms(f(r, "api_p99_ms")),
            num(f(r, "ceiling_per_second"), 0),
            ms(f(r, "ceiling_p50_ms")),
            ms(f(r, "ceiling_p99_ms")),
            f(r, "api_over_ceiling"),
        );
    }
    d.push_str(
        "
How to read: API / ceiling is the share of the stores' own capacity that the HTTP API
delivers at that concurrency; the rest goes to HTTP, JSON, validation, middleware, and the
load generator sharing the cores with the server (the ceiling run has no server process).
With one client, p50 is a request's latency on an idle server.
",
    );
}

pub fn pipeline(d: &mut String, rows: &[Row]) {
    d.push_str(
        "
## Pipeline: from post to extracted, by worker processes

```sh
./target/release/cosmo-bench pipeline --sources 1000 --workers 1,2,4
```

For each number K of worker processes: fresh stores (PostgreSQL queue and directory,
SQLite graph) and `ingest-api`; N Sources posted over HTTP (8 at a time; the same mix as
ingest, over 20 users); then K `workers` processes started (default settings: every job
kind, 4 jobs of each kind at once per process, the offline model); the graph polled every
100 ms until every Source is `extracted` (processed, and the owner's extraction written).
Model calls and tokens per Source come from the usage ledger (`GET /api/admin/usage`);
the offline model estimates tokens at 4 characters each.

| worker processes | Sources | post → all extracted | Sources/s | posting | drain (workers started → all extracted) | drain Sources/s | model calls / Source (process + extract) | tokens / Source (prompt + completion) |
|---:|---:|---:|---:|---:|---:|---:|---:|---:|
",
    );
    for r in rows {
        let _ = writeln!(
            d,
            "| {} | {} | {} | {} | {} | {} | {} | {} ({} + {}) | {} + {} |",
            s(r, "workers"),
            int(s(r, "sources")),
            secs(f(r, "seconds")),
            num(f(r, "sources_per_second"), 1),
            secs(f(r, "posting_seconds")),
            secs(f(r, "drain_seconds")),
            num(f(r, "drain_sources_per_second"), 1),
            num(f(r, "calls_per_source"), 2),
            num(f(r, "process_calls_per_source"), 2),
            num(f(r, "extract_calls_per_source"), 2),
            num(f(r, "prompt_tokens_per_source"), 0),
            num(f(r, "completion_tokens_per_source"), 0),
        );
    }
    d.push_str(
        "
How to read: Sources/s is the end-to-end rate from the first post; drain Sources/s is
the workers' alone. The offline model is CPU-bound (about one job per core) and every
write to the SQLite graph takes the file's write lock, so more processes than cores only
compete; with a hosted model the jobs wait on the network and more processes pay off.
",
    );
}

pub fn decay(d: &mut String, rows: &[Row]) {
    d.push_str(
        "
## Maintenance: `decay` on the embedded store

```sh
./target/release/cosmo-bench decay --nodes 100000
```

N semantic nodes over 1,000 users (a third each candidate/active/core), seeded into a
fresh SQLite file by a child process, then one `decay` run 30 days later (every node
changes). The peak resident memory printed is the decay process's alone (Linux
`VmHWM`); seeding, which builds the search indexes of a million rows, happens in the
child and is not counted.

| nodes | decay run | nodes/s | peak RSS of the run (whole process) |
|---:|---:|---:|---:|
",
    );
    for r in rows {
        let _ = writeln!(
            d,
            "| {} | {} | {} | {} MiB |",
            int(s(r, "nodes")),
            secs(f(r, "seconds")),
            num(f(r, "nodes_per_second"), 0),
            num(f(r, "peak_rss_mib"), 1),
        );
    }
    d.push_str(
        "
How to read: time should grow linearly with the nodes (nodes/s flat) and memory should
not grow at all: the job reads and writes pages of `maintenance.batch_size` (1,000)
memories, one transaction per page, deciding each memory's new lifecycle inside that
transaction (so an access during the run is not lost).
",
    );
}

pub fn promotion(d: &mut String, rows: &[Row]) {
    d.push_str(
        "
## Maintenance: `promote-storylines` and `promote-macros` on the embedded store

```sh
./target/release/cosmo-bench promotion --nodes 100000
```

N nodes over 1,000 users and N/2 processed Sources, seeded by a child process: every
Source mentions two ordinary nodes of its user and one of the user's anchors (2.5 % of
the nodes, active or core, about 20 Sources each on distinct days). Half the anchors
already have two Storylines covering all their Sources (Macro candidates), the other
half none (Storyline candidates). Then one `promote-storylines` run and one
`promote-macros` run, in one process; the peak RSS (Linux `VmHWM`, reset before each
run) is the whole process's during that run.

| nodes | job | candidates promoted | run | peak RSS | RSS before the run |
|---:|---|---:|---:|---:|---:|
",
    );
    for r in rows {
        let _ = writeln!(
            d,
            "| {} | `{}` | {} | {} | {} MiB | {} MiB |",
            int(s(r, "nodes")),
            s(r, "job"),
            s(r, "changed"),
            secs(f(r, "seconds")),
            num(f(r, "peak_rss_mib"), 1),
            num(f(r, "rss_before_run_mib"), 1),
        );
    }
    d.push_str(
        "
How to read: a run promotes at most `maintenance.storyline_limit` (100) or `macro_limit`
(50) anchors, so what grows with the graph is finding the candidates (a scan of the
active anchors' mentions, or of the Storylines); the rest waits for the next run.
",
    );
}

pub fn explore(d: &mut String, rows: &[Row]) {
    d.push_str(
        "
## Retrieval: `explore` on the embedded store

```sh
./target/release/cosmo-bench explore --sources 10000 --queries 100
```

N processed Sources of one user (short summaries built from a fixed vocabulary of 20
topics and 12 people, so every query word matches thousands of Sources; offline
embeddings, 384-d), then the timed `explore` calls at granularity 1, limit 10, each a
question such as \"What did Priya Patel say about the pricing decision?\" (after 5
untimed ones). In-process (no HTTP).

| Sources | queries | p50 | p95 | max |
|---:|---:|---:|---:|---:|
",
    );
    for r in rows {
        let _ = writeln!(
            d,
            "| {} | {} | {} | {} | {} |",
            int(s(r, "sources")),
            s(r, "queries"),
            ms(f(r, "p50_ms")),
            ms(f(r, "p95_ms")),
            ms(f(r, "max_ms")),
        );
    }
    d.push_str(
        "
How to read: latency grows linearly with the user's Sources. The vector signal is an
exact scan of the user's embeddings (most of it handing rows from SQLite's worker thread
to the async side), and the full-text signal scores every Source that shares a word with
the query (BM25 over an OR of the query's words). Before the full-text match was
materialised ahead of the join with the user's documents, 10,000 Sources took 600 ms. An
approximate vector index for the embedded store is the next step for users with 10⁵
Sources; Neo4j serves the same queries from its own indexes.
",
    );
}

pub fn pickup(d: &mut String, rows: &[Row]) {
    d.push_str(
        "
## Queue pickup latency between processes

```sh
./target/release/cosmo-bench pickup --jobs 200 --queue sqlite   # or --queue postgres
```

A `workers` process (`--jobs process-source`, default settings) waits idle on the queue;
the bench process enqueues one `process-source` job at a time, for a tiny Source it wrote
to the graph. The latency runs from the bench's clock just before `enqueue` to the
Source's `processing_started_at`, the job's first write, stamped by the worker's clock
(same machine, microseconds): the insert and commit, the wake-up, fetching and locking,
and the handler's first read. The next job is enqueued once the Source is processed,
after a pause spread over 50–550 ms so that enqueues fall at every phase of the worker's
poll timer; 3 untimed jobs come first.

| queue | jobs | p50 | p95 | p99 | max | mean | poll interval |
|---|---:|---:|---:|---:|---:|---:|---:|
",
    );
    for r in rows {
        let _ = writeln!(
            d,
            "| {} | {} | {} | {} | {} | {} | {} | {} ms |",
            s(r, "queue"),
            s(r, "jobs"),
            ms(f(r, "p50_ms")),
            ms(f(r, "p95_ms")),
            ms(f(r, "p99_ms")),
            ms(f(r, "max_ms")),
            ms(f(r, "mean_ms")),
            int(s(r, "poll_interval_ms")),
        );
    }
    d.push_str(
        "
How to read: on PostgreSQL the worker LISTENs and is woken by the insert's NOTIFY, so
pickup should take milliseconds, not the poll interval (its fallback is a poll every
`max(queue.poll_interval_ms, 500)` ms); SQLite has no notifications across processes, so
an idle worker finds a job at its next poll, on average half of `queue.poll_interval_ms`
later (see [docs/queue.md](docs/queue.md#pickup-listennotify-on-postgresql-polling-on-sqlite)).
",
    );
}
