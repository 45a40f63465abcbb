//! What only the SQLite store can show: erased text is in no column of any table (FTS5
//! shadow tables included), no full-text term, and no byte of the database file.

use cosmo_shared::graph::ports::*;
use cosmo_shared::graph::sqlite::SqliteGraph;
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

/// The set-based decay statements are held to the pure function they replace: 1,500
/// memories with random lifecycles (every state and policy, pinned or not, accessed or
/// decayed before or after the decay time; salience, confidence, recall frequency and
/// decay gradient also outside their usual ranges), decayed at five times in pages of
/// 97, with the default parameters and with others, end exactly where
/// `lifecycle::decay` says, value for value, with an event for each memory archived and
/// no other. One time is a memory's exact `ephemeral` deadline; a time a fraction of a
/// microsecond after the last changes nothing. The random lifecycles are written by one
/// `apply_lifecycle`, which itself takes several bulk statements.
#[tokio::test]
async fn set_based_decay_equals_the_pure_function() {
    use chrono::Duration;
    use cosmo_shared::domain::{Lifecycle, LifecycleChange, MemoryKind, MemoryState, TtlPolicy};
    use cosmo_shared::lifecycle::{self, LifecycleParams};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    const N: i64 = 1500;
    let dir = tempfile::tempdir().unwrap();
    let graph = SqliteGraph::open(&dir.path().join("graph.db"))
        .await
        .unwrap();
    graph.migrate().await.unwrap();
    sqlx::query(
        "WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < $1 - 1)
         INSERT INTO nodes (entity_key, user_id, kind, identity_name, name, created_by, salience, state,
            confidence, access_count, recall_frequency, last_recall_interval, decay_gradient, ttl_policy,
            created_at, updated_at)
         SELECT printf('node-%05d', i), 'user-' || (i % 7), 'concept', 'concept ' || i, 'Concept ' || i,
            'test', 0.5, 'candidate', 0.5, 0, 0, 0, 1.0, 'decay',
            $2 - (i * 7919 % 200) * 86400000000 - i, $2
         FROM seq",
    )
    .bind(N)
    .bind(t0().timestamp_micros())
    .execute(graph.pool())
    .await
    .unwrap();
    let all = || graph.lifecycle_page(MemoryKind::Node, None, 5000);
    let events = || async {
        sqlx::query_scalar::<_, i64>("SELECT count(*) FROM lifecycle_events")
            .fetch_one(graph.pool())
            .await
            .unwrap() as usize
    };
    let seeded = all().await.unwrap();
    assert_eq!(seeded.len(), N as usize);

    let mut rng = StdRng::seed_from_u64(20261127);
    let time = |rng: &mut StdRng| {
        t0() + Duration::microseconds(
            rng.random_range(-200_i64..200) * 86_400_000_000 + rng.random_range(0..86_400_000_000),
        )
    };
    let random: Vec<LifecycleChange> = seeded
        .iter()
        .map(|m| {
            let salience = match rng.random_range(0..12) {
                0 => 1.0,
                1 => 0.0,
                2 => rng.random_range(0.0..0.02),
                3 => rng.random_range(-0.2..0.0),
                4 => rng.random_range(1.0..1.5),
                _ => rng.random_range(0.0..1.0),
            };
            let mut lifecycle = Lifecycle {
                salience,
                state: [
                    MemoryState::Candidate,
                    MemoryState::Active,
                    MemoryState::Core,
                    MemoryState::Archived,
                ][rng.random_range(0..4)],
                confidence: match rng.random_range(0..10) {
                    0 => 0.8,
                    1 => rng.random_range(-0.3..1.3),
                    _ => rng.random_range(0.0..1.0),
                },
                access_count: rng.random_range(0..20),
                recall_frequency: rng.random_range(-2..20),
                last_recall_interval: rng.random_range(0.0..30.0),
                decay_gradient: match rng.random_range(0..10) {
                    0 => 0.0,
                    1 => rng.random_range(-1.0..0.0),
                    _ => rng.random_range(0.1..3.0),
                },
                last_accessed_at: rng.random_bool(0.5).then(|| time(&mut rng)),
                last_decayed_at: rng.random_bool(0.5).then(|| time(&mut rng)),
                ttl_policy: [
                    TtlPolicy::Decay,
                    TtlPolicy::Ephemeral,
                    TtlPolicy::KeepForever,
                ][rng.random_range(0..3)],
                pinned: rng.random_bool(0.1),
                created_at: m.lifecycle.created_at,
                updated_at: time(&mut rng),
            };
            if m.key == "node-00000" {
                // Created at t0: t0 + 90 days is its `ephemeral` deadline to the microsecond.
                lifecycle.ttl_policy = TtlPolicy::Ephemeral;
                lifecycle.state = MemoryState::Active;
                lifecycle.pinned = false;
                lifecycle.salience = 0.9;
                lifecycle.last_decayed_at = Some(t0() + days(90));
                lifecycle.last_accessed_at = None;
            }
            LifecycleChange {
                kind: MemoryKind::Node,
                key: m.key.clone(),
                lifecycle,
                event: None,
            }
        })
        .collect();
    graph.apply_lifecycle(&random).await.unwrap();
    let mut before = all().await.unwrap();
    for (m, c) in before.iter().zip(&random) {
        assert_eq!(
            m.lifecycle, c.lifecycle,
            "{}: written by the bulk write",
            m.key
        );
    }

    let other = LifecycleParams {
        base_rate: 0.05,
        archive_below: 0.0,
        confident_candidate: 0.6,
        ephemeral_semantic_days: 30,
        ..LifecycleParams::default()
    };
    let runs = [
        (t0(), LifecycleParams::default()),
        (t0() + days(10), other),
        (t0() + days(90), LifecycleParams::default()),
        (t0() + days(100), other),
        (t0() + days(1000), LifecycleParams::default()),
        // Half a microsecond after the last: the same time as stored, so nothing changes.
        (
            t0() + days(1000) + Duration::nanoseconds(500),
            LifecycleParams::default(),
        ),
    ];
    for (run, (at, params)) in runs.into_iter().enumerate() {
        let events_before = events().await;
        let (mut changed, mut archived) = (0, 0);
        let mut after: Option<String> = None;
        loop {
            let page = graph
                .decay_page(MemoryKind::Node, after.as_deref(), 97, at, &params)
                .await
                .unwrap();
            (changed, archived) = (changed + page.changed, archived + page.archived);
            if page.examined < 97 {
                break;
            }
            after = page.last_key;
        }
        let now = all().await.unwrap();
        let (mut want_changed, mut want_archived) = (0, 0);
        let stored_at = cosmo_shared::graph::to_stored_precision(at);
        for (old, new) in before.iter().zip(&now) {
            let want = lifecycle::decay_change(old, stored_at, &params);
            assert_eq!(
                new.lifecycle,
                want.as_ref()
                    .map_or(old.lifecycle.clone(), |c| c.lifecycle.clone()),
                "{} at {at}: from {:?}",
                old.key,
                old.lifecycle
            );
            if let Some(event) = want.as_ref().and_then(|c| c.event.clone()) {
                let events = graph.lifecycle_events(&old.key).await.unwrap();
                assert_eq!(events.last(), Some(&event), "{}: its event", old.key);
                want_archived += 1;
            }
            want_changed += usize::from(want.is_some());
        }
        assert_eq!(
            (changed, archived),
            (want_changed, want_archived),
            "counts at {at}"
        );
        assert_eq!(
            events().await - events_before,
            want_archived,
            "an event for each memory archived at {at}, and no other"
        );
        if run + 1 == runs.len() {
            assert_eq!(
                want_changed, 0,
                "the same stored time again changes nothing"
            );
        } else {
            assert!(want_changed > 0, "something decays at {at}");
        }
        if at == t0() + days(90) {
            assert_eq!(
                now[0].lifecycle.state,
                MemoryState::Archived,
                "archived at its deadline exactly"
            );
        }
        before = now;
    }
}
