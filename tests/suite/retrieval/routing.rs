//! Routing: explore reads what each query asks for and the period it names, says so in
//! `routing`, and prefers what happened in that period without hiding the rest;
//! `since`/`until` filter explore and context alike.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use cosmo_pipeline::retrieval::intent::{Intent, ReadFrom};
use cosmo_pipeline::retrieval::{self, context};
use cosmo_shared::domain::input::read::{ContextInput, ExploreInput};
use cosmo_shared::services::Services;
use serde_json::json;

use super::{chat, explore, ingest, keys};

/// The same plan talked about three times: 100, 50 and 7 days before `now()` (Monday
/// 1 June 2026). The oldest chat says the most about it, so it ranks first when no
/// period is named. Returns the keys oldest first.
async fn three_talks(svc: &Services, user: &str, other: &str) -> [String; 3] {
    let talks = [
        (
            0,
            "The garden party plan: Priya books the band for the garden party, and the \
             garden party menu is grilled fish.",
        ),
        (
            50,
            "Priya called about the garden party, the band is booked.",
        ),
        (93, "Priya heard the garden party band might cancel."),
    ];
    priya_says(svc, user, other, talks).await
}

/// One short chat per `(day, what Priya says)`, ingested in order; their keys.
async fn priya_says<const N: usize>(
    svc: &Services,
    user: &str,
    other: &str,
    talks: [(i64, &str); N],
) -> [String; N] {
    let mut out = Vec::new();
    for (day, text) in talks {
        let turns = [
            ("Alex Johnson", "Hey Priya, good to hear from you."),
            ("Priya Patel", text),
            ("Alex Johnson", "Thanks for the update, talk soon!"),
        ];
        out.push(ingest(svc, chat(user, other, day, &turns)).await);
    }
    out.try_into().unwrap()
}

fn without_routing(svc: &Services) -> Services {
    let mut config = (*svc.config).clone();
    config.retrieval.intent_routing = false;
    Services {
        config: Arc::new(config),
        ..svc.clone()
    }
}

/// "Last week", "in April", "on 23 Feb 2026" put what happened then first; the others
/// stay in the results; with routing off the same words rank the oldest chat first.
async fn a_named_period_puts_what_happened_then_first(svc: Services, user: String, other: String) {
    let [oldest, april, last_week] = three_talks(&svc, &user, &other).await;
    let plain = explore(
        &svc,
        &user,
        "What did Priya say about the garden party band?",
    )
    .await;
    assert_eq!(keys(&plain)[0], oldest, "the premise: {plain:#?}");
    assert_eq!(plain.routing[0].period, None);

    for (query, phrase, expected) in [
        (
            "What did Priya say about the garden party band last week?",
            "last week",
            &last_week,
        ),
        (
            "What did Priya say about the garden party band in April?",
            "in april",
            &april,
        ),
        (
            "What did Priya tell me on 21 Feb 2026 about the garden party band?",
            "on 21 feb 2026",
            &oldest,
        ),
    ] {
        let found = explore(&svc, &user, query).await;
        let route = &found.routing[0];
        let period = route.period.as_ref().expect("a period is read");
        assert_eq!(period.phrase, phrase);
        assert_eq!(keys(&found)[0], *expected, "{query}: {found:#?}");
        assert_eq!(keys(&found).len(), 3, "nothing is filtered out: {query}");
        let first = &found.sources.as_ref().unwrap()[0];
        assert!(
            first.why.signals.iter().any(|s| s.in_period),
            "its why says the period's search found it: {first:#?}"
        );
        let unrouted = explore(&without_routing(&svc), &user, query).await;
        assert!(unrouted.routing.is_empty(), "routing off says nothing");
        assert_eq!(keys(&unrouted)[0], oldest, "routing off: {query}");
    }

    // A period without memories changes nothing.
    let empty = explore(
        &svc,
        &user,
        "What did Priya say about the garden party band in 2019?",
    )
    .await;
    assert!(empty.routing[0].period.is_some());
    assert_eq!(keys(&empty), keys(&plain));
}

/// A question that places what it asks after an event ("after the emergency vet
/// visit") searches again from that event's time on: what happened then comes first,
/// the rest stays in the results, and `routing` names the period the event bounds.
async fn an_event_named_in_the_question_bounds_its_period(
    svc: Services,
    user: String,
    other: String,
) {
    let [adoption, vet, classes] = priya_says(
        &svc,
        &user,
        &other,
        [
            (
                0,
                "We adopted a rescue dog named Biscuit! The dog loves the park, the dog \
             sleeps on my bed, the dog is the best dog.",
            ),
            (
                40,
                "Biscuit swallowed a sock and we rushed him to the emergency vet, the visit \
             took all night.",
            ),
            (
                80,
                "Biscuit started obedience classes, the dog is doing well.",
            ),
        ],
    )
    .await;
    let query = "What happened with the dog after the emergency vet visit?";

    let unrouted = explore(&without_routing(&svc), &user, query).await;
    let plain = keys(&unrouted);
    assert_eq!(plain.len(), 3);
    assert!(
        plain.iter().position(|k| *k == adoption) < plain.iter().position(|k| *k == classes),
        "the premise: without routing the adoption, which says most about the dog, \
         ranks above the classes: {unrouted:#?}"
    );

    let found = explore(&svc, &user, query).await;
    let period = found.routing[0].period.as_ref().expect("a period is read");
    assert_eq!(period.phrase, "after the emergency vet visit");
    let vet_source = svc.graph.source(&vet).await.unwrap().unwrap();
    assert_eq!(
        period.since, vet_source.started_at,
        "from the event's time on"
    );
    assert_eq!(period.until, None);
    assert_eq!(
        keys(&found),
        [vet.clone(), classes.clone(), adoption.clone()],
        "what happened from the visit on first, nothing filtered out: {found:#?}"
    );
}

/// "When did Priya buy the bike?" is answered by the chat that says she *bought* it:
/// a question asked with "did" is searched with the past forms of its irregular
/// verbs too, and `routing` lists them. Without routing, full text ranks the chats
/// that say "bike" twice or "buy" above it.
async fn a_question_asked_in_the_past_finds_what_was_told_in_the_past(
    svc: Services,
    user: String,
    other: String,
) {
    let [bought, _lane, _groceries] = priya_says(
        &svc,
        &user,
        &other,
        [
            (0, "I bought a red bike at the flea market on Saturday."),
            (
                10,
                "The new bike lane downtown is open, great news for my old bike.",
            ),
            (20, "I need to buy groceries for the week."),
        ],
    )
    .await;
    let query = "When did Priya buy the bike?";
    let text_rank = |found: &retrieval::Exploration, key: &str| {
        found
            .sources
            .as_ref()
            .unwrap()
            .iter()
            .find(|s| s.item.entity_key == key)
            .and_then(|s| {
                s.why
                    .signals
                    .iter()
                    .find(|h| h.signal == retrieval::rank::Signal::Text)
                    .map(|h| h.rank)
            })
    };

    let unrouted = explore(&without_routing(&svc), &user, query).await;
    assert_eq!(
        text_rank(&unrouted, &bought),
        Some(3),
        "the premise: by the question's own words full text ranks the purchase last: \
         {unrouted:#?}"
    );
    assert_ne!(keys(&unrouted)[0], bought, "{unrouted:#?}");

    let found = explore(&svc, &user, query).await;
    assert_eq!(found.routing[0].past_forms, ["bought"]);
    assert_eq!(text_rank(&found, &bought), Some(1), "{found:#?}");
    assert_eq!(keys(&found)[0], bought, "{found:#?}");

    // A question about a plan is not read in the past.
    let plan = explore(&svc, &user, "Is Priya going to buy a bike?").await;
    assert!(plan.routing[0].past_forms.is_empty());

    // A *when* question keeps the verb's object after it: the past form is searched
    // with the word after the verb, and a memory must hold both ("lost power"). The chat
    // that tells the outage in other words comes first, not the one that says "lost"
    // about other things.
    let [outage, _lost_things] = priya_says(
        &svc,
        &user,
        &other,
        [
            (30, "The power was out for two days after the storm."),
            (
                40,
                "I lost my phone, then lost the charger, and lost my keys too.",
            ),
        ],
    )
    .await;
    let found = explore(&svc, &user, "When did Priya lose power?").await;
    assert_eq!(found.routing[0].past_forms, ["lost power"]);
    assert_eq!(keys(&found)[0], outage, "{found:#?}");
}

/// Each query's intent, and how it was read, in the response; with the offline
/// embedder (which drops question words) only the question's form tells.
async fn explore_says_what_each_query_asks(svc: Services, user: String, other: String) {
    three_talks(&svc, &user, &other).await;
    let input = ExploreInput::parse(json!({
        "user_id": user,
        "queries": [
            { "query": "Why might the band cancel?" },
            { "query": "When was the band booked?" },
            { "query": "Who books the band?" },
            { "query": "What is on the garden party menu?" },
            { "query": "garden party band" },
        ],
    }))
    .unwrap();
    let found = retrieval::explore(&svc, &input, None).await.unwrap();
    let read: Vec<(usize, Intent, ReadFrom)> = found
        .routing
        .iter()
        .map(|r| (r.query, r.intent, r.read_from))
        .collect();
    assert_eq!(
        read,
        [
            (0, Intent::Why, ReadFrom::Form),
            (1, Intent::When, ReadFrom::Form),
            (2, Intent::Who, ReadFrom::Form),
            (3, Intent::What, ReadFrom::Form),
            (4, Intent::General, ReadFrom::Nothing),
        ]
    );
}

/// `since`/`until` on context narrow its episodes as they narrow explore.
async fn context_keeps_to_since_and_until(svc: Services, user: String, other: String) {
    let [oldest, april, last_week] = three_talks(&svc, &user, &other).await;
    let at = |s: &str| Some(s.parse::<DateTime<Utc>>().unwrap());
    let ask = |since, until| ContextInput {
        user_id: user.clone(),
        message: "What is happening with the garden party band?".into(),
        budget_tokens: Some(2000),
        format: cosmo_shared::domain::input::read::ContextFormat::Markdown,
        since,
        until,
        session_id: None,
    };
    let used = |answer: &context::Context| -> Vec<String> {
        answer
            .memories
            .iter()
            .filter(|m| m.kind == cosmo_shared::domain::MemoryKind::Source)
            .map(|m| m.key.clone())
            .collect()
    };
    let all = context::build(&svc, &ask(None, None), None).await.unwrap();
    let mut every = used(&all);
    every.sort();
    let mut expected = vec![oldest.clone(), april.clone(), last_week.clone()];
    expected.sort();
    assert_eq!(every, expected, "the premise: {}", all.context);

    let april_on = context::build(&svc, &ask(at("2026-04-01T00:00:00Z"), None), None)
        .await
        .unwrap();
    let mut later = used(&april_on);
    later.sort();
    let mut expected = vec![april.clone(), last_week.clone()];
    expected.sort();
    assert_eq!(later, expected, "{}", april_on.context);

    let window = context::build(
        &svc,
        &ask(at("2026-04-01T00:00:00Z"), at("2026-05-01T00:00:00Z")),
        None,
    )
    .await
    .unwrap();
    assert_eq!(used(&window), [april], "{}", window.context);
}

on_every_backend!(
    a_named_period_puts_what_happened_then_first,
    an_event_named_in_the_question_bounds_its_period,
    a_question_asked_in_the_past_finds_what_was_told_in_the_past,
    explore_says_what_each_query_asks,
    context_keeps_to_since_and_until,
);
