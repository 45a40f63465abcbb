//! The OpenAI-compatible provider, driven for real against an in-process server that
//! speaks the protocol: what Cosmo sends, how it treats malformed answers, rate limits
//! and outages, the note-taking agent's tool calls, and the usage ledger.

use chrono::{DateTime, Utc};
use cosmo_shared::config::{Config, Provider};
use cosmo_shared::domain::ProcessingStatus;
use cosmo_shared::graph::GraphSnapshot;
use cosmo_shared::queue::JobKind;
use cosmo_shared::queue::payloads::{ExtractEntities, ProcessSource};
use cosmo_shared::services::Services;
use cosmo_tests::openai::{self, Seen, StandIn};
use cosmo_tests::{fixtures, stores};
use cosmo_workers::dispatch::Dispatcher;
use serde_json::{Value, json};

const DIMS: usize = 8;
const KEY: &str = "test-key-for-the-stand-in";

/// Services on a fresh SQLite store whose `tasks` use the stand-in at `base_url`.
async fn services(dir: &std::path::Path, base_url: &str, tasks: &[&str]) -> Services {
    services_with(dir, base_url, tasks, |_| {}).await
}

/// [`services`], with `tweak` applied to the configuration last.
async fn services_with(
    dir: &std::path::Path,
    base_url: &str,
    tasks: &[&str],
    tweak: impl FnOnce(&mut Config),
) -> Services {
    let db = dir.join("cosmo.db");
    let mut config: Config = stores::test_config(&format!("sqlite://{}", db.display()), &db);
    config.models.embedding_dimensions = DIMS;
    let o = &mut config.models.openai;
    o.base_url = base_url.to_owned();
    o.api_key = KEY.to_owned();
    o.transport_retries = 2;
    o.malformed_retries = 2;
    o.timeout_secs = 10;
    let p = &mut config.models.providers;
    for task in tasks {
        match *task {
            "processing" => p.processing = Provider::Openai,
            "extraction" => p.extraction = Provider::Openai,
            "notes" => p.notes = Provider::Openai,
            "embeddings" => p.embeddings = Provider::Openai,
            "causes" => p.causes = Provider::Openai,
            other => panic!("unknown task {other}"),
        }
    }
    tweak(&mut config);
    stores::connect(config).await
}

async fn ingest(svc: &Services, body: Value) -> String {
    cosmo_tests::ingest::store(svc, "acme", body).await
}

fn facts() -> Value {
    json!({ "summary": "Alex and Sarah planned the Acme launch in Berlin.",
            "keywords": ["acme", "berlin", "launch", "hiring plan", "security review"],
            "tags": ["work", "planning", "meeting"] })
}

/// Answers like a well-behaved model: notes for transcripts, facts for the schema,
/// vectors for embeddings.
fn good(seen: &Seen) -> (u16, Value) {
    match (seen.endpoint, seen.schema_name()) {
        ("embeddings", _) => openai::embeddings(seen, DIMS),
        (_, Some("source_facts")) => openai::chat(&facts().to_string(), 120, 40),
        _ => openai::chat(
            "Alex Johnson: Let's start.\nSarah Chen: Acme signed the pilot.",
            200,
            30,
        ),
    }
}

#[tokio::test]
async fn processing_makes_one_structured_call_and_embeds_summary_and_passages() {
    let standin = StandIn::start(|seen, _| good(seen)).await;
    let dir = tempfile::tempdir().unwrap();
    let svc = services(dir.path(), &standin.base_url, &["processing", "embeddings"]).await;
    let key = ingest(&svc, fixtures::meeting("alex")).await;
    Dispatcher::new(svc.clone())
        .run(
            JobKind::ProcessSource,
            &json!(ProcessSource {
                entity_key: key.clone()
            }),
            None,
        )
        .await
        .unwrap();

    let source = svc.graph.source(&key).await.unwrap().unwrap();
    assert_eq!(source.processing_status, ProcessingStatus::Processed);
    assert_eq!(source.summary, facts()["summary"]);
    assert_eq!(source.keywords.len(), 5);
    assert_eq!(source.tags, ["work", "planning", "meeting"]);
    assert!(
        source.content.starts_with("Alex Johnson: Let's start."),
        "the cleaned transcript is kept"
    );
    assert_eq!(source.embedding.as_ref().map(Vec::len), Some(DIMS));

    let requests = standin.requests();
    assert_eq!(
        requests.len(),
        3,
        "cleanup, one call for summary+keywords+tags, one embedding"
    );
    assert!(
        requests
            .iter()
            .all(|r| r.authorization.as_deref() == Some(&format!("Bearer {KEY}") as &str))
    );
    let (clean, describe, embed) = (&requests[0], &requests[1], &requests[2]);
    assert_eq!(clean.body["model"], "gpt-5-nano");
    assert!(
        clean.body["messages"][1]["content"]
            .as_str()
            .unwrap()
            .contains("Um, okay, let's start"),
        "the raw transcript goes to cleanup"
    );
    assert_eq!(
        (describe.body["model"].as_str(), describe.schema_name()),
        (Some("gpt-5-nano"), Some("source_facts"))
    );
    assert_eq!(
        describe.body["response_format"]["json_schema"]["strict"],
        true
    );
    assert!(
        describe.body["messages"][1]["content"]
            .as_str()
            .unwrap()
            .contains("Acme signed the pilot"),
        "the cleaned text is described"
    );
    assert_eq!(
        (
            embed.body["model"].as_str(),
            embed.body["dimensions"].as_u64()
        ),
        (Some("text-embedding-3-small"), Some(DIMS as u64))
    );
    assert_eq!(
        embed.body["input"],
        json!([
            facts()["summary"],
            "Alex Johnson: Let's start.\nSarah Chen: Acme signed the pilot."
        ]),
        "the summary and the content's passages are embedded, in one call"
    );
}

#[tokio::test]
async fn malformed_answers_are_asked_again_then_fail_the_job_without_writes() {
    // The first two structured answers are broken; the third is fine.
    let standin = StandIn::start(|seen, _| match seen.schema_name() {
        Some("source_facts") => {
            let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            match n {
                0 => openai::chat("this is not JSON", 50, 5),
                1 => openai::chat(
                    &json!({ "summary": "", "keywords": ["a"], "tags": ["b"] }).to_string(),
                    50,
                    5,
                ),
                _ => good(seen),
            }
        }
        _ => good(seen),
    })
    .await;
    static COUNT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let dir = tempfile::tempdir().unwrap();
    let svc = services(dir.path(), &standin.base_url, &["processing"]).await;
    let key = ingest(&svc, fixtures::text_note("alex")).await;
    let d = Dispatcher::new(svc.clone());
    d.run(
        JobKind::ProcessSource,
        &json!(ProcessSource {
            entity_key: key.clone()
        }),
        None,
    )
    .await
    .unwrap();
    assert_eq!(
        svc.graph.source(&key).await.unwrap().unwrap().summary,
        facts()["summary"]
    );
    assert_eq!(
        standin
            .requests()
            .iter()
            .filter(|r| r.schema_name() == Some("source_facts"))
            .count(),
        3
    );

    // A model that never answers in shape fails the attempt and writes nothing.
    let broken = StandIn::start(|seen, _| match seen.schema_name() {
        Some(_) => openai::chat("{\"summary\": 3}", 50, 5),
        None => good(seen),
    })
    .await;
    let dir = tempfile::tempdir().unwrap();
    let svc = services(dir.path(), &broken.base_url, &["processing"]).await;
    let key = ingest(&svc, fixtures::text_note("alex")).await;
    let err = Dispatcher::new(svc.clone())
        .run(
            JobKind::ProcessSource,
            &json!(ProcessSource {
                entity_key: key.clone()
            }),
            None,
        )
        .await
        .unwrap_err();
    assert!(err.message.contains("malformed"), "{}", err.message);
    let source = svc.graph.source(&key).await.unwrap().unwrap();
    assert_eq!(
        (source.processing_status, source.summary.as_str()),
        (ProcessingStatus::Raw, "")
    );
    assert_eq!(
        broken
            .requests()
            .iter()
            .filter(|r| r.schema_name().is_some())
            .count(),
        3,
        "1 + 2 retries"
    );
}

#[tokio::test]
async fn rate_limits_back_off_and_an_outage_delays_work_without_losing_it() {
    let standin = StandIn::start(|seen, i| {
        if i < 2 {
            openai::error(429, "slow down")
        } else {
            good(seen)
        }
    })
    .await;
    let dir = tempfile::tempdir().unwrap();
    let svc = services(dir.path(), &standin.base_url, &["processing"]).await;
    let key = ingest(&svc, fixtures::text_note("alex")).await;
    Dispatcher::new(svc.clone())
        .run(
            JobKind::ProcessSource,
            &json!(ProcessSource {
                entity_key: key.clone()
            }),
            None,
        )
        .await
        .unwrap();
    assert_eq!(
        svc.graph
            .source(&key)
            .await
            .unwrap()
            .unwrap()
            .processing_status,
        ProcessingStatus::Processed
    );
    assert_eq!(
        standin.requests().len(),
        3,
        "two 429s retried within the attempt"
    );

    // A provider that is down: the attempt fails as retryable, nothing is written, and
    // the same job succeeds once the provider is back.
    static UP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    let flaky = StandIn::start(|seen, _| {
        if UP.load(std::sync::atomic::Ordering::SeqCst) {
            good(seen)
        } else {
            openai::error(503, "maintenance")
        }
    })
    .await;
    let dir = tempfile::tempdir().unwrap();
    let svc = services(dir.path(), &flaky.base_url, &["processing"]).await;
    let key = ingest(&svc, fixtures::text_note("alex")).await;
    let d = Dispatcher::new(svc.clone());
    let job = json!(ProcessSource {
        entity_key: key.clone()
    });
    let err = d.run(JobKind::ProcessSource, &job, None).await.unwrap_err();
    assert!(
        err.retryable && err.message.contains("unavailable"),
        "{err:?}"
    );
    assert_eq!(
        svc.graph
            .source(&key)
            .await
            .unwrap()
            .unwrap()
            .processing_status,
        ProcessingStatus::Raw
    );
    UP.store(true, std::sync::atomic::Ordering::SeqCst);
    d.run(JobKind::ProcessSource, &job, None).await.unwrap();
    assert_eq!(
        svc.graph
            .source(&key)
            .await
            .unwrap()
            .unwrap()
            .processing_status,
        ProcessingStatus::Processed
    );
}

/// An embedding model that is down, or too slow, does not take retrieval with it:
/// explore and context answer from full text and graph links, say so, and use the model
/// again once it is back.
#[tokio::test]
async fn retrieval_answers_from_words_while_the_embedding_model_is_down() {
    use cosmo_pipeline::retrieval::rank::Signal;
    use cosmo_shared::domain::input::read::{ContextInput, ExploreInput};
    use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
    static UP: AtomicBool = AtomicBool::new(true);
    let standin = StandIn::start(|seen, _| {
        if UP.load(SeqCst) {
            good(seen)
        } else {
            openai::error(503, "maintenance")
        }
    })
    .await;
    let dir = tempfile::tempdir().unwrap();
    let svc = services(dir.path(), &standin.base_url, &["embeddings"]).await;
    let key = ingest(&svc, fixtures::text_note("alex")).await;
    let d = Dispatcher::new(svc.clone());
    let process = json!(ProcessSource {
        entity_key: key.clone()
    });
    d.run(JobKind::ProcessSource, &process, None).await.unwrap();
    let extract = json!(ExtractEntities {
        entity_key: key.clone(),
        user_id: "alex".into(),
    });
    d.run(JobKind::ExtractEntities, &extract, None)
        .await
        .unwrap();

    let question = "how are the tomatoes in the garden?";
    let explore_input = ExploreInput::parse(json!({
        "user_id": "alex", "queries": [{ "query": question }],
    }))
    .unwrap();
    let context_input =
        ContextInput::parse(json!({ "user_id": "alex", "message": question })).unwrap();
    let signals_of_the_note = |found: &cosmo_pipeline::retrieval::Exploration| {
        let sources = found.sources.as_deref().unwrap_or_default();
        let hit = sources.iter().find(|r| r.item.entity_key == key);
        let hit = hit.unwrap_or_else(|| panic!("the garden note is found: {found:?}"));
        let mut signals: Vec<Signal> = hit.why.signals.iter().map(|s| s.signal).collect();
        signals.dedup();
        signals
    };

    // The operator sees each degraded request in `cosmo_retrieval_degraded_total`.
    let degraded = || async {
        let text =
            cosmo_shared::metrics::render(async { Ok::<_, std::convert::Infallible>(Vec::new()) })
                .await;
        let s = cosmo_tests::prometheus::Scrape::parse(&text);
        [
            ("explore", "unavailable"),
            ("context", "unavailable"),
            ("explore", "timeout"),
        ]
        .map(|(activity, reason)| {
            s.value(
                "cosmo_retrieval_degraded_total",
                &[("activity", activity), ("reason", reason)],
            )
            .unwrap_or(0.0)
        })
    };
    let before = degraded().await;

    UP.store(false, SeqCst);
    let calls = standin.requests().len();
    let down = cosmo_pipeline::retrieval::explore(&svc, &explore_input, None)
        .await
        .expect("explore answers while the embedding model is down");
    let why = down.degraded.as_deref().unwrap_or_default();
    assert!(why.contains("embedding model is unavailable"), "{down:?}");
    assert!(!signals_of_the_note(&down).contains(&Signal::Vector));
    assert!(signals_of_the_note(&down).contains(&Signal::Text));
    assert!(
        standin.requests().len() > calls,
        "the model was asked, and failed"
    );
    let context = cosmo_pipeline::retrieval::context::build(&svc, &context_input, None)
        .await
        .expect("context answers while the embedding model is down");
    assert!(context.degraded.is_some(), "{context:?}");
    assert!(
        context.memories.iter().any(|m| m.key == key),
        "the note is in the context: {context:?}"
    );

    UP.store(true, SeqCst);
    let up = cosmo_pipeline::retrieval::explore(&svc, &explore_input, None)
        .await
        .unwrap();
    assert_eq!(up.degraded, None);
    assert!(signals_of_the_note(&up).contains(&Signal::Vector), "{up:?}");
    let context = cosmo_pipeline::retrieval::context::build(&svc, &context_input, None)
        .await
        .unwrap();
    assert_eq!(context.degraded, None);
    let counted = degraded().await;
    assert_eq!(
        [0, 1, 2].map(|i| counted[i] - before[i]),
        [1.0, 1.0, 0.0],
        "one degraded explore and one context counted, as unavailable; none once it is back"
    );

    // A model that takes connections and never answers: explore gives up after
    // `retrieval.embedding_timeout_ms` (the message says so), not the provider's own
    // 10 s timeout.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let silent_url = format!("http://{}/v1", silent.local_addr().unwrap());
    let held = tokio::spawn(async move {
        let mut open = Vec::new();
        while let Ok((conn, _)) = silent.accept().await {
            open.push(conn);
        }
    });
    let slow = services_with(dir.path(), &silent_url, &["embeddings"], |c| {
        c.retrieval.embedding_timeout_ms = 300;
    })
    .await;
    let waited = cosmo_pipeline::retrieval::explore(&slow, &explore_input, None)
        .await
        .expect("explore answers without the silent model");
    let why = waited.degraded.as_deref().unwrap_or_default();
    assert!(why.contains("no answer within 300 ms"), "{waited:?}");
    assert!(signals_of_the_note(&waited).contains(&Signal::Text));
    assert_eq!(
        degraded().await[2] - counted[2],
        1.0,
        "counted as a timeout"
    );
    held.abort();
}

fn extraction_answer() -> Value {
    let person = |name: &str| {
        json!({ "kind": "person", "name": name, "entity_type": null, "confidence": 9,
                                      "subpoints": ["leads the deal", "works at Acme", "runs the review"] })
    };
    json!({ "entities": [
        person("Sarah Chen"),
        { "kind": "entity", "name": "Acme Corp", "entity_type": "organization", "confidence": 8,
          "subpoints": ["signed the pilot", "wants a launch in Berlin", "asked for a review"] },
        { "kind": "concept", "name": "small talk", "entity_type": null, "confidence": 4, "subpoints": ["weather"] },
    ] })
}

#[tokio::test]
async fn the_note_taking_agent_writes_through_its_tools_and_usage_is_ledgered() {
    let standin = StandIn::start(|seen, _| {
        if seen.schema_name() == Some("extraction") {
            return openai::chat(&extraction_answer().to_string(), 300, 80);
        }
        if seen.has_tools() {
            let rounds = seen.body["messages"].as_array().unwrap().iter().filter(|m| m["role"] == "tool").count();
            if rounds > 0 {
                return openai::chat("All recorded.", 400, 5);
            }
            return openai::tool_calls(&[
                ("add_note_to_person", json!({ "name": "Sarah Chen", "note": "Leads the Acme Corp deal.", "lifetime": "year" })),
                ("add_note_to_entity", json!({ "name": "Acme Corp", "note": "Wants the launch in Berlin by March.", "lifetime": "month" })),
                ("create_relationship", json!({ "from": "Sarah Chen", "to": "Acme Corp", "relationship_type": "works_with",
                    "description": "Sarah manages the Acme Corp relationship.", "attitude": "positive",
                    "proximity": 0.7, "strength": 0.6, "confidence": 0.9 })),
                ("add_note_to_relationship", json!({ "from": "Sarah Chen", "to": "Acme Corp", "relationship_type": "works_with",
                    "note": "Runs the security review with them.", "lifetime": "month" })),
                ("add_note_to_person", json!({ "name": "Nobody Known", "note": "x", "lifetime": "week" })),
            ], 350, 120);
        }
        good(seen)
    })
    .await;
    let dir = tempfile::tempdir().unwrap();
    let svc = services(dir.path(), &standin.base_url, &["extraction", "notes"]).await;
    let key = ingest(&svc, fixtures::meeting("alex")).await;
    let d = Dispatcher::new(svc.clone());
    d.run(
        JobKind::ProcessSource,
        &json!(ProcessSource {
            entity_key: key.clone()
        }),
        None,
    )
    .await
    .unwrap();
    d.run(
        JobKind::ExtractEntities,
        &json!(ExtractEntities {
            entity_key: key.clone(),
            user_id: "alex".into()
        }),
        None,
    )
    .await
    .unwrap();

    let snap = GraphSnapshot::of_user(&*svc.graph, "alex").await.unwrap();
    assert!(
        snap.node_named("small talk").is_none(),
        "below the confidence/subpoint filter"
    );
    let sarah = snap.node_named("Sarah Chen").unwrap();
    assert_eq!(sarah.lifecycle.confidence, 0.9);
    assert_eq!(
        sarah
            .notes
            .iter()
            .map(|n| n.text.as_str())
            .collect::<Vec<_>>(),
        ["Leads the Acme Corp deal."]
    );
    let rel = &snap.relationships[0];
    assert_eq!(
        (rel.relationship_type.as_str(), rel.notes.len()),
        ("works_with", 1)
    );

    let requests = standin.requests();
    assert!(
        requests.iter().all(|r| r.endpoint == "chat"),
        "embeddings stay offline when configured so"
    );
    let agent: Vec<&Seen> = requests.iter().filter(|r| r.has_tools()).collect();
    assert_eq!(
        agent.len(),
        2,
        "one round of tool calls, then the final answer"
    );
    let replies: Vec<&str> = agent[1].body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["content"].as_str().unwrap())
        .collect();
    assert_eq!(replies[..4], ["ok", "ok", "ok", "ok"]);
    assert!(
        replies[4].starts_with("error: unknown name"),
        "a bad call is answered, not applied"
    );
    assert_eq!(agent[0].body["model"], "gpt-4.1-mini");

    // Every call is in the ledger under the user and the job kind.
    let from = DateTime::<Utc>::MIN_UTC;
    let sums = svc
        .usage
        .summary(
            Some("acme"),
            from,
            svc.clock.now() + chrono::Duration::seconds(1),
        )
        .await
        .unwrap();
    let extract = sums
        .iter()
        .find(|s| s.job_kind == "extract-entities")
        .expect("extraction usage");
    assert_eq!(
        (extract.user_id.as_str(), extract.calls),
        ("alex", 2),
        "one ledger row per model call made by the job"
    );
    assert_eq!(
        (extract.prompt_tokens, extract.completion_tokens),
        (300 + 350 + 400, 80 + 120 + 5)
    );
    assert!(
        sums.iter().any(|s| s.job_kind == "process-source"),
        "offline calls are ledgered too"
    );
}

/// A session of Alex's chat with Priya on `day` of May 2026, processed offline.
async fn session(svc: &Services, day: u32, line: &str) -> String {
    let content = [
        json!({"speaker": "Alex Johnson", "text": "hi Priya"}).to_string(),
        json!({"speaker": "Priya Patel", "text": line}).to_string(),
    ];
    let body = json!({
        "user_id": "alex", "participants": ["alex", "priya"], "source_type": "conversation",
        "started_at": format!("2026-05-{day:02}T10:00:00Z"),
        "raw_content": { "content": content.join("\n") },
    });
    cosmo_tests::ingest::ingest(svc, "acme", body).await
}

#[tokio::test]
async fn causes_come_from_one_structured_answer_and_numbers_out_of_range_are_asked_again() {
    // Asked about the third session (two earlier ones), the model first names a memory
    // that was not offered, then the first session; about the second, nothing.
    static ASKED_ABOUT_THIRD: std::sync::atomic::AtomicUsize =
        std::sync::atomic::AtomicUsize::new(0);
    let standin = StandIn::start(|seen, _| match seen.schema_name() {
        Some("causes") => {
            let prompt = seen.body["messages"][1]["content"].as_str().unwrap_or("");
            let causes = if !prompt.contains("Earlier memory 2") {
                json!([])
            } else if ASKED_ABOUT_THIRD.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 0 {
                json!([{ "earlier": 9, "sentence": "no such memory" }])
            } else {
                json!([{ "earlier": 2, "sentence": "We cancelled the trip because of the flood." }])
            };
            openai::chat(&json!({ "causes": causes }).to_string(), 300, 20)
        }
        _ => good(seen),
    })
    .await;
    let dir = tempfile::tempdir().unwrap();
    let svc = services(dir.path(), &standin.base_url, &["causes"]).await;
    let flood = session(&svc, 1, "The river flooded our street last night.").await;
    session(&svc, 5, "Pottery class was fun.").await;
    let cancelled = session(&svc, 9, "We cancelled the trip because of the flood.").await;

    let run = Dispatcher::new(svc.clone())
        .run_periodic(JobKind::InferCausalLinks, now(), None)
        .await
        .unwrap_or_else(|e| panic!("{}", e.message));
    assert_eq!((run.examined, run.changed), (3, 1), "{run:?}");
    let links = svc
        .graph
        .source_links(std::slice::from_ref(&cancelled))
        .await
        .unwrap();
    let causal: Vec<_> = links
        .iter()
        .filter(|l| l.kind == cosmo_shared::domain::SourceLinkKind::Causal)
        .collect();
    assert_eq!(causal.len(), 1, "{links:?}");
    assert_eq!(causal[0].from_key, flood);
    assert_eq!(causal[0].confidence, 0.7);
    assert_eq!(
        causal[0].inferred_by.as_deref(),
        Some("openai:gpt-4.1-mini")
    );
    assert_eq!(
        causal[0].evidence.as_deref(),
        Some("We cancelled the trip because of the flood.")
    );

    let asked: Vec<Seen> = standin
        .requests()
        .into_iter()
        .filter(|r| r.schema_name() == Some("causes"))
        .collect();
    assert_eq!(asked.len(), 3, "one call for the second, two for the third");
    assert!(asked.iter().all(|r| r.body["model"] == "gpt-4.1-mini"));
    assert_eq!(
        ASKED_ABOUT_THIRD.load(std::sync::atomic::Ordering::SeqCst),
        2
    );
}

fn now() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-05-10T04:30:00Z")
        .unwrap()
        .with_timezone(&Utc)
}
