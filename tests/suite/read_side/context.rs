//! `POST /api/context`: the owner's profile and confirmed facts first, then what was
//! said that answers the message (under each Source, with when it was said), within the
//! token budget, in markdown, XML or JSON, with `memories_used`, `tokens_used` and
//! `truncated` telling the truth about it.

use cosmo_pipeline::retrieval::context;
use cosmo_shared::domain::input::read::{ContextFormat, ContextInput};
use cosmo_shared::domain::{MemoryState, NoteLifetime};
use cosmo_shared::graph::EpisodicConsolidation;
use cosmo_shared::graph::GraphSnapshot;
use cosmo_shared::llm::estimate_tokens;
use cosmo_shared::services::Services;
use cosmo_tests::stores;
use cosmo_workers::dispatch::Dispatcher;
use reqwest::StatusCode;
use serde_json::{Value, json};

use super::world::{World, day, note};

const CONFIRMED: &str = "Alex is allergic to peanuts";

/// Alex with a profile, a confirmed and an unconfirmed fact, and marathon notes.
async fn alex() -> (World, String) {
    let w = World::new().await;
    w.profile("alex", "Alex Johnson").await;
    let (status, stored) = w
        .api
        .post(
            "/api/facts",
            &json!({ "user_id": "alex", "text": CONFIRMED }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{stored}");
    let fact = stored["fact"]["fact_id"].as_str().unwrap().to_owned();
    w.ok(&format!("/api/facts/{fact}/confirm"), json!({})).await;
    w.api
        .post(
            "/api/facts",
            &json!({ "user_id": "alex", "text": "Alex trains for the Chicago marathon" }),
        )
        .await;
    for (n, text) in [
        "Marathon training with Maria Lopez: long run of 30 km on Sunday.",
        "Maria Lopez says the marathon taper starts in two weeks.",
        "Bought new running shoes for the marathon training.",
        "Tomatoes in the garden need water.",
    ]
    .iter()
    .enumerate()
    {
        w.ingest(note("alex", n as i64, text)).await;
    }
    (w, fact)
}

async fn context(w: &World, budget: Option<u64>, format: &str) -> Value {
    let mut body = json!({ "user_id": "alex", "message": "How is my marathon training going?", "format": format });
    if let Some(b) = budget {
        body["budget_tokens"] = json!(b);
    }
    let answer = w.ok("/api/context", body).await;
    let text = answer["context"].as_str().unwrap();
    let used = answer["tokens_used"].as_u64().unwrap();
    assert_eq!(
        used,
        estimate_tokens(text),
        "tokens_used measures the context"
    );
    assert!(
        used <= answer["budget_tokens"].as_u64().unwrap(),
        "within budget: {answer}"
    );
    let memories = answer["memories"].as_array().unwrap();
    assert_eq!(
        answer["memories_used"].as_u64(),
        Some(memories.len() as u64)
    );
    assert_eq!(answer["format"], format);
    answer
}

fn kinds(answer: &Value) -> Vec<&str> {
    answer["memories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["kind"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn the_default_budget_holds_profile_facts_and_relevant_memory() {
    let (w, fact) = alex().await;
    let answer = context(&w, None, "markdown").await;
    assert_eq!(answer["budget_tokens"], 500);
    let text = answer["context"].as_str().unwrap();
    assert!(
        text.starts_with("## About the user\n- Alex Johnson\n"),
        "{text}"
    );
    let facts_at = text.find("## Facts").expect("a facts section");
    assert!(text[facts_at..].contains(CONFIRMED));
    assert!(text.contains("Maria Lopez"), "the relevant notes: {text}");
    assert!(!text.contains("Tomatoes"), "not the irrelevant one: {text}");
    assert_eq!(
        answer["memories"][0],
        json!({ "kind": "fact", "key": fact }),
        "confirmed first"
    );
    assert!(kinds(&answer).contains(&"source"), "{answer}");

    // What was used counts as recalled.
    for m in answer["memories"].as_array().unwrap() {
        let (kind, key) = (m["kind"].as_str().unwrap(), m["key"].as_str().unwrap());
        let l = w.memory(kind, key).await;
        assert!(
            l["lifecycle"]["access_count"].as_i64().unwrap() >= 1,
            "{kind} {key}"
        );
    }
}

#[tokio::test]
async fn a_small_budget_keeps_the_most_important_whole_items() {
    let (w, fact) = alex().await;
    let all = context(&w, Some(16_000), "markdown").await;
    assert_eq!(all["truncated"], false, "everything fits: {all}");
    let full = all["tokens_used"].as_u64().unwrap();

    let tight = context(&w, Some(25), "markdown").await;
    assert_eq!(tight["truncated"], true);
    let text = tight["context"].as_str().unwrap();
    assert!(
        text.contains("Alex Johnson") && text.contains(CONFIRMED),
        "{text}"
    );
    assert_eq!(tight["memories"][0]["key"], fact.as_str());
    assert!(tight["tokens_used"].as_u64().unwrap() < full);
    for line in text.lines().filter(|l| l.starts_with("- ")) {
        assert!(
            all["context"].as_str().unwrap().contains(line),
            "items are never cut: {line}"
        );
    }

    let nothing = context(&w, Some(1), "markdown").await;
    assert_eq!(
        (
            nothing["context"].as_str(),
            nothing["memories_used"].as_u64()
        ),
        (Some(""), Some(0))
    );
    assert_eq!(nothing["truncated"], true);
}

#[tokio::test]
async fn xml_and_json_hold_the_same_memory() {
    let (w, _) = alex().await;
    let md = context(&w, Some(16_000), "markdown").await;
    let xml = context(&w, Some(16_000), "xml").await;
    let js = context(&w, Some(16_000), "json").await;
    assert_eq!(md["memories"], xml["memories"]);
    assert_eq!(md["memories"], js["memories"]);

    let x = xml["context"].as_str().unwrap();
    assert!(
        x.starts_with("<memory>\n  <profile>\n    <item>Alex Johnson</item>"),
        "{x}"
    );
    assert!(x.trim_end().ends_with("</memory>"));
    assert!(
        x.contains(&format!(" · confirmed: {CONFIRMED}</item>")),
        "{x}"
    );
    for tag in ["profile", "facts", "said"] {
        assert_eq!(
            x.matches(&format!("<{tag}>")).count(),
            x.matches(&format!("</{tag}>")).count()
        );
    }

    let parsed: Value =
        serde_json::from_str(js["context"].as_str().unwrap()).expect("JSON context");
    assert_eq!(parsed["profile"], json!(["Alex Johnson"]));
    assert!(
        parsed["facts"].as_array().unwrap().iter().any(|f| f
            .as_str()
            .unwrap()
            .ends_with(&format!(" · confirmed: {CONFIRMED}"))),
        "{parsed}"
    );
    let said = parsed["said"].as_array().unwrap();
    assert!(
        said.iter()
            .any(|e| e.as_str().unwrap().contains("Maria Lopez")),
        "{parsed}"
    );

    let (status, bad) = w
        .api
        .post(
            "/api/context",
            &json!({ "user_id": "alex", "message": "hi", "format": "yaml" }),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{bad}");
}

#[tokio::test]
async fn only_live_unarchived_memory_reaches_the_prompt() {
    let w = World::new().await;
    w.profile("alex", "Alex Johnson").await;
    let (_, old) = w
        .api
        .post(
            "/api/facts",
            &json!({ "user_id": "alex", "text": "Alex lives in Porto" }),
        )
        .await;
    let old = old["fact"]["fact_id"].as_str().unwrap().to_owned();
    let (status, _) = w
        .api
        .post(
            &format!("/api/facts/{old}/corrections"),
            &json!({ "text": "Alex lives in Lisbon" }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let hidden = w
        .ingest(note("alex", 0, "Moving boxes from Porto to Lisbon."))
        .await;
    let shown = w
        .ingest(note("alex", 1, "Found a flat in Lisbon near the river."))
        .await;
    w.ok(&format!("/api/memories/source/{hidden}/archive"), json!({}))
        .await;

    let body = json!({ "user_id": "alex", "message": "Where does Alex live, Porto or Lisbon?", "budget_tokens": 16000 });
    let answer = w.ok("/api/context", body).await;
    let text = answer["context"].as_str().unwrap();
    assert!(text.contains("Alex lives in Lisbon"), "{text}");
    assert!(
        !text.contains("Alex lives in Porto"),
        "a superseded fact never: {text}"
    );
    let used: Vec<&str> = answer["memories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["key"].as_str().unwrap())
        .collect();
    assert!(used.contains(&shown.as_str()), "{answer}");
    assert!(
        !used.contains(&hidden.as_str()) && !used.contains(&old.as_str()),
        "{answer}"
    );
}

#[tokio::test]
async fn a_team_source_in_a_participants_context_starts_their_extraction() {
    let w = World::new().await;
    let team = json!({
        "user_id": "alex", "team_id": "crew", "participants": ["jordan"], "source_type": "text-note",
        "raw_content": { "content": "Crew meeting about the sailing regatta on Saturday." },
    });
    let key = w.ingest(team).await;
    let body = json!({ "user_id": "jordan", "message": "When is the sailing regatta?", "budget_tokens": 16000 });
    let answer = w.ok("/api/context", body).await;
    assert!(
        answer["context"]
            .as_str()
            .unwrap()
            .contains("sailing regatta"),
        "{answer}"
    );
    let record = w.svc.graph.extraction(&key, "jordan").await.unwrap();
    assert!(record.is_some(), "jordan's extraction was asked for");
}

// ---- notes: the facts the graph holds, before any nightly job ----

/// The README's example note ("Reading memory back").
const README_NOTE: &str = "Lunch with Sarah Chen from Acme Corp. Sarah Chen leads the hiring plan at Acme Corp. Sarah Chen wants the hiring plan done by March.";
const WANTS: &str = "Sarah Chen wants the hiring plan done by March.";
const README_MESSAGE: &str = "What does Sarah Chen want by March?";

/// The lines of a markdown context under `## {title}`.
fn section<'a>(text: &'a str, title: &str) -> Vec<&'a str> {
    text.split("\n\n")
        .find(|s| s.starts_with(&format!("## {title}\n")))
        .map(|s| s.lines().skip(1).collect())
        .unwrap_or_default()
}

#[tokio::test]
async fn notes_reach_the_prompt_with_their_date_and_source_before_any_nightly_job() {
    let w = World::new().await;
    let key = w
        .ingest(json!({ "user_id": "alex", "source_type": "text-note",
                        "raw_content": { "content": README_NOTE } }))
        .await;
    let sarah = super::world::node_named(&w, "alex", "Sarah Chen").await;
    let body = |format: &str| json!({ "user_id": "alex", "message": README_MESSAGE, "budget_tokens": 300, "format": format });
    let answer = w.ok("/api/context", body("markdown")).await;
    let text = answer["context"].as_str().unwrap();
    let header = format!("{} · text-note · {key}:", day(0).format("%-d %B %Y"));
    let said = section(text, "What was said");
    assert_eq!(
        said.first().copied(),
        Some(format!("- {header}").as_str()),
        "what was said, under its Source and its date: {text}"
    );
    assert!(
        said.contains(&format!("  {WANTS}").as_str()),
        "the sentence that answers the message: {text}"
    );
    assert_eq!(
        text.matches(WANTS).count(),
        1,
        "a sentence noted on several nodes is shown once: {text}"
    );
    assert!(
        section(text, "People and topics").contains(&"- Sarah Chen (person)"),
        "no description yet: {text}"
    );
    let used = answer["memories"].as_array().unwrap();
    let note = used
        .iter()
        .find(|m| m["note_id"].is_string())
        .unwrap_or_else(|| panic!("a note among the memories used: {answer}"));
    assert!(
        ["node", "relationship"].contains(&note["kind"].as_str().unwrap()),
        "{note}"
    );
    assert!(
        used.iter()
            .any(|m| m["kind"] == "node" && m["key"] == sarah.as_str()),
        "{answer}"
    );
    // Using a note counts as recalling what it is on.
    let recalled = w.memory("node", &sarah).await;
    assert!(recalled["lifecycle"]["access_count"].as_i64().unwrap() >= 1);

    // The same in every format.
    let xml = w.ok("/api/context", body("xml")).await;
    let x = xml["context"].as_str().unwrap();
    assert!(x.contains(&format!("<said>\n    <item>{header}")), "{x}");
    assert!(x.contains(&format!("\n      {WANTS}")), "{x}");
    let js = w.ok("/api/context", body("json")).await;
    let parsed: Value = serde_json::from_str(js["context"].as_str().unwrap()).unwrap();
    let group = parsed["said"][0].as_str().unwrap();
    assert!(
        group.starts_with(&header) && group.contains(&format!("\n{WANTS}")),
        "{parsed}"
    );
    assert_eq!(answer["memories"], xml["memories"]);
    assert_eq!(answer["memories"], js["memories"]);
}

#[tokio::test]
async fn notes_that_do_not_match_stay_out_and_facts_stay_first() {
    let (w, fact) = alex().await;
    w.ingest(note("alex", 5, README_NOTE)).await;
    let body = json!({ "user_id": "alex", "message": README_MESSAGE, "budget_tokens": 16000 });
    let answer = w.ok("/api/context", body).await;
    let text = answer["context"].as_str().unwrap();
    let facts = section(text, "Facts");
    assert!(
        facts
            .first()
            .is_some_and(|l| l.ends_with(&format!(" · confirmed: {CONFIRMED}"))),
        "the confirmed fact first, with its date: {text}"
    );
    assert_eq!(
        answer["memories"][0],
        json!({ "kind": "fact", "key": fact })
    );
    let said = section(text, "What was said");
    assert!(said.iter().any(|l| l.ends_with(WANTS)), "{text}");
    assert!(
        !text.contains("Tomatoes") && !text.contains("running shoes"),
        "nothing that does not match the message: {text}"
    );
}

/// Through the real jobs on `svc` (any graph backend; `user` in its key space): the
/// README's note is in the context as extracted, and after episodic consolidation
/// archives its Source the insight that replaced it is, with where it came from.
async fn the_readme_note_and_its_insight_reach_context(svc: Services, user: String) {
    let (svc, clock) = stores::manual_clock(svc, day(0));
    let _jobs = Dispatcher::new(svc.clone());
    let key = cosmo_tests::ingest::ingest(
        &svc,
        "acme",
        json!({ "user_id": user, "source_type": "text-note",
                "raw_content": { "content": README_NOTE } }),
    )
    .await;

    let ask = |message: &str| ContextInput {
        user_id: user.clone(),
        message: message.to_owned(),
        budget_tokens: Some(300),
        format: ContextFormat::Markdown,
        since: None,
        until: None,
        session_id: None,
    };
    let answer = context::build(&svc, &ask(README_MESSAGE), None)
        .await
        .unwrap();
    let header = format!("- {} · text-note · {key}:", day(0).format("%-d %B %Y"));
    let said = section(&answer.context, "What was said");
    assert_eq!(
        said.first().copied(),
        Some(header.as_str()),
        "{}",
        answer.context
    );
    assert!(
        said.contains(&format!("  {WANTS}").as_str()),
        "{}",
        answer.context
    );

    // A week later consolidation turns the Source into an insight on Sarah and
    // archives it: the insight carries the knowledge, with its origin.
    let snapshot = GraphSnapshot::of_user(&*svc.graph, &user).await.unwrap();
    let sarah = snapshot
        .node_named("Sarah Chen")
        .expect("Sarah Chen")
        .entity_key
        .clone();
    clock.set(day(9));
    svc.graph
        .consolidate_sources(&EpisodicConsolidation {
            entity_key: sarah,
            user_id: user.clone(),
            insight: "Acme's hiring plan is due by March, with Sarah Chen leading it.".into(),
            lifetime: NoteLifetime::Year,
            source_keys: vec![key.clone()],
            at: day(8),
        })
        .await
        .unwrap();
    let archived = svc.graph.source(&key).await.unwrap().unwrap();
    assert_eq!(archived.lifecycle.state, MemoryState::Archived);
    let answer = context::build(&svc, &ask("Who leads the hiring plan due in March?"), None)
        .await
        .unwrap();
    // Dated by the Source it came from (day 0), not by when it was consolidated.
    let said = section(&answer.context, "What was said");
    let insight = format!(
        "- {} · consolidated from 1 Source:",
        day(0).format("%-d %B %Y")
    );
    let at = said
        .iter()
        .position(|l| *l == insight)
        .unwrap_or_else(|| panic!("{insight}: {}", answer.context));
    assert_eq!(
        said.get(at + 1).copied(),
        Some("  Acme's hiring plan is due by March, with Sarah Chen leading it."),
        "{}",
        answer.context
    );
    assert!(
        !answer.context.contains("Lunch with Sarah"),
        "the archived Source itself is not: {}",
        answer.context
    );
}

#[tokio::test]
async fn the_readme_note_and_its_insight_reach_context_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    the_readme_note_and_its_insight_reach_context(stores::sqlite(dir.path()).await, "alex".into())
        .await;
}

#[tokio::test]
async fn the_readme_note_and_its_insight_reach_context_on_neo4j() {
    let dir = tempfile::tempdir().unwrap();
    if let Some((svc, suffix, _space)) = stores::neo4j(dir.path(), "context with notes").await {
        the_readme_note_and_its_insight_reach_context(svc, format!("alex{suffix}")).await;
    }
}
