//! The facts endpoints: remember, the one-live-value rule with confidence, correct,
//! confirm, explain, weak facts, list and erase — and a fact can only point at its own
//! user's entities and Sources.

use reqwest::StatusCode;
use serde_json::{Value, json};

use super::world::{World, day, node_named, note};

async fn remember(w: &World, body: Value) -> (StatusCode, Value) {
    w.api.post("/api/facts", &body).await
}

fn id(answer: &Value) -> String {
    answer["fact_id"]
        .as_str()
        .unwrap_or_else(|| panic!("no fact id in {answer}"))
        .to_owned()
}

async fn live_texts(w: &World, query: &str) -> Vec<String> {
    let list = w.read(&format!("/api/facts?user_id=alex{query}")).await;
    list["facts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["text"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn remember_keeps_one_live_value_and_the_more_confident_one() {
    let w = World::new().await;
    w.profile("alex", "Alex Johnson").await;
    let (status, first) =
        remember(&w, json!({ "user_id": "alex", "text": "Lives in Lisbon" })).await;
    assert_eq!(
        (status, first["outcome"].as_str()),
        (StatusCode::CREATED, Some("stored")),
        "{first}"
    );
    let (status, again) =
        remember(&w, json!({ "user_id": "alex", "text": "Lives in Lisbon" })).await;
    assert_eq!(
        (status, again["outcome"].as_str()),
        (StatusCode::OK, Some("unchanged"))
    );
    assert_eq!(id(&again["existing"]), id(&first["fact"]));

    let coffee = |value: &str, confidence: f64| json!({ "user_id": "alex", "category": "diet", "key": "coffee", "value": value, "confidence": confidence });
    let (status, black) = remember(&w, coffee("black", 0.9)).await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, kept) = remember(&w, coffee("oat latte", 0.5)).await;
    assert_eq!(
        (status, kept["outcome"].as_str()),
        (StatusCode::OK, Some("kept_existing")),
        "{kept}"
    );
    assert_eq!(kept["existing"]["value"], "black");
    let mut live = live_texts(&w, "").await;
    live.sort();
    assert_eq!(live, ["Lives in Lisbon", "diet coffee: black"]);
    w.at(1);
    let (status, flat) = remember(&w, coffee("flat white", 0.95)).await;
    assert_eq!(status, StatusCode::CREATED, "{flat}");
    assert_eq!(flat["superseded"], black["fact"]["fact_id"]);
    let old = w.read(&format!("/api/facts/{}", id(&black["fact"]))).await;
    assert_eq!(
        (old["is_active"].as_bool(), old["valid_to"].as_str()),
        (
            Some(false),
            Some(
                day(1)
                    .to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)
                    .as_str()
            )
        )
    );
    let live = live_texts(&w, "").await;
    assert_eq!(
        live.iter().filter(|t| t.starts_with("diet coffee")).count(),
        1,
        "{live:?}"
    );
    assert_eq!(live_texts(&w, "&include_inactive=true").await.len(), 3);

    let (status, bad) = remember(
        &w,
        json!({ "user_id": "alex", "category": "diet", "key": "tea" }),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{bad}");
}

#[tokio::test]
async fn corrections_chain_and_explain_their_provenance() {
    let w = World::new().await;
    let src = w
        .ingest(note("alex", 0, "Sarah Chen says I start at Google in May. Sarah Chen was my referee. She knows the team."))
        .await;
    let sarah = node_named(&w, "alex", "Sarah Chen").await;
    let (status, first) = remember(
        &w,
        json!({ "user_id": "alex", "category": "work", "key": "employer", "value": "Google",
                "about": [sarah], "source_keys": [src] }),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{first}");
    let first = id(&first["fact"]);
    w.at(2);
    let (status, second) = w
        .api
        .post(&format!("/api/facts/{first}/corrections"), &json!({ "text": "Works at Anthropic", "category": "work", "key": "employer", "value": "Anthropic" }))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{second}");
    assert_eq!(second["supersedes"], first.as_str());
    let second = id(&second);
    let (status, conflict) = w
        .api
        .post(
            &format!("/api/facts/{first}/corrections"),
            &json!({ "text": "Works at Meta" }),
        )
        .await;
    assert_eq!(
        status,
        StatusCode::CONFLICT,
        "already superseded: {conflict}"
    );
    // The live structured fact keeps its slot: a correction names the new value, and
    // cannot move it to another key.
    for (body, field) in [
        (json!({ "text": "Works at Meta" }), "value"),
        (
            json!({ "text": "Works at Meta", "category": "work", "key": "boss", "value": "Meta" }),
            "key",
        ),
    ] {
        let (status, refused) = w
            .api
            .post(&format!("/api/facts/{second}/corrections"), &body)
            .await;
        assert_eq!(
            (status, refused["error"]["field"].as_str()),
            (StatusCode::CONFLICT, Some(field)),
            "{refused}"
        );
    }

    let explained = w.read(&format!("/api/facts/{second}/explain")).await;
    assert_eq!(explained["fact"]["text"], "Works at Anthropic");
    assert_eq!(explained["superseded"][0]["fact_id"], first.as_str());
    assert_eq!(
        explained["superseded"][0]["valid_to"],
        day(2).to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)
    );
    assert_eq!(explained["about"], json!([[sarah, "Sarah Chen"]]));
    let root = w.read(&format!("/api/facts/{first}/explain")).await;
    assert_eq!(root["superseded_by"], second.as_str());
    assert_eq!(root["sources"][0]["entity_key"], src.as_str());
    assert!(
        root["sources"][0]["summary"]
            .as_str()
            .unwrap()
            .contains("Google"),
        "{root}"
    );

    // Confirm: certain, kept forever, logged as the user's act.
    let confirmed = w
        .ok(&format!("/api/facts/{second}/confirm"), json!({}))
        .await;
    assert_eq!(
        (
            confirmed["confirmed"].as_bool(),
            confirmed["lifecycle"]["confidence"].as_f64()
        ),
        (Some(true), Some(1.0))
    );
    let m = w.memory("fact", &second).await;
    assert_eq!(m["lifecycle"]["ttl_policy"], "keep_forever");
    let events = w.read(&format!("/api/memories/fact/{second}/events")).await;
    assert_eq!(events["events"][0]["reason"], "confirmed");
    assert_eq!(events["events"][0]["actor"], "user");
    let (status, _) = w
        .api
        .post(&format!("/api/facts/{first}/confirm"), &json!({}))
        .await;
    assert_eq!(
        status,
        StatusCode::CONFLICT,
        "a superseded fact is not confirmed"
    );
    let confirmed_only = w.read("/api/facts?user_id=alex&confirmed_only=true").await;
    assert_eq!(confirmed_only["facts"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn weak_facts_and_erasing_a_fact() {
    let w = World::new().await;
    w.profile("alex", "Alex Johnson").await;
    let (_, unsure) = remember(
        &w,
        json!({ "user_id": "alex", "text": "Maybe likes jazz", "confidence": 0.3 }),
    )
    .await;
    let (_, sure) = remember(
        &w,
        json!({ "user_id": "alex", "text": "Likes the sea", "confidence": 0.9 }),
    )
    .await;
    let (_, doubted) = remember(
        &w,
        json!({ "user_id": "alex", "text": "Has a cat", "confidence": 0.2 }),
    )
    .await;
    let (unsure, sure, doubted) = (id(&unsure["fact"]), id(&sure["fact"]), id(&doubted["fact"]));
    w.ok(&format!("/api/facts/{doubted}/confirm"), json!({}))
        .await;
    let weak = w.read("/api/facts/weak?user_id=alex").await;
    let ids: Vec<String> = weak["facts"].as_array().unwrap().iter().map(id).collect();
    assert_eq!(
        ids,
        [unsure.as_str()],
        "low confidence and unconfirmed: {weak}"
    );
    let strict = w
        .read("/api/facts/weak?user_id=alex&confidence_below=0.95")
        .await;
    assert_eq!(strict["facts"].as_array().unwrap().len(), 2, "{strict}");
    let (status, _) = w
        .api
        .get("/api/facts/weak?user_id=alex&salience_below=2")
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);

    let (status, erased) = w
        .api
        .send(
            reqwest::Method::DELETE,
            &format!("/api/facts/{sure}"),
            None,
            &[],
        )
        .await;
    assert_eq!(
        (status, erased["facts"].as_u64()),
        (StatusCode::OK, Some(1)),
        "{erased}"
    );
    let (status, _) = w.api.get(&format!("/api/facts/{sure}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = w
        .api
        .send(
            reqwest::Method::DELETE,
            &format!("/api/facts/{sure}"),
            None,
            &[],
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(live_texts(&w, "").await.len(), 2);
}

#[tokio::test]
async fn a_fact_points_only_at_its_own_users_memories() {
    let w = World::new().await;
    w.profile("alex", "Alex Johnson").await;
    let bobs = w
        .ingest(note("bob", 0, "Had lunch with Maria Lopez at the harbour. Maria Lopez is the new skipper at the club. She moved from Oslo."))
        .await;
    let maria = node_named(&w, "bob", "Maria Lopez").await;
    for (field, key) in [("about", &maria), ("source_keys", &bobs)] {
        let (status, answer) = remember(
            &w,
            json!({ "user_id": "alex", "text": "Knows Maria", field: [key] }),
        )
        .await;
        // Another user's memory does not exist for alex's fact.
        assert_eq!(status, StatusCode::NOT_FOUND, "{field}: {answer}");
        assert_eq!(answer["error"]["field"], format!("{field}[0]"));
    }
    assert!(live_texts(&w, "").await.is_empty(), "nothing stored");
}
