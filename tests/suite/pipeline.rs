//! The pipeline's jobs run in-process on the embedded store: what they extract, that
//! re-running them changes nothing, that a Source joins an existing Storyline, and that
//! the reconciler finds work the queue never got.

use chrono::{DateTime, Duration, Utc};
use cosmo_shared::clock::Clock;
use cosmo_shared::domain::{ExtractionStatus, NewStoryline, NodeKind, ProcessingStatus};
use cosmo_shared::graph::GraphSnapshot;
use cosmo_shared::ids;
use cosmo_shared::queue::JobKind;
use cosmo_shared::queue::payloads::{ExtractEntities, ProcessSource};
use cosmo_shared::services::Services;
use cosmo_tests::{fixtures, stores};
use cosmo_workers::dispatch::Dispatcher;
use serde_json::{Value, json};

fn t0() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-11-10T12:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

/// Writes a Source as the API would (without enqueueing) and returns its key.
async fn ingest(svc: &Services, body: Value) -> String {
    cosmo_tests::ingest::store(svc, "default", body).await
}

async fn run(d: &Dispatcher, kind: JobKind, payload: Value) {
    d.run(kind, &payload, None)
        .await
        .unwrap_or_else(|e| panic!("{kind} failed: {e}"));
}

async fn process_and_extract(svc: &Services, key: &str, user: &str) {
    cosmo_tests::ingest::process(svc, key, user).await;
}

#[tokio::test]
async fn a_meeting_yields_people_concepts_entities_and_notes() {
    let dir = tempfile::tempdir().unwrap();
    let (svc, _clock) = stores::manual_clock(stores::sqlite(dir.path()).await, t0());
    svc.graph
        .upsert_owner("alex", "Alex Johnson", t0())
        .await
        .unwrap();
    let key = ingest(&svc, fixtures::meeting("alex")).await;
    process_and_extract(&svc, &key, "alex").await;

    let source = svc.graph.source(&key).await.unwrap().unwrap();
    assert_eq!(source.processing_status, ProcessingStatus::Extracted);
    assert!(
        !source.summary.is_empty()
            && (5..=10).contains(&source.keywords.len())
            && (3..=5).contains(&source.tags.len()),
        "{source:?}"
    );
    assert!(
        !source.content.contains("Um,") && !source.content.contains("you you"),
        "disfluencies removed: {}",
        source.content
    );
    assert_eq!(source.embedding.as_ref().map(Vec::len), Some(384));

    let snap = GraphSnapshot::of_user(&*svc.graph, "alex").await.unwrap();
    for (name, kind) in [
        ("Sarah Chen", NodeKind::Person),
        ("Priya Patel", NodeKind::Person),
        ("Acme Corp", NodeKind::Entity),
        ("hiring plan", NodeKind::Concept),
    ] {
        let node = snap.node_named(name).unwrap_or_else(|| {
            panic!(
                "{name} missing from {:#?}",
                snap.nodes.iter().map(|n| &n.name).collect::<Vec<_>>()
            )
        });
        assert_eq!(node.identity.kind, kind, "{name}");
        assert!(
            node.lifecycle.confidence >= 0.7,
            "{name} passed the confidence filter"
        );
        assert!(
            snap.mentions
                .iter()
                .any(|m| m.entity_key == node.entity_key && m.source_key == key),
            "{name} is mentioned"
        );
        assert_eq!(node.counters.source_count, 1);
    }
    let owner = snap
        .nodes
        .iter()
        .find(|n| n.is_owner)
        .expect("owner person");
    assert_eq!(
        snap.nodes
            .iter()
            .filter(|n| n.identity.name == "alex-johnson")
            .count(),
        1,
        "the owner is not duplicated"
    );
    assert!(
        snap.mentions
            .iter()
            .any(|m| m.entity_key == owner.entity_key),
        "the owner spoke in the meeting"
    );
    let sarah = snap.node_named("Sarah Chen").unwrap();
    assert!(
        !sarah.notes.is_empty()
            && sarah
                .notes
                .iter()
                .all(|n| n.source_id.as_deref() == Some(key.as_str()) && n.added_by == "alex")
    );
    assert!(
        !snap.relationships.is_empty(),
        "co-occurring people and things are linked"
    );
    assert!(
        !snap
            .nodes
            .iter()
            .any(|n| ["monday", "the", "yesterday", "okay"].contains(&n.identity.name.as_str()))
    );
}

#[tokio::test]
async fn running_every_job_twice_leaves_the_graph_of_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let (svc, clock) = stores::manual_clock(stores::sqlite(dir.path()).await, t0());
    svc.graph
        .upsert_owner("alex", "Alex Johnson", t0())
        .await
        .unwrap();
    let mut keys = Vec::new();
    for (_, body) in fixtures::every_type("alex") {
        let key = ingest(&svc, body).await;
        process_and_extract(&svc, &key, "alex").await;
        keys.push(key);
    }
    let once = GraphSnapshot::of_user(&*svc.graph, "alex").await.unwrap();
    assert_eq!(once.sources.len(), 6);
    assert!(
        once.sources
            .iter()
            .all(|s| s.processing_status == ProcessingStatus::Extracted)
    );
    assert!(
        once.nodes.len() > 5 && !once.relationships.is_empty(),
        "the sources produced a graph"
    );

    clock.advance(Duration::hours(5));
    for key in &keys {
        process_and_extract(&svc, key, "alex").await;
    }
    assert_eq!(
        GraphSnapshot::of_user(&*svc.graph, "alex").await.unwrap(),
        once
    );
}

#[tokio::test]
async fn a_new_source_joins_the_storyline_of_its_anchor() {
    let dir = tempfile::tempdir().unwrap();
    let (svc, clock) = stores::manual_clock(stores::sqlite(dir.path()).await, t0());
    let meeting = |day: i64| {
        let mut body = fixtures::meeting("alex");
        body["started_at"] = json!((t0() + Duration::days(day)).to_rfc3339());
        body.as_object_mut().unwrap().remove("ended_at");
        body["raw_content"]["title"] = json!(format!("Acme sync {day}"));
        body
    };
    let mut keys = Vec::new();
    for day in 0..5 {
        let key = ingest(&svc, meeting(day)).await;
        process_and_extract(&svc, &key, "alex").await;
        keys.push(key);
    }
    let snap = GraphSnapshot::of_user(&*svc.graph, "alex").await.unwrap();
    let sarah = snap.node_named("Sarah Chen").unwrap();
    assert_eq!(
        (
            sarah.counters.source_count,
            sarah.counters.distinct_source_days
        ),
        (5, 5)
    );
    let storyline_id = ids::storyline_id(&sarah.entity_key, &keys[0]);
    svc.graph
        .create_storyline(&NewStoryline {
            storyline_id: storyline_id.clone(),
            user_id: "alex".into(),
            anchor_key: sarah.entity_key.clone(),
            description: "Sarah Chen and the Acme Corp launch.".into(),
            embedding: None,
            source_keys: keys.clone(),
            at: clock.now(),
        })
        .await
        .unwrap();

    clock.advance(Duration::days(6));
    let late = ingest(&svc, meeting(6)).await;
    process_and_extract(&svc, &late, "alex").await;
    let st = svc.graph.storyline(&storyline_id).await.unwrap().unwrap();
    assert_eq!(st.source_count, 6);
    assert!(st.is_dirty, "marked for the next refresh");
    assert!(
        svc.graph
            .storyline_sources(&storyline_id)
            .await
            .unwrap()
            .contains(&late)
    );
}

#[tokio::test]
async fn the_reconciler_requeues_work_the_queue_never_got() {
    let dir = tempfile::tempdir().unwrap();
    let (svc, clock) = stores::manual_clock(stores::sqlite(dir.path()).await, t0());
    let d = Dispatcher::new(svc.clone());
    // The API stored these but could not enqueue (queue down).
    let raw = ingest(&svc, fixtures::text_note("alex")).await;
    let team = ingest(&svc, fixtures::team_meeting("alex", &["alex", "bob"])).await;
    process_and_extract(&svc, &team, "alex").await;
    svc.graph
        .request_extraction(&team, "bob", clock.now())
        .await
        .unwrap();

    run(&d, JobKind::Reconcile, json!({})).await;
    assert!(
        svc.queue
            .job_by_key(JobKind::ProcessSource, &raw)
            .await
            .unwrap()
            .is_none(),
        "too recent to be stuck"
    );

    clock.advance(Duration::minutes(10));
    run(&d, JobKind::Reconcile, json!({})).await;
    let job = svc
        .queue
        .job_by_key(JobKind::ProcessSource, &raw)
        .await
        .unwrap()
        .expect("re-enqueued");
    assert_eq!(job.status, "Pending");
    let bob_job = svc
        .queue
        .job_by_key(
            JobKind::ExtractEntities,
            &ExtractEntities::key(&team, "bob"),
        )
        .await
        .unwrap();
    assert!(
        bob_job.is_some(),
        "a requested extraction without a job gets one"
    );
    let pending = async || -> i64 {
        svc.queue
            .counts()
            .await
            .unwrap()
            .iter()
            .filter(|c| c.status == "Pending")
            .map(|c| c.count)
            .sum()
    };
    // The two re-queued jobs, and the owner's extraction job queued by processing.
    assert_eq!(pending().await, 3);
    run(&d, JobKind::Reconcile, json!({})).await;
    assert_eq!(pending().await, 3, "a second run adds nothing");
    assert_eq!(
        svc.graph
            .extraction(&team, "bob")
            .await
            .unwrap()
            .unwrap()
            .status,
        ExtractionStatus::Pending
    );
}

#[tokio::test]
async fn a_participant_who_asks_before_processing_is_extracted_after_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cosmo.db");
    let mut config = stores::test_config(&format!("sqlite://{}", db.display()), &db);
    config.workers.jobs = vec!["extract-entities".into()];
    let svc = stores::connect(config).await;
    let (stop, rx) = tokio::sync::watch::channel(false);
    let stopped = move || {
        let mut rx = rx.clone();
        async move {
            let _ = rx.wait_for(|s| *s).await;
        }
    };
    let workers = tokio::spawn(cosmo_workers::process::run(svc.clone(), stopped()));

    let key = ingest(&svc, fixtures::team_meeting("alex", &["bob"])).await;
    cosmo_pipeline::request_extraction(&svc, &key, "bob", None)
        .await
        .unwrap();
    let job_key = ExtractEntities::key(&key, "bob");
    cosmo_tests::wait_for(
        "bob's early job to run",
        std::time::Duration::from_secs(20),
        || async {
            svc.queue
                .job_by_key(JobKind::ExtractEntities, &job_key)
                .await
                .unwrap()
                .filter(|j| j.status == "Done")
        },
    )
    .await;
    let record = svc.graph.extraction(&key, "bob").await.unwrap().unwrap();
    assert_eq!(
        record.status,
        ExtractionStatus::Pending,
        "nothing to extract from a raw source yet"
    );
    assert!(
        svc.graph
            .nodes_for_user("bob", None, 10)
            .await
            .unwrap()
            .is_empty()
    );

    // Processing finishes (no process-source worker runs here; the job runs directly).
    let d = Dispatcher::new(svc.clone());
    run(
        &d,
        JobKind::ProcessSource,
        json!(ProcessSource {
            entity_key: key.clone()
        }),
    )
    .await;
    cosmo_tests::wait_for(
        "bob's extraction",
        std::time::Duration::from_secs(20),
        || async {
            svc.graph
                .extraction(&key, "bob")
                .await
                .unwrap()
                .filter(|r| r.status == ExtractionStatus::Extracted)
        },
    )
    .await;
    assert!(
        !svc.graph
            .nodes_for_user("bob", None, 10)
            .await
            .unwrap()
            .is_empty()
    );
    let _ = stop.send(true);
    workers.await.unwrap().unwrap();
}

#[tokio::test]
async fn the_reconciler_leaves_jobs_that_gave_up_to_the_operator() {
    let dir = tempfile::tempdir().unwrap();
    let (svc, clock) = stores::manual_clock(stores::sqlite(dir.path()).await, t0());
    let key = ingest(&svc, fixtures::text_note("alex")).await;
    let d = Dispatcher::new(svc.clone());
    run(
        &d,
        JobKind::ProcessSource,
        json!(ProcessSource {
            entity_key: key.clone()
        }),
    )
    .await;
    // The owner's extraction job failed for good.
    let job = svc
        .queue
        .job_by_key(
            JobKind::ExtractEntities,
            &ExtractEntities::key(&key, "alex"),
        )
        .await
        .unwrap()
        .unwrap();
    let cosmo_shared::db::Db::Sqlite(pool) = &svc.db else {
        unreachable!()
    };
    sqlx::query("UPDATE Jobs SET status = 'Killed' WHERE id = $1")
        .bind(&job.job_id)
        .execute(pool)
        .await
        .unwrap();
    svc.graph
        .record_extraction_error(&key, "alex", "model refused", true, clock.now())
        .await
        .unwrap();

    clock.advance(Duration::hours(1));
    run(&d, JobKind::Reconcile, json!({})).await;
    assert_eq!(
        svc.graph
            .extraction(&key, "alex")
            .await
            .unwrap()
            .unwrap()
            .status,
        ExtractionStatus::Failed
    );
    assert_eq!(
        svc.queue.job(&job.job_id).await.unwrap().unwrap().status,
        "Killed",
        "an operator decides"
    );
}

/// A long chat whose one fact ("Lisbon") sits in the middle of small talk, so the
/// summary leaves it out and only a passage holds it.
fn long_chat(user: &str) -> Value {
    let filler = [
        ("Alex Johnson", "Hey Priya, how was your week?"),
        ("Priya Patel", "Busy but good, work has been a lot lately."),
        ("Alex Johnson", "Same here, I barely had time to cook."),
        ("Priya Patel", "We should get dinner together soon."),
        (
            "Alex Johnson",
            "Definitely, let's plan something for the weekend.",
        ),
        ("Priya Patel", "Talk soon, take care!"),
    ];
    let mut turns: Vec<(&str, &str)> = filler
        .iter()
        .chain(&filler)
        .chain(&filler)
        .copied()
        .collect();
    turns.insert(
        9,
        (
            "Priya Patel",
            "Oh, and my sister Ines finally moved to Lisbon for her new job at the aquarium.",
        ),
    );
    let lines: Vec<String> = turns
        .iter()
        .map(|(speaker, text)| json!({ "speaker": speaker, "text": text }).to_string())
        .collect();
    json!({
        "user_id": user, "participants": [user, "priya"], "source_type": "conversation",
        "raw_content": { "content": lines.join("\n") },
    })
}

/// Calls recorded in the usage ledger for `process-source`, by model.
async fn process_source_calls(svc: &Services) -> std::collections::BTreeMap<String, i64> {
    let cosmo_shared::db::Db::Sqlite(pool) = &svc.db else {
        unreachable!()
    };
    sqlx::query_as::<_, (String, i64)>(
        "SELECT model, count(*) FROM cosmo_usage WHERE job_kind = 'process-source' GROUP BY model",
    )
    .fetch_all(pool)
    .await
    .unwrap()
    .into_iter()
    .collect()
}

/// What explore finds for alex, at granularity 1.
async fn explore(svc: &Services, query: &str) -> cosmo_pipeline::retrieval::Exploration {
    let input = cosmo_shared::domain::input::read::ExploreInput::parse(json!({
        "user_id": "alex", "queries": [{ "query": query }], "limit": 5,
    }))
    .unwrap();
    cosmo_pipeline::retrieval::explore(svc, &input, None)
        .await
        .unwrap()
}

/// An installation upgraded from a version that indexed Sources with another embedder
/// and no passages: one reconcile run queues the Source's process-source job again,
/// which embeds the stored summary and content (no cleanup, no summary call); then
/// explore finds it by a fact only a passage holds, with that passage as evidence.
#[tokio::test]
async fn the_reconciler_reindexes_a_source_an_older_version_processed() {
    let dir = tempfile::tempdir().unwrap();
    let (svc, clock) = stores::manual_clock(stores::sqlite(dir.path()).await, t0());
    let d = Dispatcher::new(svc.clone());
    let key = ingest(&svc, long_chat("alex")).await;
    process_and_extract(&svc, &key, "alex").await;
    let current = svc.config.models.embedder_fingerprint();
    let processed = svc.graph.source(&key).await.unwrap().unwrap();
    assert_eq!(processed.embedded_with.as_deref(), Some(current.as_str()));
    assert!(
        !processed.summary.contains("Lisbon"),
        "the premise: the summary leaves the fact out: {}",
        processed.summary
    );

    // What an older version left: the same content and summary, the summary's vector
    // from another embedder, no passages.
    let older = "offline:an-older-embedder:384";
    assert_ne!(older, current);
    let dims = svc.config.models.embedding_dimensions;
    let foreign: Vec<f32> = (0..dims)
        .map(|i| if i % 7 == 0 { 1.0 } else { 0.0 })
        .collect();
    assert!(
        svc.graph
            .save_processed(
                &key,
                &cosmo_shared::domain::ProcessedContent {
                    content: processed.content.clone(),
                    summary: processed.summary.clone(),
                    keywords: processed.keywords.clone(),
                    tags: processed.tags.clone(),
                    embedding: foreign.clone(),
                    passages: Vec::new(),
                    embedded_with: older.into(),
                },
                clock.now(),
            )
            .await
            .unwrap()
    );
    let before = svc.graph.source(&key).await.unwrap().unwrap();
    assert_eq!(before.processing_status, ProcessingStatus::Extracted);
    assert!(
        svc.graph
            .passages(std::slice::from_ref(&key))
            .await
            .unwrap()
            .is_empty()
    );
    let question = "Where does Priya's sister live now?";
    let found = explore(&svc, question).await;
    let hit = &found.sources.as_ref().unwrap()[0];
    assert_eq!(hit.item.entity_key, key, "found by its words: {found:#?}");
    assert_eq!(hit.item.passage, None, "before: no passage to show");
    let calls_before = process_source_calls(&svc).await;

    clock.advance(Duration::minutes(10));
    let reconciled = Dispatcher::new(svc.clone())
        .execute(JobKind::Reconcile, &json!({}), None, None)
        .await
        .unwrap()
        .unwrap();
    let details: Value = serde_json::from_str(&reconciled.details).unwrap();
    assert_eq!(
        (&details["stale_sources"], &details["sources_reindexed"]),
        (&json!(1), &json!(1)),
        "{details}"
    );
    let job = svc
        .queue
        .job_by_key(JobKind::ProcessSource, &key)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(job.status, "Pending", "its finished job revived");
    run(
        &d,
        JobKind::ProcessSource,
        json!(ProcessSource {
            entity_key: key.clone()
        }),
    )
    .await;

    let after = svc.graph.source(&key).await.unwrap().unwrap();
    assert_eq!(after.embedded_with.as_deref(), Some(current.as_str()));
    assert_ne!(after.embedding.as_deref(), Some(&foreign[..]));
    assert_eq!(
        (
            &after.content,
            &after.summary,
            &after.keywords,
            &after.tags,
            after.processing_status,
            after.processing_completed_at
        ),
        (
            &before.content,
            &before.summary,
            &before.keywords,
            &before.tags,
            before.processing_status,
            before.processing_completed_at
        ),
        "only the index changed"
    );
    let passages = svc
        .graph
        .passages(std::slice::from_ref(&key))
        .await
        .unwrap();
    assert!(
        passages.len() > 1 && passages.iter().any(|p| p.text.contains("Lisbon")),
        "{passages:#?}"
    );
    let mut calls = calls_before.clone();
    *calls
        .entry(cosmo_shared::llm::offline::EMBEDDING_MODEL.to_owned())
        .or_default() += 1;
    assert_eq!(
        process_source_calls(&svc).await,
        calls,
        "one embedding call; no cleanup, no summary"
    );

    let found = explore(&svc, question).await;
    let top = &found.sources.as_ref().unwrap()[0];
    assert_eq!(top.item.entity_key, key);
    let passage = top.item.passage.as_ref().expect("the evidence passage");
    assert!(passage.text.contains("Lisbon"), "{passage:?}");
    let vector = top
        .why
        .signals
        .iter()
        .find(|h| h.signal == cosmo_pipeline::retrieval::rank::Signal::Vector)
        .expect("found by the vector signal");
    assert!(vector.passage.is_some(), "by a passage: {vector:?}");

    // Done: the next run finds nothing stale and queues nothing.
    let again = Dispatcher::new(svc.clone())
        .execute(JobKind::Reconcile, &json!({}), None, None)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((again.examined, again.changed), (0, 0), "{}", again.details);
}

/// A Source processed by the configured embedder is never queued again.
#[tokio::test]
async fn the_reconciler_leaves_sources_indexed_by_the_current_embedder() {
    let dir = tempfile::tempdir().unwrap();
    let (svc, clock) = stores::manual_clock(stores::sqlite(dir.path()).await, t0());
    let key = ingest(&svc, fixtures::text_note("alex")).await;
    process_and_extract(&svc, &key, "alex").await;
    let calls = process_source_calls(&svc).await;

    clock.advance(Duration::hours(1));
    let reconciled = Dispatcher::new(svc.clone())
        .execute(JobKind::Reconcile, &json!({}), None, None)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (reconciled.examined, reconciled.changed),
        (0, 0),
        "{}",
        reconciled.details
    );
    assert!(
        svc.graph
            .stale_index(&svc.config.models.embedder_fingerprint(), 10)
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        svc.queue
            .job_by_key(JobKind::ProcessSource, &key)
            .await
            .unwrap()
            .map(|j| j.status),
        None,
        "no process-source job (the API's was never enqueued here)"
    );
    assert_eq!(process_source_calls(&svc).await, calls);
}
