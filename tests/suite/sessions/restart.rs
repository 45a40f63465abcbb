//! A restart mid-session, with the crash that matters: between the append transaction
//! that claimed a chunk and the post of its Source. The claim is made by the store's
//! own append (what the endpoint runs first) and the process then stops without
//! posting: the chunk row is left unposted, as a crash leaves it. The next process posts
//! it when it starts; a second such chunk is posted by the reconciler. Every turn ends
//! up in exactly one Source or in the buffer, and no Source is stored twice.

use cosmo_shared::queue::JobKind;
use cosmo_shared::sessions::Limits;
use cosmo_tests::{stores, wait_for};
use cosmo_workers::dispatch::Dispatcher;

use super::{Directory, Running, Stores, assert_each_once, conversation, say_concurrently};

#[tokio::test]
async fn a_restart_between_claim_and_post_loses_and_repeats_nothing_on_sqlite() {
    a_restart_between_claim_and_post_loses_and_repeats_nothing(Directory::Sqlite).await;
}

#[tokio::test]
async fn a_restart_between_claim_and_post_loses_and_repeats_nothing_on_postgres() {
    a_restart_between_claim_and_post_loses_and_repeats_nothing(Directory::Postgres).await;
}

/// Appends `turns` as the endpoint's transaction does, and stops there (no post).
async fn claim_without_posting(app: &Running, turns: &[super::Turn]) -> (i64, i64) {
    let svc = &app.svc;
    let user = svc
        .directory
        .tenant_user("acme", "alex")
        .await
        .unwrap()
        .unwrap();
    let new: Vec<_> = turns.iter().map(super::Turn::new_turn).collect();
    let limits = Limits::from(&svc.config.sessions);
    let appended = svc
        .sessions
        .append(&user.graph_user_id, "chat", &new, limits, svc.clock.now())
        .await
        .unwrap();
    let chunk = appended
        .claimed
        .expect("the buffer overflowed: a chunk is claimed");
    (chunk.first_seq, chunk.last_seq)
}

async fn posted(app: &Running) -> Vec<(i64, i64, bool)> {
    app.session("alex", "chat").await["sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["first_seq"].as_i64().unwrap(),
                c["last_seq"].as_i64().unwrap(),
                c["posted_at"].is_string(),
            )
        })
        .collect()
}

async fn a_restart_between_claim_and_post_loses_and_repeats_nothing(directory: Directory) {
    let stores = Stores::new(directory).await;
    let said = conversation(45, 4);

    let first = stores.start().await;
    say_concurrently(&first.api, "alex", "chat", &said[..15], 4, 20).await;
    // Turns 16–21: 21 buffered passes 20, so turns 1–11 are claimed; then the crash.
    assert_eq!(claim_without_posting(&first, &said[15..21]).await, (1, 11));
    assert_eq!(posted(&first).await, [(1, 11, false)]);
    assert!(first.sources("alex").await.is_empty(), "nothing posted yet");
    first.stop().await;

    // The next process posts what the last one claimed, before any new turn.
    let second = stores.start().await;
    wait_for(
        "the unposted chunk posted at start",
        std::time::Duration::from_secs(20),
        || async { (posted(&second).await == [(1, 11, true)]).then_some(()) },
    )
    .await;
    assert_eq!(second.sources("alex").await.len(), 1);

    // Turns 22–32 (a flush of 12–22 at 32), then 33–43 claimed and the post lost again.
    say_concurrently(&second.api, "alex", "chat", &said[21..32], 4, 20).await;
    assert_eq!(
        claim_without_posting(&second, &said[32..43]).await,
        (23, 33)
    );
    // The reconciler posts a chunk claimed longer ago than `reconciler.stuck_after_secs`.
    let later = second.svc.clock.now()
        + chrono::Duration::seconds(second.svc.config.reconciler.stuck_after_secs as i64 + 1);
    let (reconciler, _) = stores::manual_clock(second.svc.clone(), later);
    let run = Dispatcher::new(reconciler)
        .run_periodic(JobKind::Reconcile, later, None)
        .await
        .unwrap_or_else(|e| panic!("reconcile: {}", e.message));
    assert!(
        run.details.contains("\"session_chunks_posted\":1"),
        "{run:?}"
    );
    assert_eq!(
        posted(&second).await,
        [(1, 11, true), (12, 22, true), (23, 33, true)]
    );

    say_concurrently(&second.api, "alex", "chat", &said[43..], 2, 20).await;
    let session = second.session("alex", "chat").await;
    assert_eq!(session["turns_appended"], 45);
    let sources = second.sources("alex").await;
    assert_eq!(sources.len(), 3, "one Source per chunk");
    assert_each_once(&said, &sources, &session);
    let ended = second.end("alex", "chat").await;
    let sources = second.sources("alex").await;
    assert_eq!(sources.len(), 4);
    assert_each_once(&said, &sources, &ended);
    second.stop().await;
}
