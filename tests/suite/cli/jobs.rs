//! `cosmo jobs`: a store with jobs that failed for good, listed with their errors,
//! counted, and retried back to pending.

use cosmo_shared::queue::{JobKind, JobState, NewJob};
use cosmo_tests::{process, stores};
use serde_json::json;

use super::cosmo;
use crate::jobs_admin::dead_jobs;

#[tokio::test]
async fn jobs_are_listed_counted_and_retried_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let svc = stores::sqlite(dir.path()).await;
    let dead = dead_jobs(&svc, &["model refused: quota exhausted", "graph conflict"]).await;
    let pending = svc
        .queue
        .enqueue(NewJob::new(
            JobKind::ProcessSource,
            json!({"entity_key": "k"}),
        ))
        .await
        .unwrap()
        .job_id()
        .to_owned();
    let db = dir.path().join("cosmo.db");
    let env = process::env(&format!("sqlite://{}", db.display()), &db, &[]);
    let run = |args: &'static [&'static str]| cosmo(args, dir.path(), &env);
    let state = |id: String| {
        let svc = svc.clone();
        async move { svc.queue.job(&id).await.unwrap().unwrap().state() }
    };

    let listed = run(&["jobs", "list", "--state", "dead"]).await;
    assert!(listed.ok(), "{listed}");
    let lines: Vec<&str> = listed.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "a header and two jobs: {listed}");
    assert!(lines[0].starts_with("ID") && lines[0].contains("LAST_ERROR"));
    let row = lines
        .iter()
        .find(|l| l.starts_with(dead[0].as_str()))
        .expect("the first dead job is listed");
    for cell in ["reconcile", "dead", "1/3", "model refused: quota exhausted"] {
        assert!(row.contains(cell), "{cell} in {row}");
    }
    let all = run(&["jobs", "list"]).await;
    assert_eq!(all.stdout.lines().count(), 4, "every job: {all}");
    let by_kind = run(&["jobs", "list", "--kind", "process-source"]).await;
    assert!(
        by_kind
            .stdout
            .lines()
            .nth(1)
            .is_some_and(|l| l.starts_with(&pending) && l.contains("pending")),
        "{by_kind}"
    );

    let counts = run(&["jobs", "counts"]).await;
    assert!(counts.ok(), "{counts}");
    let cells = |kind: &str| -> Vec<String> {
        counts
            .stdout
            .lines()
            .find(|l| l.starts_with(kind))
            .unwrap_or_else(|| panic!("a {kind} row: {counts}"))
            .split_whitespace()
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(
        cells("KIND"),
        ["KIND", "PENDING", "RUNNING", "DONE", "FAILED", "DEAD"]
    );
    assert_eq!(cells("reconcile"), ["reconcile", "0", "0", "0", "0", "2"]);
    assert_eq!(
        cells("process-source"),
        ["process-source", "1", "0", "0", "0", "0"]
    );
    assert_eq!(cells("TOTAL"), ["TOTAL", "1", "0", "0", "0", "2"]);

    for (args, expected) in [
        (
            &["jobs", "list", "--state", "zombie"][..],
            "unknown value `zombie`, expected one of: pending running done failed dead",
        ),
        (
            &["jobs", "list", "--kind", "teleport"][..],
            "unknown value `teleport`",
        ),
        (&["jobs", "retry"][..], "required"),
    ] {
        let refused = cosmo(args, dir.path(), &env).await;
        assert!(!refused.ok(), "{args:?}: {refused}");
        assert!(refused.stderr.contains(expected), "{args:?}: {refused}");
    }

    let retried = cosmo(&["jobs", "retry", &dead[0]], dir.path(), &env).await;
    assert!(retried.ok(), "{retried}");
    assert!(
        retried
            .stdout
            .contains(&format!("retried {} (reconcile, was dead)", dead[0])),
        "{retried}"
    );
    assert_eq!(state(dead[0].clone()).await, JobState::Pending);
    let again = cosmo(
        &["jobs", "retry", &dead[0], "01JNOSUCHJOB0000000000000"],
        dir.path(),
        &env,
    )
    .await;
    assert!(!again.ok(), "{again}");
    assert!(
        again
            .stderr
            .contains(&format!("job {} is pending", dead[0])),
        "{again}"
    );
    assert!(
        again.stderr.contains("no job 01JNOSUCHJOB0000000000000"),
        "{again}"
    );

    let none = run(&["jobs", "retry", "--failed", "--kind", "process-source"]).await;
    assert!(
        none.stdout.contains("retried 0 dead process-source job(s)"),
        "{none}"
    );
    let rest = run(&["jobs", "retry", "--failed"]).await;
    assert!(rest.ok(), "{rest}");
    assert!(rest.stdout.contains("retried 1 dead job(s)"), "{rest}");
    assert_eq!(state(dead[1].clone()).await, JobState::Pending);
    let empty = run(&["jobs", "list", "--state", "dead"]).await;
    assert_eq!((empty.ok(), empty.stdout.as_str()), (true, ""), "{empty}");
}
