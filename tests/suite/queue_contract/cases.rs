//! The queue contract cases. Each gets a factory and tunes the job settings it needs.

use std::sync::atomic::Ordering;
use std::time::Duration;

use cosmo_shared::config::Config;
use cosmo_shared::db::Db;
use cosmo_shared::queue::lease::{Claim, Leases};
use cosmo_shared::queue::{Enqueued, JobEnvelope, JobFilter, JobKind, JobState, NewJob};
use serde_json::json;

use super::support::{Factory, KIND, Workers, wait_job};

fn defaults(_: &mut Config) {}

fn job(payload: serde_json::Value) -> NewJob {
    NewJob::new(KIND, payload)
}

pub async fn enqueue_is_idempotent_per_kind(factory: Factory) {
    let env = factory(defaults).await;
    let q = &env.svc.queue;
    let first = q.enqueue(job(json!({})).key("k-1")).await.unwrap();
    let Enqueued::Created { job_id } = &first else {
        panic!("expected a new job, got {first:?}")
    };
    assert_eq!(
        q.enqueue(job(json!({"other": true})).key("k-1"))
            .await
            .unwrap(),
        Enqueued::Duplicate {
            job_id: job_id.clone()
        }
    );
    let other_kind = q
        .enqueue(NewJob::new(JobKind::ProcessSource, json!({})).key("k-1"))
        .await
        .unwrap();
    assert!(
        matches!(other_kind, Enqueued::Created { .. }),
        "keys are per kind"
    );
    let a = q.enqueue(job(json!({}))).await.unwrap();
    let b = q.enqueue(job(json!({}))).await.unwrap();
    assert!(
        matches!(
            (&a, &b),
            (Enqueued::Created { .. }, Enqueued::Created { .. })
        ) && a != b,
        "no key, no de-duplication"
    );
    // A key stays used after its job is done: scheduler replicas rely on it.
    let w = Workers::start(&env.svc);
    wait_job(&env.svc, job_id, "keyed job done", |j| j.status == "Done").await;
    w.stop().await;
    assert!(matches!(
        q.enqueue(job(json!({})).key("k-1")).await.unwrap(),
        Enqueued::Duplicate { .. }
    ));
}

pub async fn jobs_can_be_looked_up_and_counted(factory: Factory) {
    let env = factory(|c| c.jobs.reconcile.max_attempts = 4).await;
    let q = &env.svc.queue;
    let created = q
        .enqueue(
            job(json!({"n": 1}))
                .key("lookup")
                .request_id(Some("req-42".into())),
        )
        .await
        .unwrap();
    let record = q.job(created.job_id()).await.unwrap().expect("job exists");
    assert_eq!(
        (
            record.kind.as_str(),
            record.status.as_str(),
            record.attempts,
            record.max_attempts
        ),
        ("reconcile", "Pending", 0, 4)
    );
    assert!(record.is_live());
    assert_eq!(
        record.payload,
        Some(JobEnvelope {
            kind: KIND,
            payload: json!({"n": 1}),
            request_id: Some("req-42".into()),
            traceparent: None,
        }),
        "the payload and the request id travel with the job"
    );
    assert_eq!(
        q.job_by_key(KIND, "lookup")
            .await
            .unwrap()
            .map(|j| j.job_id),
        Some(created.job_id().to_owned())
    );
    assert!(
        q.job_by_key(JobKind::ProcessSource, "lookup")
            .await
            .unwrap()
            .is_none()
    );
    q.enqueue(job(json!({}))).await.unwrap();
    let counts = q.counts().await.unwrap();
    assert!(
        counts
            .iter()
            .any(|c| c.kind == "reconcile" && c.status == "Pending" && c.count == 2),
        "{counts:?}"
    );
    assert!(q.failed_jobs(10).await.unwrap().is_empty());
}

pub async fn workers_run_jobs_to_done(factory: Factory) {
    let env = factory(defaults).await;
    let w = Workers::start(&env.svc);
    let mut ids = Vec::new();
    for i in 0..3 {
        ids.push(
            env.svc
                .queue
                .enqueue(job(json!({"i": i})))
                .await
                .unwrap()
                .job_id()
                .to_owned(),
        );
    }
    for id in &ids {
        let done = wait_job(&env.svc, id, "job done", |j| j.status == "Done").await;
        assert_eq!(done.attempts, 1);
    }
    let mut finished = w.recorder.finished.lock().unwrap().clone();
    finished.sort();
    ids.sort();
    assert_eq!(finished, ids, "each job ran exactly once");
    w.stop().await;
}

pub async fn failures_back_off_then_succeed(factory: Factory) {
    let env = factory(|c| {
        c.jobs.reconcile.max_attempts = 3;
        c.jobs.reconcile.backoff_secs = 1;
    })
    .await;
    let w = Workers::start(&env.svc);
    let id = env
        .svc
        .queue
        .enqueue(job(json!({"fail_until": 2})))
        .await
        .unwrap()
        .job_id()
        .to_owned();
    let failed = wait_job(&env.svc, &id, "first failure recorded", |j| {
        j.status == "Failed"
    })
    .await;
    assert_eq!(failed.attempts, 1);
    assert!(
        failed
            .last_error
            .as_deref()
            .unwrap_or("")
            .contains("transient failure on attempt 1"),
        "{failed:?}"
    );
    assert!(failed.is_live(), "attempts remain, so it will run again");
    let done = wait_job(&env.svc, &id, "retry succeeded", |j| j.status == "Done").await;
    assert_eq!(done.attempts, 2);
    let runs = w.recorder.runs();
    assert_eq!(runs.iter().map(|r| r.attempt).collect::<Vec<_>>(), [1, 2]);
    let gap = runs[1].started - runs[0].started;
    assert!(
        gap >= Duration::from_millis(750),
        "the retry waited for its backoff ({gap:?})"
    );
    let failures = w.recorder.failures.lock().unwrap().clone();
    assert_eq!(failures.len(), 1);
    assert!(!failures[0].2, "not the final attempt");
    w.stop().await;
}

pub async fn exhausted_jobs_are_kept_with_their_error(factory: Factory) {
    let env = factory(|c| {
        c.jobs.reconcile.max_attempts = 2;
        c.jobs.reconcile.backoff_secs = 1;
    })
    .await;
    let q = &env.svc.queue;
    let w = Workers::start(&env.svc);
    let id = q
        .enqueue(job(json!({"fail": true})))
        .await
        .unwrap()
        .job_id()
        .to_owned();
    let dead = wait_job(&env.svc, &id, "attempts exhausted", |j| {
        j.status == "Failed" && j.attempts == 2
    })
    .await;
    assert!(!dead.is_live());
    assert!(
        dead.last_error
            .as_deref()
            .unwrap_or("")
            .contains("attempt 2"),
        "{dead:?}"
    );
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(w.recorder.runs().len(), 2, "no third attempt");
    let finals: Vec<bool> = w
        .recorder
        .failures
        .lock()
        .unwrap()
        .iter()
        .map(|f| f.2)
        .collect();
    assert_eq!(finals, [false, true]);
    assert_eq!(
        q.failed_jobs(10)
            .await
            .unwrap()
            .iter()
            .map(|j| j.job_id.clone())
            .collect::<Vec<_>>(),
        std::slice::from_ref(&id)
    );
    assert_eq!(dead.state(), JobState::Dead, "no attempts left: dead");
    let listed = q
        .list_jobs(&JobFilter {
            state: Some(JobState::Dead),
            kind: None,
            limit: 10,
        })
        .await
        .unwrap();
    assert_eq!(
        listed.iter().map(|j| j.job_id.as_str()).collect::<Vec<_>>(),
        [id.as_str()]
    );
    // An operator retries it: fresh attempts.
    assert!(q.retry_job(&id).await.unwrap());
    wait_job(&env.svc, &id, "retried job failed again", |j| {
        j.status == "Failed" && j.attempts == 2 && w.recorder.runs().len() == 4
    })
    .await;
    assert!(!q.retry_job("no-such-job").await.unwrap());
    w.stop().await;
}

pub async fn permanent_failures_stop_at_once(factory: Factory) {
    let env = factory(|c| c.jobs.reconcile.max_attempts = 5).await;
    let w = Workers::start(&env.svc);
    let id = env
        .svc
        .queue
        .enqueue(job(json!({"permanent": true})))
        .await
        .unwrap()
        .job_id()
        .to_owned();
    let killed = wait_job(&env.svc, &id, "job killed", |j| j.status == "Killed").await;
    assert!(
        killed
            .last_error
            .as_deref()
            .unwrap_or("")
            .contains("bad input, giving up"),
        "{killed:?}"
    );
    assert!(!killed.is_live());
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(w.recorder.runs().len(), 1);
    assert!(
        w.recorder.failures.lock().unwrap()[0].2,
        "reported as final"
    );
    assert_eq!(env.svc.queue.failed_jobs(5).await.unwrap().len(), 1);
    w.stop().await;
}

pub async fn timeouts_and_panics_are_retried(factory: Factory) {
    let env = factory(|c| {
        c.jobs.reconcile.timeout_secs = 1;
        c.jobs.reconcile.backoff_secs = 1;
    })
    .await;
    let w = Workers::start(&env.svc);
    let slow = env
        .svc
        .queue
        .enqueue(job(json!({"sleep_ms_on_first": 3000})))
        .await
        .unwrap()
        .job_id()
        .to_owned();
    let panicky = env
        .svc
        .queue
        .enqueue(job(json!({"panic_on_first": true})))
        .await
        .unwrap()
        .job_id()
        .to_owned();
    for id in [&slow, &panicky] {
        let done = wait_job(&env.svc, id, "retried job done", |j| j.status == "Done").await;
        assert_eq!(
            done.attempts, 2,
            "the first attempt failed, the second succeeded"
        );
    }
    let failures = w.recorder.failures.lock().unwrap().clone();
    assert!(
        failures
            .iter()
            .any(|(id, m, _)| *id == slow && m.contains("timed out")),
        "{failures:?}"
    );
    assert!(
        failures
            .iter()
            .any(|(id, m, _)| *id == panicky && m.contains("panicked")),
        "{failures:?}"
    );
    w.stop().await;
}

pub async fn concurrency_is_bounded_per_kind(factory: Factory) {
    let env = factory(|c| c.jobs.reconcile.concurrency = 2).await;
    let mut ids = Vec::new();
    for _ in 0..6 {
        ids.push(
            env.svc
                .queue
                .enqueue(job(json!({"sleep_ms": 400})))
                .await
                .unwrap()
                .job_id()
                .to_owned(),
        );
    }
    let w = Workers::start(&env.svc);
    for id in &ids {
        wait_job(&env.svc, id, "job done", |j| j.status == "Done").await;
    }
    assert_eq!(
        w.recorder.max_concurrent.load(Ordering::SeqCst),
        2,
        "two at a time, never more"
    );
    w.stop().await;
}

pub async fn shutdown_lets_in_flight_jobs_finish(factory: Factory) {
    let env = factory(|c| {
        c.queue.heartbeat_secs = 3;
        c.queue.missed_heartbeats = 3;
        c.workers.shutdown_timeout_secs = 5;
    })
    .await;
    let w = Workers::start(&env.svc);
    let id = env
        .svc
        .queue
        .enqueue(job(json!({"sleep_ms": 1500})))
        .await
        .unwrap()
        .job_id()
        .to_owned();
    cosmo_tests::wait_for("job started", Duration::from_secs(20), || async {
        (!w.recorder.runs().is_empty()).then_some(())
    })
    .await;
    let recorder = w.recorder.clone();
    w.stop().await;
    assert_eq!(
        recorder.finished.lock().unwrap().clone(),
        std::slice::from_ref(&id),
        "the in-flight job finished before the worker stopped"
    );
    assert_eq!(
        env.svc.queue.job(&id).await.unwrap().unwrap().status,
        "Done"
    );
}

pub async fn undecodable_payloads_are_killed(factory: Factory) {
    let env = factory(defaults).await;
    // A job that is not Cosmo's envelope (e.g. written by an older version or another
    // tool). (Bytes that are not JSON at all fail inside apalis' codec, before any
    // handler; see docs/queue.md.)
    let raw = apalis_task(br#"{"legacy": "format"}"#);
    let id = raw.0.clone();
    match &env.svc.db {
        cosmo_shared::db::Db::Sqlite(pool) => {
            let mut conn = pool.acquire().await.unwrap();
            apalis_sqlite::queries::push_tasks(&mut *conn, KIND.queue_name(), &[raw.1])
                .await
                .unwrap();
        }
        cosmo_shared::db::Db::Postgres(pool) => {
            let mut conn = pool.acquire().await.unwrap();
            apalis_postgres::queries::push_tasks(&mut *conn, KIND.queue_name(), vec![raw.1])
                .await
                .unwrap();
        }
    }
    let w = Workers::start(&env.svc);
    let good = env
        .svc
        .queue
        .enqueue(job(json!({})))
        .await
        .unwrap()
        .job_id()
        .to_owned();
    wait_job(&env.svc, &good, "the next job still runs", |j| {
        j.status == "Done"
    })
    .await;
    let killed = wait_job(&env.svc, &id, "bad job killed", |j| j.status == "Killed").await;
    assert!(
        killed
            .last_error
            .unwrap_or_default()
            .contains("undecodable")
    );
    w.stop().await;
}

fn apalis_task(bytes: &[u8]) -> (String, apalis::prelude::Task<Vec<u8>>) {
    use apalis::prelude::{TaskBuilder, TaskId};
    let id = ulid::Ulid::generate();
    (
        id.to_string(),
        TaskBuilder::new(bytes.to_vec())
            .task_id(TaskId::from_ulid(id))
            .max_attempts(1)
            .build(),
    )
}

pub async fn erasure_purges_exactly_the_jobs_about_it(factory: Factory) {
    use cosmo_shared::queue::payloads::{ExtractEntities, ProcessSource};
    let env = factory(defaults).await;
    let q = &env.svc.queue;
    let (erased, kept) = ("5f0c7d0e-erased-source", "8a1b2c3d-kept-source");
    let ids = [
        ProcessSource::job(erased),
        ExtractEntities::job(erased, "alice"),
        ProcessSource::job(kept),
        ExtractEntities::job(kept, "bob"),
        ExtractEntities::job(kept, "x:bob"),
        ExtractEntities::job(kept, "bob:x"),
        ExtractEntities::job(kept, "carol"),
    ];
    let mut by_key = Vec::new();
    for job in ids {
        let key = job.idempotency_key.clone().unwrap();
        by_key.push((key, q.enqueue(job).await.unwrap().job_id().to_owned()));
    }
    // Erasing a Source takes its jobs; erasing user bob takes bob's extractions only.
    let purged = q
        .purge_about(&[erased.to_owned()], Some("bob"))
        .await
        .unwrap();
    let mut left = Vec::new();
    for (key, id) in &by_key {
        if q.job(id).await.unwrap().is_some() {
            left.push(key.as_str());
        }
    }
    assert_eq!(
        left,
        [
            kept.to_owned(),
            format!("{kept}:x:bob"),
            format!("{kept}:bob:x"),
            format!("{kept}:carol")
        ],
        "purged {purged}"
    );
    assert_eq!(purged, 3);
}

pub async fn jobs_are_listed_counted_and_retried_by_state(factory: Factory) {
    let env = factory(|c| {
        let s = &mut c.jobs.reconcile;
        s.max_attempts = 2;
        s.backoff_secs = 3600;
        s.backoff_max_secs = 3600;
        s.concurrency = 4;
    })
    .await;
    let q = &env.svc.queue;
    let enqueue = |job: NewJob| async move { q.enqueue(job).await.unwrap().job_id().to_owned() };
    let later = chrono::Utc::now() + chrono::Duration::hours(1);
    let scheduled = enqueue(job(json!({})).run_at(later)).await;
    let other_kind = enqueue(NewJob::new(JobKind::ProcessSource, json!({}))).await;
    let done = enqueue(job(json!({}))).await;
    let failing = enqueue(job(json!({"fail": true}))).await;
    let dead = enqueue(job(json!({"permanent": true}))).await;
    let running = enqueue(job(json!({"sleep_ms": 5000}))).await;

    let w = Workers::start(&env.svc);
    wait_job(&env.svc, &done, "done", |j| j.status == "Done").await;
    wait_job(&env.svc, &failing, "first attempt failed", |j| {
        j.status == "Failed"
    })
    .await;
    wait_job(&env.svc, &dead, "killed", |j| j.status == "Killed").await;
    wait_job(&env.svc, &running, "running", |j| j.status == "Running").await;

    let list = |state: Option<JobState>, kind: Option<JobKind>, limit: usize| async move {
        q.list_jobs(&JobFilter { state, kind, limit })
            .await
            .unwrap()
            .into_iter()
            .map(|j| j.job_id)
            .collect::<Vec<_>>()
    };
    let all = list(None, None, 100).await;
    let mut expected = vec![&scheduled, &other_kind, &done, &failing, &dead, &running];
    expected.sort();
    expected.reverse();
    assert_eq!(
        all.iter().collect::<Vec<_>>(),
        expected,
        "every job, newest (highest ULID) first"
    );
    assert_eq!(
        list(None, None, 2).await,
        all[..2],
        "the limit keeps the newest"
    );
    let mut pending = list(Some(JobState::Pending), None, 100).await;
    pending.sort();
    let mut both = vec![scheduled.clone(), other_kind.clone()];
    both.sort();
    assert_eq!(pending, both, "due and scheduled jobs are pending");
    assert_eq!(
        list(Some(JobState::Pending), Some(KIND), 100).await,
        std::slice::from_ref(&scheduled)
    );
    assert_eq!(
        list(None, Some(JobKind::ProcessSource), 100).await,
        std::slice::from_ref(&other_kind)
    );
    for (state, id) in [
        (JobState::Running, &running),
        (JobState::Done, &done),
        (JobState::Failed, &failing),
        (JobState::Dead, &dead),
    ] {
        assert_eq!(
            list(Some(state), None, 100).await,
            std::slice::from_ref(id),
            "{state}"
        );
        let record = q.job(id).await.unwrap().unwrap();
        assert_eq!(record.state(), state, "{record:?}");
    }
    let failed = q.job(&failing).await.unwrap().unwrap();
    assert!(
        failed
            .last_error
            .as_deref()
            .unwrap_or("")
            .contains("attempt 1"),
        "a failed job keeps its error: {failed:?}"
    );

    let counts = q.state_counts().await.unwrap();
    let count = |kind: &str, state: JobState| {
        counts
            .iter()
            .find(|c| c.kind == kind && c.state == state)
            .map_or(0, |c| c.count)
    };
    for state in [
        JobState::Pending,
        JobState::Running,
        JobState::Done,
        JobState::Failed,
        JobState::Dead,
    ] {
        assert_eq!(count("reconcile", state), 1, "{state}: {counts:?}");
    }
    assert_eq!(count("process-source", JobState::Pending), 1, "{counts:?}");
    assert_eq!(counts.len(), 6, "only pairs with jobs: {counts:?}");

    wait_job(&env.svc, &running, "slow job done", |j| j.status == "Done").await;
    w.stop().await;
    assert!(
        !q.retry_job(&scheduled).await.unwrap(),
        "pending: nothing to retry"
    );
    assert_eq!(q.retry_dead(Some(JobKind::ProcessSource)).await.unwrap(), 0);
    assert_eq!(q.retry_dead(None).await.unwrap(), 1, "only the dead job");
    let retried = q.job(&dead).await.unwrap().unwrap();
    assert_eq!(
        (retried.state(), retried.attempts),
        (JobState::Pending, 0),
        "{retried:?}"
    );
    assert_eq!(
        q.job(&failing).await.unwrap().unwrap().state(),
        JobState::Failed,
        "a job that will retry by itself is left alone"
    );
}

/// Every process start registers its workers anew; the registrations of stopped ones
/// are forgotten once silent long enough, while a live worker's stays (it heartbeats)
/// and it goes on running jobs. The jobs the stopped ones ran stay readable.
pub async fn stopped_workers_are_forgotten_and_live_ones_kept(factory: Factory) {
    let env = factory(defaults).await;
    let mut finished = Vec::new();
    // Twenty process starts, each registering its workers under a new name.
    for i in 0..20 {
        let w = Workers::start(&env.svc);
        let id = env
            .svc
            .queue
            .enqueue(job(json!({"restart": i})))
            .await
            .unwrap()
            .job_id()
            .to_owned();
        wait_job(&env.svc, &id, "job done", |j| j.status == "Done").await;
        w.stop().await;
        finished.push(id);
    }
    let live = Workers::start(&env.svc);
    let first = env
        .svc
        .queue
        .enqueue(job(json!({"live": 1})))
        .await
        .unwrap();
    wait_job(&env.svc, first.job_id(), "job done", |j| j.status == "Done").await;
    // Heartbeats come every second (test settings): 3 s of silence is a stopped worker.
    tokio::time::sleep(Duration::from_secs(5)).await;
    let silent = Duration::from_secs(3);
    let forgotten = env.svc.queue.forget_workers(silent).await.unwrap();
    assert!(
        forgotten >= 20,
        "the twenty stopped processes' workers: {forgotten}"
    );
    assert_eq!(
        env.svc.queue.forget_workers(silent).await.unwrap(),
        0,
        "nothing left to forget"
    );
    for id in &finished {
        let done = env
            .svc
            .queue
            .job(id)
            .await
            .unwrap()
            .expect("still readable");
        assert_eq!(done.status, "Done");
    }
    let second = env
        .svc
        .queue
        .enqueue(job(json!({"live": 2})))
        .await
        .unwrap();
    wait_job(
        &env.svc,
        second.job_id(),
        "the live worker still runs jobs",
        |j| j.status == "Done",
    )
    .await;
    live.stop().await;
}

/// What apalis' orphan recovery writes when it decides a job's worker is dead: the job
/// is handed out again.
async fn hand_out_again(svc: &cosmo_shared::services::Services, job_id: &str) {
    macro_rules! set {
        ($table:literal) => {
            concat!(
                "UPDATE ",
                $table,
                " SET status = 'Pending', lock_by = NULL, lock_at = NULL, attempts = attempts + 1
                  WHERE id = $1"
            )
        };
    }
    match &svc.db {
        Db::Sqlite(pool) => sqlx::query(set!("Jobs"))
            .bind(job_id)
            .execute(pool)
            .await
            .map(drop),
        Db::Postgres(pool) => sqlx::query(set!("apalis.jobs"))
            .bind(job_id)
            .execute(pool)
            .await
            .map(drop),
    }
    .unwrap();
}

/// After an outage every worker's heartbeat is stale and running jobs are handed out
/// again: the second run waits for the first and ends without running the job again.
pub async fn a_job_handed_out_again_while_running_runs_once(factory: Factory) {
    let env = factory(|c| c.jobs.reconcile.concurrency = 2).await;
    let w = Workers::start(&env.svc);
    let id = env
        .svc
        .queue
        .enqueue(job(json!({"sleep_ms": 4000})))
        .await
        .unwrap()
        .job_id()
        .to_owned();
    wait_job(&env.svc, &id, "job running", |j| j.status == "Running").await;
    hand_out_again(&env.svc, &id).await;
    wait_job(&env.svc, &id, "job done", |j| j.status == "Done").await;
    // The second run claims every heartbeat (1 s here): give it time to end.
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(
        w.recorder.runs().len(),
        1,
        "the job ran once, although two workers had it"
    );
    assert_eq!(*w.recorder.finished.lock().unwrap(), vec![id.clone()]);
    assert_eq!(
        env.svc.queue.job(&id).await.unwrap().unwrap().status,
        "Done"
    );

    // Handed out once more after it finished (its acknowledgement lost): not run.
    hand_out_again(&env.svc, &id).await;
    wait_job(&env.svc, &id, "job done again", |j| j.status == "Done").await;
    assert_eq!(
        w.recorder.runs().len(),
        1,
        "a finished job is not run again"
    );

    // An operator's retry (or the reconciler's revival) runs it again.
    assert!(env.svc.queue.retry_job(&id).await.unwrap());
    cosmo_tests::wait_for(
        "the retried job to run",
        Duration::from_secs(30),
        || async { (w.recorder.finished.lock().unwrap().len() == 2).then_some(()) },
    )
    .await;
    assert_eq!(w.recorder.runs().len(), 2, "a retried job runs");
    w.stop().await;
}

/// The lease rules on the queue's database: one holder; a holder that refreshes keeps
/// it however long it was silent before; a silent one is taken over only after the
/// grace that follows the moment a waiting run found it silent; finished and released
/// leases.
pub async fn run_leases_admit_one_run_and_survive_silence(factory: Factory) {
    let env = factory(defaults).await;
    let second = Duration::from_secs(1);
    let leases = Leases::new(env.svc.db.clone(), second, second);

    assert_eq!(leases.claim("j1", "a").await.unwrap(), Claim::Run);
    assert_eq!(leases.claim("j1", "b").await.unwrap(), Claim::Wait);
    assert!(leases.refresh("j1", "a").await.unwrap());
    assert!(!leases.refresh("j1", "b").await.unwrap(), "not b's lease");

    // Silent (an outage): b marks it and waits; a refreshes once it can: a keeps it.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(leases.claim("j1", "b").await.unwrap(), Claim::Wait);
    assert!(leases.refresh("j1", "a").await.unwrap());
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(
        leases.claim("j1", "b").await.unwrap(),
        Claim::Wait,
        "a refreshed after the mark: its silence counts afresh"
    );
    // a is dead now: after the grace b takes over, and a's refresh says it lost it.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(leases.claim("j1", "b").await.unwrap(), Claim::Run);
    assert!(
        !leases.refresh("j1", "a").await.unwrap(),
        "a lost the lease"
    );
    assert!(leases.refresh("j1", "b").await.unwrap());

    // Finished: any later run ends without running.
    leases.finish("j1", "b").await.unwrap();
    assert_eq!(leases.claim("j1", "c").await.unwrap(), Claim::Finished);
    // Released (a failed run): the next attempt takes it at once.
    assert_eq!(leases.claim("j2", "a").await.unwrap(), Claim::Run);
    leases.release("j2", "a").await.unwrap();
    assert_eq!(leases.claim("j2", "b").await.unwrap(), Claim::Run);
}

async fn present(q: &std::sync::Arc<dyn cosmo_shared::queue::JobQueue>, id: &str) -> bool {
    q.job(id).await.unwrap().is_some()
}

/// Jobs that finished are deleted once kept long enough, oldest first and a bounded
/// number at a time; a job that gave up, one still waiting and one just finished stay.
/// A deleted job's key can be used again.
pub async fn finished_jobs_are_forgotten_once_kept_long_enough(factory: Factory) {
    let env = factory(|c| c.jobs.reconcile.max_attempts = 5).await;
    let q = &env.svc.queue;
    let w = Workers::start(&env.svc);
    let mut done = Vec::new();
    for i in 0..3 {
        let id = q
            .enqueue(job(json!({"n": i})).key(format!("finished-{i}")))
            .await
            .unwrap()
            .job_id()
            .to_owned();
        wait_job(&env.svc, &id, "job done", |j| j.status == "Done").await;
        done.push(id);
        // Whole seconds apart: SQLite records when a job finished to the second.
        tokio::time::sleep(Duration::from_millis(1100)).await;
    }
    let gave_up = q.enqueue(job(json!({"permanent": true}))).await.unwrap();
    let gave_up = gave_up.job_id().to_owned();
    wait_job(&env.svc, &gave_up, "job killed", |j| j.status == "Killed").await;
    w.stop().await;
    let waiting = q.enqueue(job(json!({"n": "later"}))).await.unwrap();
    tokio::time::sleep(Duration::from_millis(2100)).await;

    let kept_for = Duration::from_secs(1);
    assert_eq!(
        q.forget_done_jobs(kept_for, 2).await.unwrap(),
        2,
        "at most the limit"
    );
    assert!(!present(q, &done[0]).await, "the oldest first");
    assert!(!present(q, &done[1]).await);
    assert!(
        present(q, &done[2]).await,
        "past the limit: left for the next run"
    );
    assert_eq!(
        q.forget_done_jobs(Duration::from_secs(3600), 10)
            .await
            .unwrap(),
        0,
        "kept an hour: none is that old"
    );
    assert_eq!(q.forget_done_jobs(kept_for, 10).await.unwrap(), 1);
    assert_eq!(
        q.forget_done_jobs(kept_for, 10).await.unwrap(),
        0,
        "nothing left"
    );
    assert!(
        present(q, &gave_up).await,
        "a job that gave up stays for an operator"
    );
    assert!(present(q, waiting.job_id()).await, "a waiting job stays");

    let again = q.enqueue(job(json!({})).key("finished-0")).await.unwrap();
    assert!(
        matches!(again, Enqueued::Created { .. }),
        "the forgotten job's key is free: {again:?}"
    );
    assert!(matches!(
        q.enqueue(job(json!({})).key("finished-0")).await.unwrap(),
        Enqueued::Duplicate { .. }
    ));
}
