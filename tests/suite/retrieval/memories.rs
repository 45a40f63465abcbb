//! Notes and facts are memories retrieval finds, with their date and where they came
//! from: explore lists the notes and facts that match a query; context puts them in the
//! prompt before anything merely related, and an episode quotes the passage that
//! matched. And importance only re-ranks: a memory made popular by being returned many
//! times does not push a fresh, more relevant one down.

use cosmo_pipeline::retrieval::context;
use cosmo_shared::domain::input::read::{ContextFormat, ContextInput};
use cosmo_shared::domain::{FactWrite, NewFact};
use cosmo_shared::services::Services;
use serde_json::json;

use super::{chat, explore, ingest, keys, now};

/// The README's note.
const SARAH: &str = "Lunch with Sarah Chen from Acme Corp. Sarah Chen leads the hiring plan at \
                     Acme Corp. Sarah Chen wants the hiring plan done by March.";
const WANTS: &str = "Sarah Chen wants the hiring plan done by March.";

async fn note(svc: &Services, user: &str, day: i64, text: &str) -> String {
    ingest(
        svc,
        json!({
            "user_id": user, "source_type": "text-note",
            "started_at": (now() - chrono::Duration::days(100 - day)).to_rfc3339(),
            "raw_content": { "content": text },
        }),
    )
    .await
}

/// A fact of `user`'s, taken from `source`, as `POST /api/facts` stores it.
async fn fact(svc: &Services, user: &str, text: &str, source: &str) -> String {
    let embedding = svc
        .models
        .embedder
        .embed(&[text.to_owned()])
        .await
        .unwrap()
        .value
        .remove(0);
    let new = NewFact {
        fact_id: ulid::Ulid::generate().to_string(),
        user_id: user.to_owned(),
        text: text.to_owned(),
        category: None,
        key: None,
        value: None,
        confidence: 1.0,
        about: Vec::new(),
        source_keys: vec![source.to_owned()],
        embedding: Some(embedding),
        at: now(),
    };
    match svc.graph.store_fact(&new).await.unwrap() {
        FactWrite::Stored { fact, .. } => fact.fact_id,
        other => panic!("{other:?}"),
    }
}

async fn context_for(svc: &Services, user: &str, message: &str) -> String {
    let input = ContextInput::parse(json!({
        "user_id": user, "message": message, "budget_tokens": 2000,
    }))
    .unwrap();
    let built = context::build(svc, &input, None).await.unwrap();
    assert_eq!(built.format, ContextFormat::Markdown);
    built.context
}

/// What was noted about Sarah is found at once, by explore and by context, with its
/// Source and when it was said (the Source's day, 99 days back, not the day it was
/// noted); so is a fact taken from a Source. Nothing nightly has run.
async fn notes_and_facts_are_found_with_their_date_and_source(
    svc: Services,
    user: String,
    _other: String,
) {
    let key = note(&svc, &user, 1, SARAH).await;
    note(&svc, &user, 2, "Tomatoes in the garden need water.").await;
    let garden = note(&svc, &user, 3, "The garden fence needs paint.").await;
    let fact_id = fact(&svc, &user, "The garden fence is painted green.", &garden).await;

    let found = explore(&svc, &user, "What does Sarah Chen want by March?").await;
    let notes = found.notes.as_ref().unwrap();
    let wants = notes
        .iter()
        .find(|n| n.text == WANTS)
        .unwrap_or_else(|| panic!("the note that answers: {notes:#?}"));
    assert_eq!(wants.source_id.as_deref(), Some(key.as_str()));
    assert_eq!(wants.owner, "Sarah Chen");
    assert!(
        found.facts.as_ref().unwrap().is_empty(),
        "no fact about Sarah: {:#?}",
        found.facts
    );

    let found = explore(&svc, &user, "What colour is the garden fence?").await;
    let facts = found.facts.as_ref().unwrap();
    assert_eq!(
        facts.first().map(|f| f.item.fact_id.as_str()),
        Some(fact_id.as_str()),
        "{facts:#?}"
    );
    assert_eq!(facts[0].item.source_keys, std::slice::from_ref(&garden));
    assert!(
        facts[0].item.lifecycle.access_count >= 1,
        "returned counts as recalled"
    );

    assert_eq!(
        wants.said_at.date_naive(),
        (now() - chrono::Duration::days(99)).date_naive(),
        "explore says when it was said"
    );
    let said = |days: i64| (now() - chrono::Duration::days(days)).format("%-d %B %Y");
    let text = context_for(&svc, &user, "What does Sarah Chen want by March?").await;
    let header = format!("- {} · text-note · {key}:\n", said(99));
    let at = text
        .find(&header)
        .unwrap_or_else(|| panic!("the Source with when it was said: {text}"));
    assert!(
        text[at..].contains(&format!("  {WANTS}\n")),
        "the sentence noted, under it: {text}"
    );
    let text = context_for(&svc, &user, "What colour is the garden fence?").await;
    assert!(
        text.contains(&format!(
            "- {} · from {garden}: The garden fence is painted green.",
            said(97)
        )),
        "the fact with its Source and when that was: {text}"
    );
}

/// Context shows the turn of a long chat that answers the message, under the chat, when
/// the summary leaves it out.
async fn an_episode_quotes_the_passage_that_answers(svc: Services, user: String, other: String) {
    let small_talk = [
        (
            "Alex Johnson",
            "How was your week? Work has been a lot lately.",
        ),
        (
            "Priya Patel",
            "Busy but good, we should get dinner together soon.",
        ),
    ];
    let mut turns: Vec<(&str, &str)> = small_talk.iter().cycle().take(16).copied().collect();
    turns.insert(
        9,
        (
            "Priya Patel",
            "My sister Ines moved to Lisbon for a job at the aquarium.",
        ),
    );
    let key = ingest(&svc, chat(&user, &other, 1, &turns)).await;
    let source = svc.graph.source(&key).await.unwrap().unwrap();
    assert!(
        !source.summary.contains("Lisbon"),
        "the premise: the summary leaves it out: {}",
        source.summary
    );
    let text = context_for(&svc, &user, "Where does Priya's sister Ines live now?").await;
    let at = text
        .find(&format!(" · conversation · {key}:\n"))
        .unwrap_or_else(|| panic!("the chat is shown: {text}"));
    assert!(
        text[at..]
            .contains("\n  Priya Patel: My sister Ines moved to Lisbon for a job at the aquarium."),
        "{text}"
    );
    assert!(
        !text.contains("## Episodes"),
        "no summary where a turn is shown: {text}"
    );
}

/// A Source returned again and again (salience up, `core`) does not outrank a fresh
/// Source that answers the question better: importance orders near-equals only.
async fn a_fresh_relevant_memory_beats_a_popular_one(svc: Services, user: String, _o: String) {
    let popular = note(
        &svc,
        &user,
        1,
        "Talked about the team budget for next year with the finance group.",
    )
    .await;
    for _ in 0..12 {
        let found = explore(&svc, &user, "the team budget").await;
        assert_eq!(keys(&found)[0], popular);
    }
    let p = svc.graph.source(&popular).await.unwrap().unwrap();
    assert_eq!(
        p.lifecycle.state.to_string(),
        "core",
        "the premise: returned 12 times"
    );
    assert!(p.lifecycle.salience > 0.9, "{:?}", p.lifecycle);

    let fresh = note(
        &svc,
        &user,
        2,
        "The team budget review moved to Thursday; Dana approves the team budget.",
    )
    .await;
    let found = explore(&svc, &user, "Who approves the team budget review?").await;
    let ranked = found.sources.as_ref().unwrap();
    assert_eq!(
        keys(&found)[..2],
        [fresh.clone(), popular.clone()],
        "{ranked:#?}"
    );
    assert!(
        ranked[0].why.importance < ranked[1].why.importance,
        "the fresh one is the less important: {ranked:#?}"
    );
}

on_every_backend!(
    notes_and_facts_are_found_with_their_date_and_source,
    an_episode_quotes_the_passage_that_answers,
    a_fresh_relevant_memory_beats_a_popular_one,
);
