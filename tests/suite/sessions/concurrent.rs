//! 45 turns from 4 concurrent clients, with the defaults (a flush when the buffer
//! passes 20 turns, 10 kept): whatever the interleaving, turns are numbered 1 to 45 in
//! the order they were stored, so the flushes claim turns 1–11 (at turn 21), 12–22 (at
//! 32) and 23–33 (at 43): three Sources of 11 turns, and 12 turns in the buffer. Ending
//! the session makes the fourth Source of those 12.

use cosmo_shared::queue::JobKind;
use reqwest::StatusCode;
use serde_json::json;

use super::{
    Directory, Stores, assert_each_once, buffer_texts, conversation, say_concurrently,
    transcript_texts,
};

#[tokio::test]
async fn four_clients_yield_exactly_the_expected_sources_on_sqlite() {
    four_clients_yield_exactly_the_expected_sources(Directory::Sqlite).await;
}

#[tokio::test]
async fn four_clients_yield_exactly_the_expected_sources_on_postgres() {
    four_clients_yield_exactly_the_expected_sources(Directory::Postgres).await;
}

async fn four_clients_yield_exactly_the_expected_sources(directory: Directory) {
    let stores = Stores::new(directory).await;
    let app = stores.start().await;
    let said = conversation(45, 4);
    say_concurrently(&app.api, "alex", "chat-45", &said, 4, 20).await;

    let session = app.session("alex", "chat-45").await;
    assert_eq!(session["turns_appended"], 45, "{session}");
    assert_eq!(session["status"], "open");
    let chunks: Vec<(i64, i64)> = session["sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["first_seq"].as_i64().unwrap(),
                c["last_seq"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(chunks, [(1, 11), (12, 22), (23, 33)], "{session}");
    let seqs: Vec<i64> = session["buffer"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["seq"].as_i64().unwrap())
        .collect();
    assert_eq!(seqs, (34..=45).collect::<Vec<_>>());

    let mut sources = app.sources("alex").await;
    assert_eq!(sources.len(), 3, "three Sources, no more");
    let posted: Vec<&str> = session["sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            assert!(c["posted_at"].is_string(), "posted: {c}");
            c["source_key"].as_str().unwrap()
        })
        .collect();
    sources.sort_by_key(|s| posted.iter().position(|k| *k == s.entity_key));
    for (source, key) in sources.iter().zip(&posted) {
        assert_eq!(source.entity_key, *key);
        assert_eq!(source.source_type.to_string(), "conversation");
        assert_eq!(transcript_texts(source).len(), 11);
    }
    assert_each_once(&said, &sources, &session);
    // Each client's turns keep their order: Sources, then the buffer, read in turn order.
    let stored: Vec<String> = sources
        .iter()
        .flat_map(transcript_texts)
        .chain(buffer_texts(&session))
        .collect();
    for client in 0..4 {
        let order: Vec<usize> = stored
            .iter()
            .filter_map(|text| said.iter().find(|t| t.text == *text))
            .filter(|t| t.n % 4 == client)
            .map(|t| t.n)
            .collect();
        assert!(
            order.is_sorted(),
            "client {client}'s turns in order: {order:?}"
        );
    }

    // The working memory: the buffer's latest 10 turns, in context.
    let (status, context) = app
        .api
        .post(
            "/api/context",
            &json!({ "user_id": "alex", "message": "What is the garden plan?",
                     "session_id": "chat-45", "budget_tokens": 4000 }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{context}");
    let text = context["context"].as_str().unwrap();
    let recent = &text[text.find("## Recent conversation").expect(text)..];
    let buffer = buffer_texts(&session);
    for turn in &buffer[2..] {
        assert!(recent.contains(turn.as_str()), "{turn} in {recent}");
    }
    for turn in &buffer[..2] {
        assert!(
            !recent.contains(turn.as_str()),
            "only the latest 10: {recent}"
        );
    }

    // Ending flushes the rest: a fourth Source of the 12 buffered turns.
    let ended = app.end("alex", "chat-45").await;
    assert_eq!(ended["status"], "ended", "{ended}");
    assert_eq!(ended["buffer"], json!([]));
    assert_eq!(ended["sources"].as_array().unwrap().len(), 4);
    assert_eq!(ended["sources"][3]["first_seq"], 34);
    assert_eq!(ended["sources"][3]["last_seq"], 45);
    let sources = app.sources("alex").await;
    assert_eq!(sources.len(), 4);
    assert_each_once(&said, &sources, &ended);
    let (status, refused) = app
        .api
        .post(
            "/api/sessions/chat-45/turns",
            &json!({ "user_id": "alex", "turns": [{ "speaker": "user", "text": "late" }] }),
        )
        .await;
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("conflict")),
        "{refused}"
    );
    assert_eq!(app.session("alex", "chat-45").await["turns_appended"], 45);
    assert_eq!(
        app.end("alex", "chat-45").await["sources"],
        ended["sources"]
    );

    // Each Source spans its turns' times and goes through the normal pipeline: its
    // processing was queued, and it is processed and extracted like a posted one.
    for source in &sources {
        let times: Vec<chrono::DateTime<chrono::Utc>> = source.raw_content["content"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["timestamp"].as_str().unwrap().parse().unwrap())
            .collect();
        assert_eq!(source.started_at, times.iter().min().copied());
        assert_eq!(source.ended_at, times.iter().max().copied());
        let job = app
            .svc
            .queue
            .job_by_key(JobKind::ProcessSource, &source.entity_key)
            .await
            .unwrap();
        assert!(job.is_some(), "{} queued", source.entity_key);
        app.pipeline(&source.entity_key, &source.user_id).await;
    }
    app.stop().await;
}
