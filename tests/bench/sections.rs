//! One section of `BENCHMARKS.md` per benchmark: the command that runs it alone, its
//! method, a table of its result lines and a line on how to read it.

use std::fmt::Write as _;

use crate::report::Row;
use crate::text::{f, int, ms, num, s, secs};

/// The graph store a row was measured on (rows from before it was named: SQLite).
fn graph(r: &Row) -> &str {
    r.get("graph").map_or("sqlite", String::as_str)
}

pub fn ingest(d: &mut String, rows: &[Row]) {
    d.push_str(
        "
## Ingest: sustained `POST /api/sources`

```sh
./target/release/cosmo-bench ingest --seconds 30 --concurrency 16 --queue sqlite   # or --queue postgres [--store neo4j]
```

`ingest-api` runs in its own process on loopback, without workers (only ingestion is
measured), on fresh stores: **sqlite** is the embedded default (queue, directory and graph
in one SQLite file), **postgres** the PostgreSQL queue and directory with the SQLite
graph, or with the graph on the Neo4j server at `NEO4J_URI` (`--store neo4j`: the
deployment's pair; users of the run's own, deleted after it). The bench process is the
load generator: C clients (reqwest, keep-alive) post back
to back, 2 s of warm-up and then the measured seconds; every body is a distinct Source (a
meeting transcript, an email, a conversation or a note, 0.5–1.5 KB, over 100 users of one
tenant). Accepted/s counts 202 answers; latencies are of those.

**Ceiling**: right after, on fresh stores of the same kind and with the server stopped,
the same drivers at the same concurrency for the same time make directly, through the same
`cosmo_shared` types, the store calls the endpoint makes for a new Source: the API key's
lookup, the owner's lookup among the caller's tenant's users, the idempotency check
(`graph.source`), claiming the users, writing the Source, enqueueing its `process-source`
job.

| queue | graph | clients | API accepted/s | API p50 | API p99 | API max | ceiling ops/s | ceiling p50 | ceiling p99 | ceiling max | API / ceiling |
|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
",
    );
    for r in rows {
        let _ = writeln!(
            d,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.2} |",
            s(r, "queue"),
            graph(r),
            s(r, "concurrency"),
            num(f(r, "api_per_second"), 0),
            ms(f(r, "api_p50_ms")),
            ms(f(r, "api_p99_ms")),
            ms(f(r, "api_max_ms")),
            num(f(r, "ceiling_per_second"), 0),
            ms(f(r, "ceiling_p50_ms")),
            ms(f(r, "ceiling_p99_ms")),
            ms(f(r, "ceiling_max_ms")),
            f(r, "api_over_ceiling"),
        );
    }
    let bare: Vec<&Row> = rows
        .iter()
        .filter(|r| r.contains_key("bare_write_per_second"))
        .collect();
    if !bare.is_empty() {
        d.push_str(
            "
On Neo4j the run also times the **bare write** under both: the same clients, each call
one `CREATE` through neo4rs of a node holding a posted Source's body, nothing else.

| queue | graph | clients | bare writes/s | p50 | p99 |
|---|---|---:|---:|---:|---:|
",
        );
        for r in bare {
            let _ = writeln!(
                d,
                "| {} | {} | {} | {} | {} | {} |",
                s(r, "queue"),
                graph(r),
                s(r, "concurrency"),
                num(f(r, "bare_write_per_second"), 0),
                ms(f(r, "bare_write_p50_ms")),
                ms(f(r, "bare_write_p99_ms")),
            );
        }
    }
    d.push_str(
        "
How to read: API / ceiling is the share of the stores' own capacity that the HTTP API
delivers at that concurrency; the rest goes to HTTP, JSON, validation, middleware, and the
load generator sharing the cores with the server (the ceiling run has no server process).
With one client, p50 is a request's latency on an idle server. Max is the slowest
accepted request (an API request whose SQLite write waits longer than
`server.lock_wait_ms`, 1.5 s, for the lock answers 503 instead; the ceiling waits 30 s).
",
    );
}

pub fn pipeline(d: &mut String, rows: &[Row]) {
    d.push_str(
        "
## Pipeline: from post to extracted, by worker processes

```sh
./target/release/cosmo-bench pipeline --sources 1000 --workers 1,2,4   # --store neo4j: the graph on NEO4J_URI
```

For each number K of worker processes: fresh stores (PostgreSQL queue and directory; the
graph a SQLite file, or on the Neo4j server at `NEO4J_URI` under users of the run's own)
and `ingest-api`; N Sources posted over HTTP (8 at a time; the same mix as
ingest, over 20 users); then K `workers` processes started (default settings: every job
kind, 4 jobs of each kind at once per process, the offline model); the graph polled every
100 ms until every Source is `extracted` (processed, and the owner's extraction written).
Model calls and tokens per Source come from the usage ledger (`GET /api/admin/usage`);
the offline model estimates tokens at 4 characters each.

| graph | worker processes | Sources | post → all extracted | Sources/s | posting | drain (workers started → all extracted) | drain Sources/s | model calls / Source (process + extract) | tokens / Source (prompt + completion) |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|
",
    );
    for r in rows {
        let _ = writeln!(
            d,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} ({} + {}) | {} + {} |",
            graph(r),
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

pub fn slow_model(d: &mut String, rows: &[Row]) {
    d.push_str(
        "
## Pipeline against a slow hosted model: sizing a fleet

```sh
./target/release/cosmo-bench slow-model --sources 100 --delay-ms 2000 --workers 1,2 --concurrency 4,16
```

The pipeline benchmark above with the chat tasks (processing, extraction, the
note-taking agent) on a model server that answers each chat completion after a fixed
delay: an in-process server of the bench speaking the OpenAI protocol on loopback, with
small valid answers (the agent's makes no tool call); embeddings stay on the offline
embedder. For each number of `workers` processes and each per-process concurrency
(`jobs.process_source.concurrency` and `jobs.extract_entities.concurrency`): fresh
stores, N Sources posted, the workers started, drained until every Source is extracted.
**Ceiling**: the jobs of one kind make their chat calls one after the other (counted at
the model server), and a process runs `concurrency` of them at once, so K processes
drain at most `K × concurrency / (chat calls per Source × delay)` Sources per second for
each kind; the ceiling is the lower of the two kinds' (the *bottleneck kind*).

| worker processes | concurrency | Sources | model delay | drain | drain Sources/s | chat calls / Source (process + extract) | ceiling Sources/s | share of ceiling | bottleneck kind |
|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|
",
    );
    for r in rows {
        let _ = writeln!(
            d,
            "| {} | {} | {} | {} ms | {} | {} | {} + {} | {} | {} | `{}` |",
            s(r, "workers"),
            s(r, "concurrency"),
            int(s(r, "sources")),
            int(s(r, "delay_ms")),
            secs(f(r, "drain_seconds")),
            num(f(r, "drain_sources_per_second"), 2),
            num(f(r, "process_calls_per_source"), 2),
            num(f(r, "extract_calls_per_source"), 2),
            num(f(r, "ceiling_sources_per_second"), 2),
            num(f(r, "share_of_ceiling"), 2),
            s(r, "bottleneck_kind"),
        );
    }
    d.push_str(
        "
How to read: with a hosted model the workers wait on the network, not the CPU, so the
rate grows with processes × concurrency until something else binds. A share near 1 means
the model's latency is the bottleneck and more concurrency (cheaper than processes:
one process holds many waiting jobs) buys throughput, up to the provider's rate limit;
a share well below 1 names another bottleneck (the graph's write lock, the queue, the
CPU). To size a fleet for a model of latency L and a target of R Sources/s: processes
× concurrency ≥ R × L × calls per Source of the bottleneck kind.
",
    );
}

pub fn decay(d: &mut String, rows: &[Row]) {
    let on_neo4j = |r: &&Row| r.get("store").map(String::as_str) == Some("neo4j");
    let (neo4j, embedded): (Vec<&Row>, Vec<&Row>) = rows.iter().partition(on_neo4j);
    d.push_str(
        "
## Maintenance: `decay` on the embedded store

```sh
./target/release/cosmo-bench decay --nodes 100000
```

N semantic nodes over 1,000 users (a third each candidate/active/core), seeded into a
fresh SQLite file by a child process, then one `decay` run 30 days later (every node
changes). **Ceiling**: on a copy of the same file, in the same run, one `UPDATE`
statement in one transaction does decay's arithmetic for every node and writes the
columns decay changes here (salience, `last_decayed_at`, `updated_at`), with no pages
and no state changes or events to look for. *Ratio* is the job's time over the
ceiling's. Peak RSS is the decay process's (Linux `VmHWM`; seeding, which builds the
search indexes, happens in the child and is not counted); *peak heap* is its anonymous
memory (`RssAnon`, sampled every 5 ms), which leaves out the database file's pages
SQLite reads through its memory map.

| nodes | decay run | nodes/s | ceiling (one statement) | ratio | peak heap of the run | peak RSS (whole process) |
|---:|---:|---:|---:|---:|---:|---:|
",
    );
    for r in embedded {
        let _ = writeln!(
            d,
            "| {} | {} | {} | {} | {} | {} MiB | {} MiB |",
            int(s(r, "nodes")),
            secs(f(r, "seconds")),
            num(f(r, "nodes_per_second"), 0),
            secs(f(r, "ceiling_seconds")),
            num(f(r, "ratio"), 2),
            num(f(r, "peak_anon_mib"), 1),
            num(f(r, "peak_rss_mib"), 1),
        );
    }
    d.push_str(
        "
How to read: time should grow linearly with the nodes (nodes/s flat) and the job's own
memory should not grow at all. The job walks each kind of memory in pages of
`maintenance.batch_size` (1,000) in key order; a page is one store call and one write
transaction (so an access or a pin committed meanwhile is seen or waits, never lost):
the page's bounds, the memories it archives (for their events), and one `UPDATE` whose
SQL does `lifecycle::decay`'s arithmetic (a property test holds it to the pure
function, value for value). The ratio is what paging, giving the write lock back between
pages and looking for state changes cost over the ceiling. The whole-process RSS also
counts the database pages read through the memory map (`mmap_size`, up to 256
MiB), which grow with the file up to that cap; the heap column does not.
",
    );
    decay_neo4j(d, &neo4j);
}

/// The same measurement on the Neo4j server at `NEO4J_URI` (rows only when it was set).
fn decay_neo4j(d: &mut String, rows: &[&Row]) {
    d.push_str(
        "
## Maintenance: `decay` on Neo4j

```sh
NEO4J_URI=bolt://… NEO4J_USER=neo4j NEO4J_PASSWORD=… \\
  ./target/release/cosmo-bench decay --store neo4j --nodes 100000
```

The same N nodes on the Neo4j server, under this run's own keys and users (deleted
after it), then one `decay` job run 30 days after their creation, through the store's
pages: per page, its element ids in key order, then one statement that write-locks each
memory, does `lifecycle::decay`'s arithmetic in Cypher and writes what changed
(`cypher/lifecycle/decay_nodes.cypher`). **Ceiling**: 30 days later, on the same nodes,
the same arithmetic in one statement per 50,000 nodes (as `CALL { … } IN TRANSACTIONS
OF 50000 ROWS` would), with no locks, no state changes and no events to look for. The
job walks every memory the database holds (*examined*).
",
    );
    if rows.is_empty() {
        d.push_str(
            "
Not measured in this run: `NEO4J_URI` was not set (this machine has no Neo4j server).
`cosmo-bench all` adds the 10⁴, 10⁵ and 10⁶ runs on Neo4j when it is set.
",
        );
        return;
    }
    d.push_str(
        "
| nodes | examined | decay run | nodes/s | ceiling (a statement per 50,000) | ratio | peak heap of the run |
|---:|---:|---:|---:|---:|---:|---:|
",
    );
    for r in rows {
        let _ = writeln!(
            d,
            "| {} | {} | {} | {} | {} | {} | {} MiB |",
            int(s(r, "nodes")),
            int(s(r, "examined")),
            secs(f(r, "seconds")),
            num(f(r, "nodes_per_second"), 0),
            secs(f(r, "ceiling_seconds")),
            num(f(r, "ratio"), 2),
            num(f(r, "peak_anon_mib"), 1),
        );
    }
}

pub fn promotion(d: &mut String, rows: &[Row]) {
    d.push_str(
        "
## Maintenance: `promote-storylines` and `promote-macros`

```sh
./target/release/cosmo-bench promotion --nodes 100000   # --store neo4j: on NEO4J_URI
```

N nodes over 1,000 users and N/2 processed Sources, seeded by a child process: every
Source mentions two ordinary nodes of its user and one of the user's anchors (2.5 % of
the nodes, active or core, about 20 Sources each on distinct days). Half the anchors
already have two Storylines covering all their Sources (Macro candidates), the other
half none (Storyline candidates). Then one `promote-storylines` run and one
`promote-macros` run, in one process; the peak RSS (Linux `VmHWM`, reset before each
run) is the whole process's during that run, the database pages SQLite reads through
its memory map (up to 256 MiB) included. With `--store neo4j` the same graph is seeded
on the Neo4j server under keys and users of the run's own (deleted after it; the
existing Storylines created through the store), and the jobs run against it.

| graph | nodes | job | candidates promoted | run | peak RSS | RSS before the run |
|---|---:|---|---:|---:|---:|---:|
",
    );
    for r in rows {
        let _ = writeln!(
            d,
            "| {} | {} | `{}` | {} | {} | {} MiB | {} MiB |",
            graph(r),
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
    let on_neo4j = |r: &&Row| r.get("store").map(String::as_str) == Some("neo4j");
    let (neo4j, embedded): (Vec<&Row>, Vec<&Row>) = rows.iter().partition(on_neo4j);
    d.push_str(
        "
## Retrieval: `explore` on the embedded store

```sh
./target/release/cosmo-bench explore --sources 100000 --queries 100   # --turns 30: long Sources; --users 100: spread over users
```

N processed Sources (short summaries built from a fixed vocabulary of 20 topics and 12
people, so every query word matches thousands of Sources; offline embeddings, 384-d,
unless the row says all-MiniLM-L6-v2: `--embeddings local`),
of one user or spread evenly over U users in one file; then `explore` calls as the
first user at granularity 1, limit 10, each a question such as \"What did Priya Patel
say about the pricing decision?\": the first (which loads that user's indexes), 4
untimed, the timed ones from one client, then the same questions again from 8
concurrent clients. In-process (no HTTP). A short Source is one content passage; with
`--turns 30` each Source is a chat of 30 turns after its summary (about 3,500
characters, split into passages and embedded as `process-source` does). *Recall@50*
is the share of the exact vector top 50 (every stored vector read and scored) that the
vector signal returns; *index* is the memory the first question added.

| Sources | users | passages per Source | embeddings | first question | p50 | p95 | p99 | 8 clients p50 | p95 | p99 | vector signal alone (p50) | full-text signal alone (p50) | vector recall@50 vs exact | index | peak memory |
|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
",
    );
    for r in embedded {
        let _ = writeln!(
            d,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} MiB | {} MiB |",
            int(s(r, "sources")),
            r.get("users").map_or("1", String::as_str),
            r.get("passages_per_source").map_or("1", String::as_str),
            match r.get("embeddings").map(String::as_str) {
                Some("local") => "all-MiniLM-L6-v2",
                _ => "offline",
            },
            ms(f(r, "first_ms")),
            ms(f(r, "p50_ms")),
            ms(f(r, "p95_ms")),
            ms(f(r, "p99_ms")),
            ms(f(r, "clients_p50_ms")),
            ms(f(r, "clients_p95_ms")),
            ms(f(r, "clients_p99_ms")),
            ms(f(r, "source_vector_p50_ms")),
            ms(f(r, "source_text_p50_ms")),
            num(f(r, "vector_recall_at_50"), 3),
            num(f(r, "index_mib"), 0),
            num(f(r, "peak_mib"), 0),
        );
    }
    d.push_str(EXPLORE_READING);
    explore_neo4j(d, &neo4j);
}

/// The same measurement on the Neo4j server at `NEO4J_URI` (rows only when it was set).
fn explore_neo4j(d: &mut String, rows: &[&Row]) {
    d.push_str(
        "
## Retrieval: `explore` on Neo4j

```sh
NEO4J_URI=bolt://… NEO4J_USER=neo4j NEO4J_PASSWORD=… \\
  ./target/release/cosmo-bench explore --store neo4j --sources 100000 --queries 100
```

The same Sources and questions on the Neo4j server (seeded under this run's own user
ids, deleted after it; the queue and directory stay in a SQLite file). A user with more
than `graph.neo4j.exact_search_max` (20,000) Sources has Source search answered from a
top-k of the shared vector and full-text indexes when that provably holds the exact
answer, else by the exact scan of their own Sources; *from the indexes* is the share of
the timed Source searches answered that way. *Recall@50* compares the vector signal
with the exact scan (the same store with `exact_search_max` unbounded).
",
    );
    if rows.is_empty() {
        d.push_str(
            "
Not measured in this run: `NEO4J_URI` was not set (this machine has no Neo4j server).
`cosmo-bench all` adds the 10⁴, 10⁵ and 10⁶-over-100-users runs on Neo4j when it is set.
",
        );
        return;
    }
    d.push_str(
        "
| Sources | users | p50 | p95 | p99 | 8 clients p50 | p95 | p99 | vector signal alone (p50) | full-text signal alone (p50) | vector recall@50 vs exact | from the indexes |
|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
",
    );
    for r in rows {
        let _ = writeln!(
            d,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            int(s(r, "sources")),
            r.get("users").map_or("1", String::as_str),
            ms(f(r, "p50_ms")),
            ms(f(r, "p95_ms")),
            ms(f(r, "p99_ms")),
            ms(f(r, "clients_p50_ms")),
            ms(f(r, "clients_p95_ms")),
            ms(f(r, "clients_p99_ms")),
            ms(f(r, "source_vector_p50_ms")),
            ms(f(r, "source_text_p50_ms")),
            num(f(r, "vector_recall_at_50"), 3),
            num(f(r, "fetched_share"), 2),
        );
    }
}

/// How to read the explore table.
const EXPLORE_READING: &str = "
How to read: the first question of a user loads that user's indexes (each kind of
memory's vectors, 8 bits a dimension, and its full-text postings); every later one
reads the change log's bounds and answers from memory. The vector signal scans the
user's vector signs (a bit a dimension, every passage's too) for a pool, scores the
pool's 8-bit vectors for a shortlist, and scores that exactly from the stored rows, so
its recall against exact search is 1.0 whenever the exact top 50 is in the shortlist
(below 1,856 memories of a kind the pool is all of them); the full-text signal reads only the postings of the query's words (BM25
over the user's own memories). The signal columns time those two store calls alone
(p50); the rest of explore is the other kinds of memory, fusion, loading the results
and their access update. With 8 clients on a 2-core machine each question waits for
the others' CPU time: p50 there is about 8 / 2 times the one-client time. The Sources
spread over 100 users measure one user's 10⁴ Sources in a file of 10⁶: each user's
indexes hold only their own memories.
";

pub fn pickup(d: &mut String, rows: &[Row]) {
    d.push_str(
        "
## Queue pickup latency

```sh
./target/release/cosmo-bench pickup --jobs 200 --queue sqlite   # --in-process; or --queue postgres
```

Workers (`--jobs process-source`, default settings) wait idle on the queue, in a
`workers` process of their own or, with `--in-process`, inside the bench process as
`cosmo serve` runs them beside the API; the bench enqueues one `process-source` job at a
time, for a tiny Source it wrote to the graph. The latency runs from the bench's clock
just before `enqueue` to the Source's `processing_started_at`, the job's first write,
stamped by the worker's clock (same machine, microseconds): the insert and commit, the
wake-up, fetching and locking, and the handler's first read. The next job is enqueued
once the Source is processed, after a pause spread over 50–550 ms so that enqueues fall
at every phase of the worker's poll timer; 3 untimed jobs come first.

| queue | workers | jobs | p50 | p95 | p99 | max | mean | poll interval |
|---|---|---:|---:|---:|---:|---:|---:|---:|
",
    );
    for r in rows {
        let _ = writeln!(
            d,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} ms |",
            s(r, "queue"),
            r.get("workers").map_or("process", String::as_str),
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
an idle worker in another process finds a job at its next poll, on average half of
`queue.poll_interval_ms` later, while workers in the enqueuing process are woken by the
enqueue itself (see [docs/queue.md](docs/queue.md#pickup-listennotify-on-postgresql-polling-on-sqlite)).
",
    );
}

pub fn retrieval(d: &mut String, rows: &[Row], categories: &[Row], intents: &[Row], runs: &[Row]) {
    // The default configuration, and one signal ranking alone (`only-<signal>`, the
    // figure fusion must not fall below); other `--config` runs are for tuning.
    let find_in = |config: &str, system: &str, embeddings: &str, order: &str| {
        rows.iter().find(|r| {
            r.get("config")
                .is_none_or(|c| c == config || (config == "default" && c == "-"))
                && s(r, "system") == system
                && (system == "bm25" || s(r, "embeddings") == embeddings)
                && s(r, "order") == order
        })
    };
    let find =
        |system: &str, embeddings: &str, order: &str| find_in("default", system, embeddings, order);
    let run = runs
        .iter()
        .find(|r| s(r, "embeddings") == "offline")
        .or(runs.first());
    let per_conversation = run.map_or(f64::NAN, |r| f(r, "sessions") / f(r, "conversations"));
    let _ = write!(
        d,
        "
## Retrieval quality: `explore` against BM25 on long chats

```sh
./target/release/cosmo-bench retrieval --size full   # --embeddings local, --config FILE.toml, --keep DIR, --dump FILE
```

A generated corpus (`tests/src/conversations/`, fixed seed) shaped like long-conversation
memory benchmarks: {conversations} conversations between two friends, {sessions} dated chat sessions
(about {per} per conversation, days to weeks apart, about 2,000 characters each), {questions}
questions. Each session is casual chat (greetings with both names, small talk, reactions,
asking after earlier news) around 2–4 planted events from a library of about a hundred
templates; most events belong to recurring themes told over several sessions (a dog
adopted, then sick, then in training), so a topic word or a name rarely singles out a
session. Questions name the speaker and are worded apart from the chat (*single-hop*),
ask when something happened (*temporal*), gather two to four sessions (*multi-hop*) or a
whole theme (*open*), or ask what went on with a theme in a named month (*dated*: \"In
May 2023, what did Maya tell Leo about the dog?\"; the month singles the sessions out). Each conversation is ingested for its first speaker (both are
participants) through `process-source` and `extract-entities` with the offline model, as
a back-fill the morning after its last session, after that night's `infer-causal-links`
(the offline model's causal links); then every question is an `explore`
call (granularity 1, limit 10) as that user, and a hit is a Source of an evidence
session. **BM25** (Okapi, k1 = 1.2, b = 0.75, lower-cased alphanumeric tokens, no
stemming or stopwords) ranks the same conversation's raw session transcripts, the search
space Cosmo has. Recall@k is the share of a question's evidence sessions in the top k,
MRR the reciprocal rank of the first one within the top 10, both averaged over
questions. *Reverse order* asks the questions last to first on a fresh copy of the
store (explore records accesses, which feed later rankings); *after a week* asks again
on the forward store after every maintenance job ran at each of its scheduled slots for
seven nights (by the end of it, {archived} of the {sessions} session Sources were archived, out of
default retrieval).

| system | recall@5 | recall@10 | MRR | explore p50 | explore p95 | reverse order recall@10 | recall@10 after a week of nightly jobs |
|---|---:|---:|---:|---:|---:|---:|---:|
",
        conversations = run.map_or("?", |r| s(r, "conversations")),
        sessions = run.map_or("?".into(), |r| int(s(r, "sessions"))),
        questions = run.map_or("?".into(), |r| int(s(r, "questions"))),
        archived = run.map_or("?".into(), |r| int(s(r, "week_sources_archived"))),
        per = num(per_conversation, 0),
    );
    let recall10 = |r: Option<&Row>| r.map_or("–".to_owned(), |r| num(f(r, "recall_at_10"), 3));
    // A row of a pass without reverse order or a week of nightly jobs.
    let stateless = |d: &mut String, label: &str, r: &Row| {
        let _ = writeln!(
            d,
            "| {label} | {} | {} | {} | {} | {} | – | – |",
            num(f(r, "recall_at_5"), 3),
            num(f(r, "recall_at_10"), 3),
            num(f(r, "mrr"), 3),
            ms(f(r, "p50_ms")),
            ms(f(r, "p95_ms")),
        );
    };
    let mut systems = Vec::new();
    if let Some(r) = find("bm25", "", "any") {
        systems.push(("BM25 baseline", "bm25", ""));
        let _ = writeln!(
            d,
            "| BM25 baseline | {} | {} | {} | – | – | (no state) | (no state) |",
            num(f(r, "recall_at_5"), 3),
            num(f(r, "recall_at_10"), 3),
            num(f(r, "mrr"), 3),
        );
    }
    for (label, embeddings) in [
        ("Cosmo, default (offline embeddings)", "offline"),
        ("Cosmo, local embeddings (all-MiniLM-L6-v2)", "local"),
    ] {
        let Some(r) = find("cosmo", embeddings, "forward") else {
            let _ = writeln!(d, "| {label} | not run | | | | | | |");
            continue;
        };
        systems.push((label, "cosmo", embeddings));
        let _ = writeln!(
            d,
            "| {label} | {} | {} | {} | {} | {} | {} | {} |",
            num(f(r, "recall_at_5"), 3),
            num(f(r, "recall_at_10"), 3),
            num(f(r, "mrr"), 3),
            ms(f(r, "p50_ms")),
            ms(f(r, "p95_ms")),
            recall10(find("cosmo", embeddings, "reverse")),
            recall10(find("cosmo", embeddings, "after_week")),
        );
        if let Some(r) = find("cosmo", embeddings, "unrouted") {
            stateless(d, &format!("{label}, without intent routing"), r);
        }
    }
    for (label, signal, embeddings) in [
        ("Cosmo, full-text signal alone", "text", "offline"),
        (
            "Cosmo, vector signal alone (offline embeddings)",
            "vector",
            "offline",
        ),
        (
            "Cosmo, vector signal alone (all-MiniLM-L6-v2)",
            "vector",
            "local",
        ),
    ] {
        if let Some(r) = find_in(&format!("only-{signal}"), "cosmo", embeddings, "forward") {
            stateless(d, label, r);
        }
    }
    d.push_str("\nRecall@10 by question category (forward order; questions in brackets):\n\n");
    grouped(d, &systems, categories, "category", &CATEGORIES, false);
    let _ = write!(
        d,
        "
By what the question asks for, read from its first word (*when*, *why*, *who*; *what*:
every other wording — what, which, where, how), recall@10 and MRR, forward order;
*without routing* is the same store and questions with `retrieval.intent_routing =
false`, in the same run (routing: a named period searched again, a question asked with
*did* searched with the past forms of its irregular verbs too, and for *why* the
Sources linked by cause and effect to the best matches):

"
    );
    grouped(
        d,
        &systems,
        intents,
        "intent",
        &["when", "why", "who", "what"],
        true,
    );
    let _ = write!(
        d,
        "
How to read: with {per} sessions per conversation, ten guesses at random already find
about {chance} % of the evidence, so compare the systems with each other, not with 1.0. BM25
is the floor a memory system should clear: it has nothing but the words. A Cosmo figure
below it means the signals and the fusion lose sessions that the raw words find (the
run's `--dump FILE` writes each question with its evidence, Cosmo's top 10 with `why`,
and BM25's top 10); the reverse-order figure should equal the forward one if past
retrievals do not distort later ones, and the after-a-week figure should not drop if
maintenance keeps what it consolidates findable. The rows of one signal alone
(`--only-signal text|vector`, the other weights 0, forward order only) are what fusion
must not fall below: Cosmo's default should find at least what its best signal finds on
its own. `--config FILE.toml` (merged over the
test settings, e.g. `[retrieval]`) and `--keep DIR` (ingest once, then reuse the store)
make tuning runs quick.
",
        per = num(per_conversation, 0),
        chance = num((1000.0 / per_conversation).min(100.0), 0),
    );
}

const CATEGORIES: [&str; 5] = ["single-hop", "temporal", "multi-hop", "open", "dated"];

/// A table of recall@10 (and MRR when `mrr`) by group (`key` = each of `names`, its
/// question count from BM25's rows in the header): a row per system, forward order,
/// then Cosmo's with routing off.
fn grouped(
    d: &mut String,
    systems: &[(&str, &str, &str)],
    rows: &[Row],
    key: &str,
    names: &[&str],
    mrr: bool,
) {
    d.push_str("| system |");
    for name in names {
        let count = rows
            .iter()
            .find(|r| s(r, "system") == "bm25" && s(r, key) == *name)
            .map_or("?", |r| s(r, "questions"));
        if mrr {
            let _ = write!(d, " {name} ({count}) recall@10 | MRR |");
        } else {
            let _ = write!(d, " {name} ({count}) |");
        }
    }
    let columns = names.len() * if mrr { 2 } else { 1 };
    let _ = writeln!(d, "\n|---|{}", "---:|".repeat(columns));
    let cell =
        |row: Option<&Row>, figure: &str| row.map_or("–".to_owned(), |r| num(f(r, figure), 3));
    for &(label, system, embeddings) in systems {
        for (order, suffix) in [("forward", ""), ("unrouted", ", without routing")] {
            let of = |name: &str| {
                rows.iter().find(|r| {
                    r.get("config").is_none_or(|c| c == "default" || c == "-")
                        && s(r, "system") == system
                        && (system == "bm25" || s(r, "embeddings") == embeddings)
                        && (system == "bm25" || s(r, "order") == order)
                        && s(r, key) == name
                })
            };
            if (system == "bm25" && order == "unrouted") || of(names[0]).is_none() {
                continue;
            }
            let _ = write!(d, "| {label}{suffix} |");
            for name in names {
                let _ = write!(d, " {} |", cell(of(name), "recall_at_10"));
                if mrr {
                    let _ = write!(d, " {} |", cell(of(name), "mrr"));
                }
            }
            d.push('\n');
        }
    }
}
