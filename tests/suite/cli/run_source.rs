//! `cosmo run-job process-source|extract-entities --source …`: an operator runs one
//! Source's processing and a user's extraction of it now, on a store no worker serves.

use cosmo_shared::domain::{ExtractionStatus, ProcessingStatus};
use cosmo_shared::graph::snapshot::GraphSnapshot;
use cosmo_tests::{fixtures, ingest, process, stores};
use serde_json::Value;

use super::{Run, cosmo};

fn printed(run: &Run) -> Value {
    assert!(run.ok(), "{run}");
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {run}"))
}

#[tokio::test]
async fn an_operator_runs_a_sources_processing_and_its_owners_extraction_now() {
    let dir = tempfile::tempdir().unwrap();
    let svc = stores::sqlite(dir.path()).await;
    // Stored as a post stores it; no worker runs here.
    let key = ingest::store(&svc, "acme", fixtures::meeting("alex")).await;
    let db = dir.path().join("cosmo.db");
    let env = process::env(&format!("sqlite://{}", db.display()), &db, &[]);
    let processing = ["run-job", "process-source", "--source", &key];
    let extract = [
        "run-job",
        "extract-entities",
        "--source",
        &key,
        "--user",
        "alex",
    ];

    // Asked before the Source is processed, the extraction waits for it.
    let early = printed(&cosmo(&extract, dir.path(), &env).await);
    assert_eq!(early["status"], "pending", "{early}");
    assert_eq!(early["user_id"], "alex", "{early}");

    let processed = printed(&cosmo(&processing, dir.path(), &env).await);
    assert_eq!(processed["entity_key"], key.as_str());
    assert_eq!(processed["processing_status"], "processed", "{processed}");
    let source = svc.graph.source(&key).await.unwrap().unwrap();
    assert_eq!(source.processing_status, ProcessingStatus::Processed);
    assert!(!source.summary.is_empty(), "the model summarised it");

    let extracted = printed(&cosmo(&extract, dir.path(), &env).await);
    assert_eq!(extracted["status"], "extracted", "{extracted}");
    let record = svc.graph.extraction(&key, "alex").await.unwrap().unwrap();
    assert_eq!(record.status, ExtractionStatus::Extracted);
    // Run again, each leaves the graph as it was.
    let before = GraphSnapshot::of_user(&*svc.graph, "alex").await.unwrap();
    assert!(
        before.node_named("Sarah Chen").is_some(),
        "the meeting's people are in alex's graph: {:?}",
        before.nodes.iter().map(|n| &n.name).collect::<Vec<_>>()
    );
    printed(&cosmo(&processing, dir.path(), &env).await);
    printed(&cosmo(&extract, dir.path(), &env).await);
    let after = GraphSnapshot::of_user(&*svc.graph, "alex").await.unwrap();
    assert_eq!(before, after);
}

#[tokio::test]
async fn a_source_job_is_refused_with_what_is_missing_and_runs_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let svc = stores::sqlite(dir.path()).await;
    let key = ingest::store(&svc, "acme", fixtures::meeting("alex")).await;
    let db = dir.path().join("cosmo.db");
    let env = process::env(&format!("sqlite://{}", db.display()), &db, &[]);
    for (args, says) in [
        (
            vec!["run-job", "process-source", "--source", "no-such-key"],
            "no Source has the key no-such-key",
        ),
        (
            vec!["run-job", "process-source"],
            "process-source runs for one Source: give it with --source",
        ),
        (
            vec!["run-job", "extract-entities", "--source", &key],
            "extract-entities needs --user",
        ),
        (
            vec![
                "run-job",
                "extract-entities",
                "--source",
                &key,
                "--user",
                "bob",
            ],
            "bob is not a participant of Source",
        ),
        (
            vec![
                "run-job",
                "process-source",
                "--source",
                &key,
                "--as-of",
                "2026-12-01T00:00:00Z",
            ],
            "--as-of and --dry-run are for periodic jobs",
        ),
        (
            vec!["run-job", "decay", "--source", &key],
            "decay does not run for one Source",
        ),
    ] {
        let out = cosmo(&args, dir.path(), &env).await;
        assert!(!out.ok(), "{args:?} is refused: {out}");
        assert!(out.stderr.contains(says), "{args:?} says {says:?}: {out}");
    }
    let source = svc.graph.source(&key).await.unwrap().unwrap();
    assert_eq!(source.processing_status, ProcessingStatus::Raw);
    assert!(svc.graph.extraction(&key, "bob").await.unwrap().is_none());
}
