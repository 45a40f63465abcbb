//! Links between Sources through the pipeline: `process-source` chains the sessions of
//! one chat in event order, erasure closes the gap, `infer-causal-links` links a reason
//! told later back to the session that told its cause, and explore's why-route follows
//! that link.

use std::sync::Arc;

use cosmo_pipeline::erasure;
use cosmo_pipeline::retrieval::rank::Signal;
use cosmo_shared::domain::SourceLinkKind;
use cosmo_shared::queue::JobKind;
use cosmo_shared::services::Services;
use cosmo_workers::dispatch::Dispatcher;

use super::{chat, explore, ingest, now};
use crate::graph_contract::cases::links::{links, sorted, temporal};

async fn talk(svc: &Services, user: &str, other: &str, day: i64, line: &str) -> String {
    let turns = [
        ("Alex Johnson", "hey Priya! how are you?"),
        ("Priya Patel", "good good, you?"),
        ("Alex Johnson", line),
    ];
    ingest(svc, chat(user, other, day, &turns)).await
}

/// Sessions posted out of order are chained by when they happened; a chat with someone
/// else is a thread of its own; erasing the middle session links its neighbours.
async fn sessions_of_one_chat_are_chained_in_event_order(
    svc: Services,
    user: String,
    other: String,
) {
    let third = talk(&svc, &user, &other, 30, "the roof is fixed at last").await;
    let first = talk(&svc, &user, &other, 10, "the roof is leaking again").await;
    let second = talk(&svc, &user, &other, 20, "a roofer is coming on friday").await;
    let turns = [
        ("Alex Johnson", "hi Sam"),
        ("Sam Lee", "the roof looks great"),
    ];
    let mut with_sam = chat(&user, &format!("sam{user}"), 15, &turns);
    with_sam["participants"] = serde_json::json!([user, format!("sam{user}")]);
    let elsewhere = ingest(&svc, with_sam).await;

    assert_eq!(
        links(&*svc.graph, &[&first, &second, &third]).await,
        sorted([temporal(&first, &second), temporal(&second, &third)])
    );
    assert_eq!(links(&*svc.graph, &[&elsewhere]).await, []);

    erasure::erase_source(&svc, &second).await.unwrap().unwrap();
    assert_eq!(
        links(&*svc.graph, &[&first, &third]).await,
        [temporal(&first, &third)]
    );
}

/// The offline model reads the marker ("after the whole vet drama") and links the
/// session to the one that told the drama, not to the small talk in between; a second
/// run finds nothing new to do.
async fn a_reason_told_later_links_back_to_its_cause(svc: Services, user: String, other: String) {
    let (cause, small_talk, effect) = vet_story(&svc, &user, &other).await;
    let jobs = Dispatcher::new(svc.clone());
    let run = jobs
        .run_periodic(JobKind::InferCausalLinks, now(), None)
        .await
        .unwrap_or_else(|e| panic!("{}", e.message));
    assert_eq!(run.changed, 1, "{run:?}");
    let causal: Vec<_> = svc
        .graph
        .source_links(std::slice::from_ref(&effect))
        .await
        .unwrap()
        .into_iter()
        .filter(|l| l.kind == SourceLinkKind::Causal)
        .collect();
    assert_eq!(causal.len(), 1, "{causal:?}");
    let link = &causal[0];
    assert_eq!((&link.from_key, &link.to_key), (&cause, &effect));
    assert_eq!(link.confidence, 0.7);
    assert!(
        link.evidence.as_deref().unwrap().contains("vet drama"),
        "{link:?}"
    );
    assert!(link.inferred_by.as_deref().unwrap().starts_with("offline:"));
    assert!(
        links(&*svc.graph, &[&small_talk])
            .await
            .iter()
            .all(|l| l.0 == SourceLinkKind::Temporal),
        "the small talk caused nothing"
    );

    let again = jobs
        .run_periodic(JobKind::InferCausalLinks, now(), None)
        .await
        .unwrap_or_else(|e| panic!("{}", e.message));
    assert_eq!((again.examined, again.changed), (0, 0), "{again:?}");
}

/// Asked why, explore lifts the session that told the cause through the link from the
/// best match, and says so; with routing off the same question does not.
async fn why_follows_the_link_to_the_cause(svc: Services, user: String, other: String) {
    let (cause, _, effect) = vet_story(&svc, &user, &other).await;
    Dispatcher::new(svc.clone())
        .run_periodic(JobKind::InferCausalLinks, now(), None)
        .await
        .unwrap_or_else(|e| panic!("{}", e.message));
    let question = "Why did Alex sign Biscuit up for obedience classes?";

    let routed = explore(&svc, &user, question).await;
    let found = routed.sources.as_ref().unwrap();
    let lifted = found
        .iter()
        .find(|r| r.item.entity_key == cause)
        .unwrap_or_else(|| panic!("the cause is found: {routed:#?}"));
    let chain = lifted
        .why
        .signals
        .iter()
        .find(|h| h.signal == Signal::Chain)
        .unwrap_or_else(|| panic!("lifted by the chain: {:#?}", lifted.why));
    assert_eq!(chain.via, std::slice::from_ref(&effect));

    let mut config = (*svc.config).clone();
    config.retrieval.intent_routing = false;
    let plain_svc = Services {
        config: Arc::new(config),
        ..svc.clone()
    };
    let plain = explore(&plain_svc, &user, question).await;
    let plain_cause = plain
        .sources
        .as_ref()
        .unwrap()
        .iter()
        .find(|r| r.item.entity_key == cause);
    if let Some(p) = plain_cause {
        assert!(p.why.signals.iter().all(|h| h.signal != Signal::Chain));
        assert!(p.why.relevance < lifted.why.relevance);
    }
}

/// The dog story: the vet drama, small talk, then training "after the vet drama".
async fn vet_story(svc: &Services, user: &str, other: &str) -> (String, String, String) {
    let cause = talk(
        svc,
        user,
        other,
        10,
        "rough week. Biscuit ate half a sock and we ended up at the emergency vet at 2am",
    )
    .await;
    let small_talk = talk(svc, user, other, 15, "I made a wonky bowl at pottery class").await;
    let effect = talk(
        svc,
        user,
        other,
        20,
        "we started obedience classes with Biscuit on thursdays, after the whole vet drama \
         he has to learn leave it",
    )
    .await;
    (cause, small_talk, effect)
}

on_every_backend!(
    sessions_of_one_chat_are_chained_in_event_order,
    a_reason_told_later_links_back_to_its_cause,
    why_follows_the_link_to_the_cause,
);
