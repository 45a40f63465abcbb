//! `POST /api/context`: the owner's profile and confirmed facts first, then what is
//! relevant to the message, within the token budget, in markdown, XML or JSON, with
//! `memories_used`, `tokens_used` and `truncated` telling the truth about it.

use cosmo_shared::llm::estimate_tokens;
use reqwest::StatusCode;
use serde_json::{Value, json};

use super::world::{World, note};

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
    assert!(x.contains(&format!("<item>{CONFIRMED}</item>")));
    for tag in ["profile", "facts", "episodes"] {
        assert_eq!(
            x.matches(&format!("<{tag}>")).count(),
            x.matches(&format!("</{tag}>")).count()
        );
    }

    let parsed: Value =
        serde_json::from_str(js["context"].as_str().unwrap()).expect("JSON context");
    assert_eq!(parsed["profile"], json!(["Alex Johnson"]));
    assert!(
        parsed["facts"]
            .as_array()
            .unwrap()
            .contains(&json!(CONFIRMED))
    );
    let episodes = parsed["episodes"].as_array().unwrap();
    assert!(
        episodes
            .iter()
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
