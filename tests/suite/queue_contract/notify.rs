//! PostgreSQL: a pipeline job enqueued by another process is picked up by LISTEN/NOTIFY,
//! not by the next poll. SQLite has no notifications across processes (there the poll
//! interval is the pickup delay, see docs/queue.md), but a job enqueued in the worker's
//! own process (the embedded default) wakes it at once.

use cosmo_shared::queue::{JobKind, NewJob};
use cosmo_tests::pg::TempPostgres;
use cosmo_tests::stores;
use serde_json::json;

use std::time::Duration;

use cosmo_tests::wait_for;

use super::support::Workers;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_process_s_job_is_picked_up_by_notification_not_by_polling() {
    let dir = tempfile::tempdir().unwrap();
    let pg = TempPostgres::create().await;
    let mut config = stores::test_config(&pg.url, &dir.path().join("graph.db"));
    // A poll and a heartbeat an hour away: only a notification can wake the worker.
    config.queue.poll_interval_ms = 3_600_000;
    config.queue.heartbeat_secs = 3_600;
    let worker_side = stores::connect(config.clone()).await;
    // The API process: its own connection pool to the same database.
    let api_side = stores::connect(config).await;
    let workers = Workers::start_kinds(&worker_side, vec![JobKind::ProcessSource]);
    // Enqueue only while the worker is idle. apalis wakes a worker on a notification,
    // but a worker whose fetch is in flight drops that wake-up: the fetch, started
    // before the insert, comes back empty and the worker waits for its next poll (in
    // production at most `max(queue.poll_interval_ms, 500)` ms; here an hour). So wait
    // for the LISTEN, then for the worker's own queries (its first fetch, the fetch the
    // LISTEN's wake-up starts, the fetch after each job) to have ended.
    let cosmo_shared::db::Db::Postgres(pool) = &api_side.db else {
        panic!("a PostgreSQL queue")
    };
    wait_for("the worker to LISTEN", Duration::from_secs(30), || async {
        let listening: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM pg_stat_activity
             WHERE datname = current_database() AND query LIKE 'LISTEN %'",
        )
        .fetch_one(pool)
        .await
        .unwrap();
        (listening > 0).then_some(())
    })
    .await;
    for n in 0..3 {
        worker_settled(pool).await;
        api_side
            .queue
            .enqueue(NewJob::new(JobKind::ProcessSource, json!({ "n": n })))
            .await
            .unwrap();
        // The handler ran it. (Not the job's row: apalis writes the outcome on the
        // worker's next wake-up, which here is the next notification.)
        wait_for(
            "the job, delivered by NOTIFY",
            Duration::from_secs(30),
            || async { (workers.recorder.finished.lock().unwrap().len() == n + 1).then_some(()) },
        )
        .await;
    }
    workers.stop().await;
}

/// Waits until no other connection to the test database has been busy for half a
/// second: the worker has no query in flight, nor a result it has yet to read.
async fn worker_settled(pool: &sqlx::PgPool) {
    let quiet = std::cell::Cell::new(0);
    wait_for("the worker to be idle", Duration::from_secs(30), || async {
        let busy: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM pg_stat_activity
             WHERE datname = current_database() AND pid <> pg_backend_pid()
               AND state <> 'idle'",
        )
        .fetch_one(pool)
        .await
        .unwrap();
        quiet.set(if busy == 0 { quiet.get() + 1 } else { 0 });
        (quiet.get() >= 5).then_some(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_sqlite_a_job_enqueued_in_the_same_process_wakes_the_worker() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cosmo.db");
    let mut config = stores::test_config(&format!("sqlite://{}", db.display()), &db);
    // A poll and a heartbeat an hour away: only the in-process wake-up can start a job
    // enqueued after the worker's first (empty) poll.
    config.queue.poll_interval_ms = 3_600_000;
    config.queue.heartbeat_secs = 3_600;
    let svc = stores::connect(config).await;
    let workers = Workers::start_kinds(&svc, vec![JobKind::ProcessSource]);
    for n in 0..3 {
        // Enqueue while the worker is idle: let its first poll, or the fetch it starts
        // after each job, end (a wake-up during a fetch is dropped, as on PostgreSQL).
        tokio::time::sleep(Duration::from_secs(1)).await;
        svc.queue
            .enqueue(NewJob::new(JobKind::ProcessSource, json!({ "n": n })))
            .await
            .unwrap();
        wait_for(
            "the job, woken in-process",
            Duration::from_secs(30),
            || async { (workers.recorder.finished.lock().unwrap().len() == n + 1).then_some(()) },
        )
        .await;
    }
    workers.stop().await;
}
