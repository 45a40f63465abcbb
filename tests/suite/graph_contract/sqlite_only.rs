//! What only the SQLite store can show: erased text is in no column of any table (FTS5
//! shadow tables included), no full-text term, and no byte of the database file.

use cosmo_shared::graph::ports::*;
use cosmo_shared::graph::sqlite::SqliteGraph;
use cosmo_tests::traces;

use super::cases::decay::{
    all_of, decay_matches_the_pure_function, due_memory_created, random_lifecycles,
};
use super::cases::{MARKER, world};
use super::support::{days, t0};

async fn assert_gone(graph: &SqliteGraph, path: &std::path::Path, what: &str) {
    assert_eq!(
        traces::columns_holding(graph.pool(), MARKER).await,
        [],
        "{what}: columns"
    );
    assert_eq!(
        traces::fts_terms_starting(graph.pool(), MARKER).await,
        [],
        "{what}: index terms"
    );
    traces::checkpoint(graph.pool()).await;
    assert_eq!(
        traces::files_holding(path, MARKER),
        Vec::<String>::new(),
        "{what}: file bytes"
    );
}

#[tokio::test]
async fn erased_text_is_in_no_table_index_or_page() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("graph.db");
    let graph = SqliteGraph::open(&path).await.unwrap();
    graph.migrate().await.unwrap();
    let w = world(&graph, "alice").await;
    world(&graph, "bob").await;

    // The premise: before erasure the word is in rows, index terms and pages.
    let columns = traces::columns_holding(graph.pool(), MARKER).await;
    for table in [
        "sources",
        "notes",
        "facts",
        "storylines",
        "macros",
        "relationships",
        "nodes",
    ] {
        assert!(
            columns.iter().any(|(t, _)| t == table),
            "{table} holds it: {columns:?}"
        );
    }
    assert!(
        !traces::fts_terms_starting(graph.pool(), MARKER)
            .await
            .is_empty()
    );
    traces::checkpoint(graph.pool()).await;
    assert!(!traces::files_holding(&path, MARKER).is_empty());

    graph
        .erase_source(&w.s[0], t0() + days(9))
        .await
        .unwrap()
        .unwrap();
    let left = traces::columns_holding(graph.pool(), MARKER).await;
    assert!(!left.is_empty(), "bob's copy is untouched: {left:?}");
    graph.erase_user("bob", t0() + days(9)).await.unwrap();
    assert_gone(&graph, &path, "after erasing alice's Source and bob").await;
}

/// The set-based decay statements are held to the pure function they replace, value for
/// value (the contract case does it for every store, on fewer memories): 1,500 nodes with
/// random lifecycles, created over 200 days, written by one `apply_lifecycle` (itself
/// several bulk statements), decayed at six times in pages of 97
/// ([`decay_matches_the_pure_function`]).
#[tokio::test]
async fn set_based_decay_equals_the_pure_function() {
    use cosmo_shared::domain::MemoryKind;

    const N: i64 = 1500;
    let dir = tempfile::tempdir().unwrap();
    let graph = SqliteGraph::open(&dir.path().join("graph.db"))
        .await
        .unwrap();
    graph.migrate().await.unwrap();
    // node-00000 is created when it is due exactly at one of the decay times.
    sqlx::query(
        "WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < $1 - 1)
         INSERT INTO nodes (entity_key, user_id, kind, identity_name, name, created_by, salience, state,
            confidence, access_count, recall_frequency, last_recall_interval, decay_gradient, ttl_policy,
            created_at, updated_at)
         SELECT printf('node-%05d', i), 'user-' || (i % 7), 'concept', 'concept ' || i, 'Concept ' || i,
            'test', 0.5, 'candidate', 0.5, 0, 0, 0, 1.0, 'decay',
            CASE WHEN i = 0 THEN $3 ELSE $2 - (i * 7919 % 200) * 86400000000 - i END, $2
         FROM seq",
    )
    .bind(N)
    .bind(t0().timestamp_micros())
    .bind(due_memory_created(MemoryKind::Node).timestamp_micros())
    .execute(graph.pool())
    .await
    .unwrap();
    let seeded = all_of(&graph, MemoryKind::Node).await;
    assert_eq!(seeded.len(), N as usize);
    let random = random_lifecycles(&seeded, "node-00000", 20261127);
    graph.apply_lifecycle(&random).await.unwrap();
    for (m, c) in all_of(&graph, MemoryKind::Node).await.iter().zip(&random) {
        assert_eq!(
            m.lifecycle, c.lifecycle,
            "{}: written by the bulk write",
            m.key
        );
    }
    decay_matches_the_pure_function(&graph, MemoryKind::Node, "node-00000", 97, 0.0).await;
}
