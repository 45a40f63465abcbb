//! The SQLite store's in-memory full-text index: a process that loaded a user's text
//! answers, after any write made through another pool on the file (another process), as
//! a process that loads it afresh does; what was archived leaves default search, what
//! was erased is found by neither path (nor by FTS5, the path beyond the budget), and a
//! write committed by a process that died at once is seen all the same.

use std::path::Path;

use cosmo_shared::domain::{Hit, MemoryKind, MemoryState, ProcessedContent, SearchScope, Target};
use cosmo_shared::graph::ports::*;
use cosmo_shared::graph::sqlite::SqliteGraph;

use super::support::*;

async fn open(path: &Path, budget: Option<usize>) -> SqliteGraph {
    let g = SqliteGraph::open(path).await.unwrap();
    g.migrate().await.unwrap();
    match budget {
        Some(bytes) => g.with_text_budget(bytes),
        None => g,
    }
}

/// Processes `key` with this summary and content.
async fn process(g: &SqliteGraph, key: &str, summary: &str, content: &str) {
    let p = ProcessedContent {
        content: content.into(),
        summary: summary.into(),
        keywords: Vec::new(),
        tags: Vec::new(),
        embedding: vec![0.5; 8],
        passages: Vec::new(),
        embedded_with: EMBEDDED_WITH.into(),
    };
    assert!(g.save_processed(key, &p, t0() + days(1)).await.unwrap());
}

async fn put(
    g: &SqliteGraph,
    new: &cosmo_shared::domain::NewSource,
    summary: &str,
    content: &str,
) -> String {
    g.create_source(new).await.unwrap();
    process(g, &new.entity_key, summary, content).await;
    new.entity_key.clone()
}

async fn search(g: &SqliteGraph, scope: &SearchScope, words: &[&str], limit: usize) -> Vec<Hit> {
    let terms: Vec<String> = words.iter().map(|w| w.to_string()).collect();
    g.text_search(scope, Target::Source, &terms, limit)
        .await
        .unwrap()
}

fn keys(hits: &[Hit]) -> Vec<&str> {
    hits.iter().map(|h| h.key.as_str()).collect()
}

const TOPICS: [&str; 6] = [
    "pricing", "hiring", "roadmap", "budget", "launch", "offsite",
];
const PEOPLE: [&str; 4] = ["priya", "marco", "lena", "tomas"];

/// Questions over the corpus' words, one of them a word no Source holds.
fn questions() -> Vec<Vec<&'static str>> {
    vec![
        vec!["pricing", "priya"],
        vec!["roadmap", "launch", "lena"],
        vec!["budget"],
        vec!["hiring", "marco", "offsite", "zanzibar"],
        vec!["zanzibar"],
    ]
}

/// Asserts that `reader` answers every question in every scope as a store opened
/// afresh on the file does.
async fn same_as_fresh(path: &Path, reader: &SqliteGraph, what: &str) {
    let fresh = open(path, None).await;
    for q in questions() {
        for scope in [
            SearchScope::user("alice"),
            SearchScope::user("bob"),
            SearchScope {
                include_archived: true,
                ..SearchScope::user("alice")
            },
            SearchScope {
                since: Some(t0() + days(10)),
                until: Some(t0() + days(40)),
                ..SearchScope::user("alice")
            },
        ] {
            for limit in [1, 5, 50] {
                assert_eq!(
                    search(reader, &scope, &q, limit).await,
                    search(&fresh, &scope, &q, limit).await,
                    "{what}: {q:?}, {scope:?}, limit {limit}"
                );
            }
        }
    }
}

#[tokio::test]
async fn the_index_answers_as_a_fresh_load_after_every_kind_of_write() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("graph.db");
    let reader = open(&path, None).await;
    let writer = open(&path, None).await;
    let fts = open(&path, Some(0)).await;
    let alice = SearchScope::user("alice");
    let archived = SearchScope {
        include_archived: true,
        ..SearchScope::user("alice")
    };
    let mut all = Vec::new();
    for i in 0..60usize {
        let text = format!(
            "{} talked with {} about the {}.",
            PEOPLE[i % 4],
            PEOPLE[(i + 1) % 4],
            TOPICS[i % 6]
        );
        let at = t0() + days(i as i64);
        let new = if i % 5 == 0 {
            team_source("alice", &["alice", "bob"], &text, at)
        } else {
            source("alice", &text, at)
        };
        let content = format!(
            "{text} Then {} came up. {}",
            TOPICS[(i * 7) % 6],
            "ok ".repeat(i % 9)
        );
        all.push(put(&writer, &new, &text, &content).await);
    }
    assert!(!search(&reader, &alice, &["pricing"], 10).await.is_empty());
    same_as_fresh(&path, &reader, "loaded").await;
    let loads = reader.text_index_loads();

    // Processed again with other words: found by the new ones only.
    process(&writer, &all[3], "A zanzibar trip.", "Nothing else.").await;
    assert_eq!(
        keys(&search(&reader, &alice, &["zanzibar"], 5).await),
        [all[3].as_str()]
    );
    assert_eq!(
        keys(&search(&fts, &alice, &["zanzibar"], 5).await),
        [all[3].as_str()]
    );
    assert!(!keys(&search(&reader, &alice, &["budget"], 50).await).contains(&all[3].as_str()));
    same_as_fresh(&path, &reader, "processed again").await;

    // Archived: out of default search, found when asked for; restored: back.
    set_lifecycle(&writer, MemoryKind::Source, &all[3], "alice", |l| {
        l.state = MemoryState::Archived;
    })
    .await;
    assert!(search(&reader, &alice, &["zanzibar"], 5).await.is_empty());
    assert_eq!(
        keys(&search(&reader, &archived, &["zanzibar"], 5).await),
        [all[3].as_str()]
    );
    same_as_fresh(&path, &reader, "archived").await;
    set_lifecycle(&writer, MemoryKind::Source, &all[3], "alice", |l| {
        l.state = MemoryState::Active;
    })
    .await;
    same_as_fresh(&path, &reader, "restored").await;

    // Shared with alice by bob: in her search; erased: in nobody's, by either path.
    let shared = team_source("bob", &["bob", "alice"], "Bob's zanzibar notes.", t0());
    let shared = put(&writer, &shared, "Zanzibar notes.", "Zanzibar ferry times.").await;
    assert!(keys(&search(&reader, &alice, &["zanzibar"], 5).await).contains(&shared.as_str()));
    writer.erase_source(&shared, t0() + days(2)).await.unwrap();
    for g in [&reader, &fts] {
        assert!(!keys(&search(g, &alice, &["ferry"], 5).await).contains(&shared.as_str()));
        assert!(
            search(g, &SearchScope::user("bob"), &["ferry"], 5)
                .await
                .is_empty()
        );
    }
    same_as_fresh(&path, &reader, "erased").await;

    // Facts are held like Sources: one stored by the writer is found by the reader.
    let fact = super::read_support::fact("alice", "Prefers window seats on ferries.", t0());
    writer.store_fact(&fact).await.unwrap();
    let terms = vec!["window".to_string()];
    let found = reader
        .text_search(&alice, Target::Fact, &terms, 5)
        .await
        .unwrap();
    assert_eq!(keys(&found), [fact.fact_id.as_str()]);
    assert_eq!(
        reader.text_index_loads(),
        loads + 1,
        "every change caught up from the log (one load: the facts')"
    );

    // Log entries the reader never read were pruned: it loads anew and misses nothing.
    process(&writer, &all[8], "Zanzibar again.", "Zanzibar.").await;
    writer.erase_source(&all[9], t0() + days(3)).await.unwrap();
    // (Bob writes last, so the one entry left is not about alice.)
    put(&writer, &source("bob", "Bob.", t0()), "Bob.", "Bob.").await;
    sqlx::query(
        "DELETE FROM search_vector_log WHERE seq < (SELECT max(seq) FROM search_vector_log)",
    )
    .execute(writer.pool())
    .await
    .unwrap();
    assert!(keys(&search(&reader, &alice, &["zanzibar"], 5).await).contains(&all[8].as_str()));
    same_as_fresh(&path, &reader, "pruned").await;

    // The whole user erased, then the id used again: nothing of the old text is found.
    writer.erase_user("alice", t0() + days(4)).await.unwrap();
    let again = put(
        &writer,
        &source("alice", "Again.", t0()),
        "Pricing again.",
        "Pricing.",
    )
    .await;
    assert_eq!(
        keys(&search(&reader, &archived, &["pricing", "zanzibar"], 50).await),
        [again.as_str()]
    );
    same_as_fresh(&path, &reader, "erased user").await;
}

#[tokio::test]
async fn an_erasure_by_a_process_that_died_at_once_is_never_found() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("graph.db");
    let reader = open(&path, None).await;
    let alice = SearchScope::user("alice");
    let key = {
        let writer = open(&path, None).await;
        let new = source("alice", "The zanzibar plan.", t0());
        put(&writer, &new, "The zanzibar plan.", "Ferry at nine.").await
    };
    assert_eq!(
        keys(&search(&reader, &alice, &["zanzibar"], 5).await),
        [key.as_str()]
    );
    // Another process erases it and is gone before anyone searches: its pool closed
    // right after the commit, nothing of it left to tell the reader.
    let writer = open(&path, None).await;
    writer.erase_source(&key, t0() + days(1)).await.unwrap();
    writer.pool().close().await;
    drop(writer);
    assert!(search(&reader, &alice, &["zanzibar"], 5).await.is_empty());
    assert!(search(&reader, &alice, &["ferry"], 5).await.is_empty());
    // A write rolled back (a process killed mid-transaction) is not seen either.
    let writer = open(&path, None).await;
    let kept = put(
        &writer,
        &source("alice", "Kept.", t0()),
        "Kept notes.",
        "Kept.",
    )
    .await;
    let mut tx = writer.pool().begin().await.unwrap();
    sqlx::query("UPDATE sources SET summary = 'Zanzibar rollback.' WHERE entity_key = $1")
        .bind(&kept)
        .execute(&mut *tx)
        .await
        .unwrap();
    drop(tx);
    assert!(search(&reader, &alice, &["zanzibar"], 5).await.is_empty());
    assert_eq!(
        keys(&search(&reader, &alice, &["kept"], 5).await),
        [kept.as_str()]
    );
}
