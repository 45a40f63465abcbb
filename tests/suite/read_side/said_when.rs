//! What the agent reads says when things were said: a conversation of 2023 back-filled
//! today reads its 2023 date in context, its "yesterday" reads the day it meant, and
//! explore's notes carry when they were said beside when they were noted. Context keeps
//! filling its budget while relevant lines remain. Through the real pipeline jobs, on
//! every graph backend here.

use chrono::{DateTime, Utc};
use cosmo_pipeline::retrieval::context;
use cosmo_shared::domain::input::read::{ContextFormat, ContextInput, ExploreInput};
use cosmo_shared::services::Services;
use cosmo_tests::stores;
use serde_json::{Value, json};

fn at(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

/// Today: the history below is posted now, years after it happened.
fn today() -> DateTime<Utc> {
    at("2026-12-02T09:00:00Z")
}

fn conversation(owner: &str, friend: &str, started_at: &str, turns: &[(&str, &str)]) -> Value {
    let content: Vec<String> = turns
        .iter()
        .map(|(speaker, text)| json!({ "speaker": speaker, "text": text }).to_string())
        .collect();
    json!({
        "user_id": owner, "source_type": "conversation", "participants": [owner, friend],
        "started_at": started_at, "raw_content": { "content": content.join("\n") },
    })
}

fn ask(user: &str, message: &str, budget: u64) -> ContextInput {
    ContextInput {
        user_id: user.to_owned(),
        message: message.to_owned(),
        budget_tokens: Some(budget),
        format: ContextFormat::Markdown,
        since: None,
        until: None,
        session_id: None,
    }
}

/// The lines of a markdown section.
fn section<'a>(text: &'a str, title: &str) -> Vec<&'a str> {
    text.split("\n\n")
        .find(|s| s.starts_with(&format!("## {title}\n")))
        .map(|s| s.lines().skip(1).collect())
        .unwrap_or_default()
}

async fn a_back_filled_chat_reads_when_it_was_said(svc: Services, owner: String, friend: String) {
    let (svc, _clock) = stores::manual_clock(svc, today());
    svc.graph
        .upsert_owner(&owner, "Alex Johnson", today())
        .await
        .unwrap();
    let key = cosmo_tests::ingest::ingest(
        &svc,
        "acme",
        conversation(
            &owner,
            &friend,
            "2023-05-08T18:00:00Z",
            &[
                ("Alex Johnson", "Hi! What have you been up to?"),
                (
                    "Caroline Diaz",
                    "I went to a LGBTQ support group yesterday.",
                ),
                (
                    "Alex Johnson",
                    "That sounds brave. How did the support group go?",
                ),
                ("Caroline Diaz", "The support group made me feel accepted."),
                ("Alex Johnson", "I am proud of you for going."),
                (
                    "Caroline Diaz",
                    "Thanks! I want to go to the next meeting too.",
                ),
            ],
        ),
    )
    .await;

    let answer = context::build(
        &svc,
        &ask(
            &owner,
            "When did Caroline go to the LGBTQ support group?",
            400,
        ),
        None,
    )
    .await
    .unwrap();
    let text = &answer.context;
    let said = section(text, "What was said");
    let header = format!("- 8 May 2023 · conversation · {key}:");
    assert!(
        said.contains(&header.as_str()),
        "under the day it was said, not the day it was posted: {text}"
    );
    assert!(
        said.iter()
            .any(|l| l.contains("support group yesterday (7 May 2023)")),
        "'yesterday' reads the day it meant: {text}"
    );
    assert!(
        !text.contains("2 December 2026"),
        "nothing of it is dated by when it arrived: {text}"
    );

    // Explore's notes: said in 2023, noted today, the relative time grounded.
    let input = ExploreInput::parse(json!({
        "user_id": owner,
        "queries": [{ "query": "LGBTQ support group" }],
        "limit": 10,
    }))
    .unwrap();
    let found = cosmo_pipeline::retrieval::explore(&svc, &input, None)
        .await
        .unwrap();
    let notes = found.notes.unwrap_or_default();
    let note = notes
        .iter()
        .find(|n| n.source_id.as_deref() == Some(key.as_str()) && n.text.contains("yesterday"))
        .unwrap_or_else(|| panic!("a note of the chat: {notes:#?}"));
    assert_eq!(note.said_at, at("2023-05-08T18:00:00Z"), "{note:#?}");
    assert_eq!(note.date_added.date_naive(), today().date_naive());
    assert!(note.text.contains("yesterday (7 May 2023)"), "{note:#?}");
}

#[tokio::test]
async fn a_back_filled_chat_reads_when_it_was_said_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    a_back_filled_chat_reads_when_it_was_said(
        stores::sqlite(dir.path()).await,
        "alex".into(),
        "caroline".into(),
    )
    .await;
}

#[tokio::test]
async fn a_back_filled_chat_reads_when_it_was_said_on_neo4j() {
    let dir = tempfile::tempdir().unwrap();
    if let Some((svc, suffix, _space)) = stores::neo4j(dir.path(), "said when").await {
        a_back_filled_chat_reads_when_it_was_said(
            svc,
            format!("alex{suffix}"),
            format!("caroline{suffix}"),
        )
        .await;
    }
}

/// Twenty sessions about the garden, each with its own detail: more relevant lines
/// than a small budget holds.
async fn context_fills_its_budget_while_relevant_lines_remain(
    svc: Services,
    owner: String,
    friend: String,
) {
    let (svc, _clock) = stores::manual_clock(svc, today());
    svc.graph
        .upsert_owner(&owner, "Alex Johnson", today())
        .await
        .unwrap();
    const PLANTS: [&str; 20] = [
        "tomatoes", "basil", "roses", "carrots", "lettuce", "peppers", "tulips", "onions",
        "garlic", "beans", "peas", "pumpkins", "melons", "lilies", "mint", "thyme", "sage", "kale",
        "radishes", "daisies",
    ];
    for (k, plant) in PLANTS.iter().enumerate() {
        let started_at = format!("2024-03-{:02}T18:00:00Z", k + 1);
        let detail = format!("In the garden I planted {plant} along the north fence this week.");
        let later = format!("The {plant} in my garden need water every second morning.");
        cosmo_tests::ingest::ingest(
            &svc,
            "acme",
            conversation(
                &owner,
                &friend,
                &started_at,
                &[
                    ("Caroline Diaz", detail.as_str()),
                    ("Alex Johnson", "How is the garden coming along?"),
                    ("Caroline Diaz", later.as_str()),
                ],
            ),
        )
        .await;
    }
    let budget = 600;
    let answer = context::build(
        &svc,
        &ask(&owner, "What did Caroline plant in her garden?", budget),
        None,
    )
    .await
    .unwrap();
    let text = &answer.context;
    assert!(
        answer.tokens_used <= budget,
        "{}: {text}",
        answer.tokens_used
    );
    assert!(
        answer.tokens_used * 10 >= budget * 9,
        "relevant lines remain, so the budget is used: {} of {budget}: {text}",
        answer.tokens_used
    );
    let planted = PLANTS
        .iter()
        .filter(|p| text.contains(&format!("planted {p} along")))
        .count();
    assert!(
        planted >= 8,
        "the budget goes to the lines that answer: {planted} plantings: {text}"
    );
}

#[tokio::test]
async fn context_fills_its_budget_while_relevant_lines_remain_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    context_fills_its_budget_while_relevant_lines_remain(
        stores::sqlite(dir.path()).await,
        "alex".into(),
        "caroline".into(),
    )
    .await;
}

#[tokio::test]
async fn context_fills_its_budget_while_relevant_lines_remain_on_neo4j() {
    let dir = tempfile::tempdir().unwrap();
    if let Some((svc, suffix, _space)) = stores::neo4j(dir.path(), "context budget").await {
        context_fills_its_budget_while_relevant_lines_remain(
            svc,
            format!("alex{suffix}"),
            format!("caroline{suffix}"),
        )
        .await;
    }
}
