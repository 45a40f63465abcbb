//! Queue backends on fresh databases, and a job handler that does what each job's
//! payload asks and records what happened.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use cosmo_shared::config::Config;
use cosmo_shared::queue::runtime::{
    JobContext, JobHandler, JobOutcome, WorkerOptions, run_workers,
};
use cosmo_shared::queue::{JobKind, JobRecord};
use cosmo_shared::services::Services;
use cosmo_tests::pg::TempPostgres;
use cosmo_tests::stores;
use tokio::sync::watch;

/// A queue under test and what keeps its database alive.
pub struct Env {
    pub svc: Services,
    _dir: tempfile::TempDir,
    _pg: Option<TempPostgres>,
}

pub type Factory =
    fn(fn(&mut Config)) -> std::pin::Pin<Box<dyn std::future::Future<Output = Env> + Send>>;

pub fn sqlite(
    tune: fn(&mut Config),
) -> std::pin::Pin<Box<dyn std::future::Future<Output = Env> + Send>> {
    Box::pin(async move {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("cosmo.db");
        let mut config = stores::test_config(&format!("sqlite://{}", db.display()), &db);
        tune(&mut config);
        Env {
            svc: stores::connect(config).await,
            _dir: dir,
            _pg: None,
        }
    })
}

pub fn postgres(
    tune: fn(&mut Config),
) -> std::pin::Pin<Box<dyn std::future::Future<Output = Env> + Send>> {
    Box::pin(async move {
        let dir = tempfile::tempdir().unwrap();
        let pg = TempPostgres::create().await;
        let mut config = stores::test_config(&pg.url, &dir.path().join("graph.db"));
        tune(&mut config);
        Env {
            svc: stores::connect(config).await,
            _dir: dir,
            _pg: Some(pg),
        }
    })
}

/// The kind the tests run their jobs as (the runtime does not look at payloads).
pub const KIND: JobKind = JobKind::Reconcile;

/// What one attempt saw.
#[derive(Debug, Clone)]
pub struct Run {
    pub attempt: u32,
    pub started: Instant,
}

/// Does what the payload says: `{"fail_until": n}`, `{"fail": true}`,
/// `{"permanent": true}` (with `"error": "…"`, that error), `{"sleep_ms": n}`,
/// `{"sleep_ms_on_first": n}`, `{"panic_on_first": true}`; anything else succeeds.
#[derive(Debug, Default)]
pub struct Recorder {
    pub runs: Mutex<Vec<Run>>,
    pub finished: Mutex<Vec<String>>,
    pub failures: Mutex<Vec<(String, String, bool)>>,
    current: AtomicUsize,
    pub max_concurrent: AtomicUsize,
}

impl Recorder {
    pub fn runs(&self) -> Vec<Run> {
        self.runs.lock().unwrap().clone()
    }
}

#[derive(Debug, Clone)]
pub struct TestHandler(pub Arc<Recorder>);

#[async_trait]
impl JobHandler for TestHandler {
    async fn handle(&self, job: &JobContext) -> JobOutcome {
        let r = &self.0;
        r.runs.lock().unwrap().push(Run {
            attempt: job.attempt,
            started: Instant::now(),
        });
        let now = r.current.fetch_add(1, Ordering::SeqCst) + 1;
        r.max_concurrent.fetch_max(now, Ordering::SeqCst);
        let p = &job.envelope.payload;
        let first = job.attempt == 1;
        let mut sleep = p["sleep_ms"].as_u64().unwrap_or(0);
        if first {
            sleep += p["sleep_ms_on_first"].as_u64().unwrap_or(0);
        }
        tokio::time::sleep(Duration::from_millis(sleep)).await;
        r.current.fetch_sub(1, Ordering::SeqCst);
        if first && p["panic_on_first"] == true {
            panic!("boom on the first attempt");
        }
        let outcome = if p["permanent"] == true {
            JobOutcome::Fail(
                p["error"]
                    .as_str()
                    .unwrap_or("bad input, giving up")
                    .to_owned(),
            )
        } else if p["fail"] == true
            || p["fail_until"]
                .as_u64()
                .is_some_and(|n| u64::from(job.attempt) < n)
        {
            JobOutcome::Retry(format!("transient failure on attempt {}", job.attempt))
        } else {
            JobOutcome::Done
        };
        if outcome == JobOutcome::Done {
            r.finished.lock().unwrap().push(job.job_id.clone());
        }
        outcome
    }

    async fn failed(&self, job: &JobContext, message: &str, final_attempt: bool) {
        self.0.failures.lock().unwrap().push((
            job.job_id.clone(),
            message.to_owned(),
            final_attempt,
        ));
    }
}

/// Workers for [`KIND`] running in the background until [`Workers::stop`].
pub struct Workers {
    stop: watch::Sender<bool>,
    task: tokio::task::JoinHandle<anyhow::Result<()>>,
    pub recorder: Arc<Recorder>,
}

impl Workers {
    pub fn start(svc: &Services) -> Self {
        Self::start_kinds(svc, vec![KIND])
    }

    /// Workers for the given kinds, all handled by the recorder.
    pub fn start_kinds(svc: &Services, kinds: Vec<JobKind>) -> Self {
        let recorder = Arc::new(Recorder::default());
        let (stop, mut rx) = watch::channel(false);
        let cfg = &svc.config;
        let opts = WorkerOptions {
            kinds,
            name: "contract".into(),
            queue: cfg.queue.clone(),
            jobs: cfg.jobs.clone(),
            shutdown_timeout: Duration::from_secs(cfg.workers.shutdown_timeout_secs),
        };
        let handler = Arc::new(TestHandler(recorder.clone()));
        let task = tokio::spawn(run_workers(svc.db.clone(), handler, opts, async move {
            let _ = rx.wait_for(|s| *s).await;
        }));
        Self {
            stop,
            task,
            recorder,
        }
    }

    pub async fn stop(self) {
        let _ = self.stop.send(true);
        self.task
            .await
            .expect("worker task")
            .expect("workers stopped cleanly");
    }
}

/// Waits until the job's record satisfies `done`.
pub async fn wait_job(
    svc: &Services,
    job_id: &str,
    what: &str,
    done: impl Fn(&JobRecord) -> bool,
) -> JobRecord {
    cosmo_tests::wait_for(what, Duration::from_secs(30), || async {
        svc.queue.job(job_id).await.unwrap().filter(|j| done(j))
    })
    .await
}
