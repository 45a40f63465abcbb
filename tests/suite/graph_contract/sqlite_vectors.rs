//! The SQLite store's in-memory vector index: it answers as a scan of the stored
//! vectors does (whatever the scope, the limit and the memory budget), and a write made
//! through another pool on the file (another process) is seen by the next search:
//! new, re-processed, archived, shared, erased and pruned-from-the-log memories alike.

use std::path::Path;

use cosmo_shared::domain::{
    Hit, MemoryKind, MemoryState, NewSource, Passage, ProcessedContent, SearchScope, Target,
};
use cosmo_shared::graph::ports::*;
use cosmo_shared::graph::sqlite::SqliteGraph;

use super::support::*;

const DIMS: usize = 48;

/// A deterministic pseudo-random unit-ish vector.
fn vector(seed: u64) -> Vec<f32> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(1);
    (0..DIMS)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % 2001) as f32 / 1000.0 - 1.0
        })
        .collect()
}

/// Near `v`: the same vector nudged by `seed`.
fn near(v: &[f32], seed: u64) -> Vec<f32> {
    v.iter()
        .zip(vector(seed))
        .map(|(a, b)| a + 0.05 * b)
        .collect()
}

async fn open(path: &Path, budget: Option<usize>) -> SqliteGraph {
    let g = SqliteGraph::open(path).await.unwrap();
    g.migrate().await.unwrap();
    match budget {
        Some(bytes) => g.with_vector_budget(bytes),
        None => g,
    }
}

/// Stores and processes `new` with its own vector and its passages' vectors.
async fn put(g: &SqliteGraph, new: &NewSource, own: Vec<f32>, passages: Vec<Vec<f32>>) -> String {
    g.create_source(new).await.unwrap();
    process(g, &new.entity_key, own, passages).await;
    new.entity_key.clone()
}

async fn process(g: &SqliteGraph, key: &str, own: Vec<f32>, passages: Vec<Vec<f32>>) {
    let p = ProcessedContent {
        content: "content".into(),
        summary: "A summary.".into(),
        keywords: Vec::new(),
        tags: Vec::new(),
        embedding: own,
        passages: passages
            .into_iter()
            .enumerate()
            .map(|(i, embedding)| Passage {
                text: format!("passage {i}"),
                embedding,
            })
            .collect(),
        embedded_with: EMBEDDED_WITH.into(),
    };
    assert!(g.save_processed(key, &p, t0() + days(1)).await.unwrap());
}

async fn search(g: &SqliteGraph, scope: &SearchScope, query: &[f32], limit: usize) -> Vec<Hit> {
    g.vector_search(scope, Target::Source, query, limit)
        .await
        .unwrap()
}

fn keys(hits: &[Hit]) -> Vec<&str> {
    hits.iter().map(|h| h.key.as_str()).collect()
}

/// The scopes the comparisons run in.
fn scopes() -> [SearchScope; 4] {
    [
        SearchScope::user("alice"),
        SearchScope::user("bob"),
        SearchScope {
            include_archived: true,
            ..SearchScope::user("alice")
        },
        SearchScope {
            since: Some(t0() + days(30)),
            until: Some(t0() + days(120)),
            ..SearchScope::user("alice")
        },
    ]
}

/// Asserts that each of `indexed` answers `questions` in every scope and at every
/// limit as `streamed`, the scan of every stored vector, does; how many it compared.
async fn same_answers(
    streamed: &SqliteGraph,
    indexed: &[&SqliteGraph],
    questions: &[Vec<f32>],
    what: &str,
) -> usize {
    let mut compared = 0;
    for (q, query) in questions.iter().enumerate() {
        for scope in &scopes() {
            for limit in [1, 10, 50] {
                let want = search(streamed, scope, query, limit).await;
                for (i, g) in indexed.iter().enumerate() {
                    assert_eq!(
                        search(g, scope, query, limit).await,
                        want,
                        "{what}: index {i}, question {q}, {scope:?}, limit {limit}"
                    );
                }
                compared += 1;
            }
        }
    }
    compared
}

/// Questions near a passage, near a Source's own vector, and anywhere.
fn questions(round: u64) -> Vec<Vec<f32>> {
    (0..12u64)
        .map(|q| match q % 3 {
            0 => near(&vector((q * 7 % 240) * 100 + 1), q + round),
            1 => near(&vector(q * 11 % 240), q + round),
            _ => vector(10_000 + q + round),
        })
        .collect()
}

#[tokio::test]
async fn the_index_answers_as_the_stored_vectors_do() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("graph.db");
    let streamed = open(&path, Some(0)).await;
    // Budgets: the default; room for one user's vectors but not both users' (each
    // search of the other evicts the one); room for none.
    let default = open(&path, None).await;
    let one_user = open(&path, Some(96 << 10)).await;
    let none_fits = open(&path, Some(4 << 10)).await;
    let indexed = [&default, &one_user, &none_fits];
    // 240 Sources of alice's, a third shared with bob, a tenth archived, 0–7 passages
    // each, over eight months; every twentieth repeats the vectors of the one before
    // (exact ties).
    let mut keys_in_order = Vec::new();
    for i in 0..240u64 {
        let at = t0() + days(i as i64);
        let text = format!("Source {i}.");
        let new = if i % 3 == 0 {
            team_source("alice", &["alice", "bob"], &text, at)
        } else {
            source("alice", &text, at)
        };
        let like = if i % 20 == 19 { i - 1 } else { i };
        let passages = (0..like % 8).map(|p| vector(like * 100 + p)).collect();
        let key = put(&streamed, &new, vector(like), passages).await;
        if i % 10 == 7 {
            set_lifecycle(&streamed, MemoryKind::Source, &key, "alice", |l| {
                l.state = MemoryState::Archived;
            })
            .await;
        }
        keys_in_order.push(key);
    }
    let mut compared = same_answers(&streamed, &indexed, &questions(0), "loaded").await;

    // Writes after the indexes loaded: every Source processed again with new vectors
    // (twice: the indexes' arenas compact), archived ones restored, others archived.
    for round in 1..=2u64 {
        for (i, key) in keys_in_order.iter().enumerate() {
            let i = i as u64;
            let passages = (0..(i + round) % 8)
                .map(|p| vector(round * 1_000_000 + i * 100 + p))
                .collect();
            process(&streamed, key, vector(round * 1_000_000 + i), passages).await;
        }
        for key in keys_in_order.iter().step_by(9) {
            set_lifecycle(&streamed, MemoryKind::Source, key, "alice", |l| {
                l.state = if l.state == MemoryState::Archived {
                    MemoryState::Active
                } else {
                    MemoryState::Archived
                };
            })
            .await;
        }
        compared += same_answers(
            &streamed,
            &indexed,
            &questions(round),
            &format!("round {round}"),
        )
        .await;
    }
    assert_eq!(compared, 3 * 12 * 4 * 3);
    assert!(
        default.vector_index_loads() <= 2,
        "loaded once per user, then caught up from the log: {}",
        default.vector_index_loads()
    );
}

#[tokio::test]
async fn writes_through_another_pool_are_seen_by_the_next_search() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("graph.db");
    let reader = open(&path, None).await;
    // Another process writing to the same file, and the scan of every stored vector.
    let writer = open(&path, None).await;
    let streamed = open(&path, Some(0)).await;
    let alice = SearchScope::user("alice");
    let archived = SearchScope {
        include_archived: true,
        ..SearchScope::user("alice")
    };
    let target = vector(1);
    let check = |what: &'static str| {
        let (reader, streamed, target) = (&reader, &streamed, target.clone());
        async move {
            for scope in [
                SearchScope::user("alice"),
                SearchScope {
                    include_archived: true,
                    ..SearchScope::user("alice")
                },
            ] {
                for limit in [1, 10] {
                    assert_eq!(
                        search(reader, &scope, &target, limit).await,
                        search(streamed, &scope, &target, limit).await,
                        "{what}: {scope:?}, limit {limit}"
                    );
                }
            }
        }
    };
    for i in 10..15u64 {
        let new = source("alice", &format!("Old {i}."), t0());
        put(&writer, &new, vector(i), vec![vector(i + 100)]).await;
    }
    let before = search(&reader, &alice, &target, 3).await;
    assert_eq!(before.len(), 3, "the index is loaded");
    let loads = reader.vector_index_loads();

    // A new Source whose second passage is the query.
    let new = source("alice", "New.", t0());
    let fresh = put(&writer, &new, vector(2), vec![vector(3), target.clone()]).await;
    let top = &search(&reader, &alice, &target, 3).await[0];
    assert_eq!((top.key.as_str(), top.passage), (fresh.as_str(), Some(1)));
    check("new").await;

    // Processed again: now its own vector is the query, and its passages moved away.
    process(&writer, &fresh, target.clone(), vec![vector(4)]).await;
    let top = &search(&reader, &alice, &target, 3).await[0];
    assert_eq!((top.key.as_str(), top.passage), (fresh.as_str(), None));
    check("processed again").await;

    // Archived: out of default search, still found when asked for; restored: back.
    set_lifecycle(&writer, MemoryKind::Source, &fresh, "alice", |l| {
        l.state = MemoryState::Archived;
    })
    .await;
    assert!(!keys(&search(&reader, &alice, &target, 10).await).contains(&fresh.as_str()));
    assert_eq!(search(&reader, &archived, &target, 1).await[0].key, fresh);
    check("archived").await;
    set_lifecycle(&writer, MemoryKind::Source, &fresh, "alice", |l| {
        l.state = MemoryState::Active;
    })
    .await;
    assert_eq!(search(&reader, &alice, &target, 1).await[0].key, fresh);
    check("restored").await;

    // A team Source of bob's shared with alice reaches her search; erased, it leaves it.
    let shared = team_source("bob", &["bob", "alice"], "Shared.", t0());
    let shared = put(&writer, &shared, near(&target, 9), Vec::new()).await;
    assert!(keys(&search(&reader, &alice, &target, 2).await).contains(&shared.as_str()));
    check("shared").await;
    writer.erase_source(&shared, t0() + days(2)).await.unwrap();
    assert!(!keys(&search(&reader, &alice, &target, 10).await).contains(&shared.as_str()));
    check("erased").await;

    // Facts are held like Sources: one stored by the writer is found by the reader.
    let fact = cosmo_shared::domain::NewFact {
        embedding: Some(target.clone()),
        ..super::read_support::fact("alice", "The query itself.", t0())
    };
    let stored = writer.store_fact(&fact).await.unwrap();
    let found = reader
        .vector_search(&alice, Target::Fact, &target, 1)
        .await
        .unwrap();
    assert_eq!(found[0].key, fact.fact_id, "{stored:?}");
    assert_eq!(
        reader.vector_index_loads(),
        loads + 1,
        "every change caught up from the log (one load: the facts')"
    );

    // Log entries the index never read were pruned (only the newest, about another
    // Source, is left): it loads anew and misses nothing.
    let late = source("alice", "Late.", t0());
    let late = put(&writer, &late, near(&target, 11), Vec::new()).await;
    let other = &before[2].key;
    set_lifecycle(&writer, MemoryKind::Source, other, "alice", |l| {
        l.state = MemoryState::Archived;
    })
    .await;
    sqlx::query(
        "DELETE FROM search_vector_log WHERE seq < (SELECT max(seq) FROM search_vector_log)",
    )
    .execute(writer.pool())
    .await
    .unwrap();
    let found = search(&reader, &alice, &target, 10).await;
    assert!(keys(&found).contains(&late.as_str()));
    assert!(!keys(&found).contains(&other.as_str()));
    check("pruned").await;

    // The whole user erased (their log entries go too), then the id used again: the
    // reader, still holding dozens of the old vectors closer to the query than the new
    // one, finds the new one and none of the old.
    for i in 0..30 {
        let new = source("alice", &format!("Close {i}."), t0());
        put(&writer, &new, near(&target, 200 + i), Vec::new()).await;
    }
    // Five old, the fresh one, the late one and these thirty, less the archived one.
    assert_eq!(search(&reader, &alice, &target, 40).await.len(), 36);
    // (Bob writes too, so the log keeps entries the reader has not read.)
    put(
        &writer,
        &source("bob", "Bob's.", t0()),
        vector(5),
        Vec::new(),
    )
    .await;
    writer.erase_user("alice", t0() + days(3)).await.unwrap();
    let again = source("alice", "Again.", t0() + days(4));
    let again = put(&writer, &again, vector(77), Vec::new()).await;
    assert_eq!(
        keys(&search(&reader, &alice, &target, 1).await),
        [again.as_str()]
    );
    assert_eq!(
        keys(&search(&reader, &archived, &target, 10).await),
        [again.as_str()]
    );
    check("erased user").await;
}
