//! What only the SQLite store can show: erased text is in no column of any table (FTS5
//! shadow tables included), no full-text term, and no byte of the database file.

use cosmo_shared::graph::sqlite::SqliteGraph;
use cosmo_shared::graph::{ErasureStore, GraphStore};
use cosmo_tests::traces;

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
