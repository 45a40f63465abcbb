//! Retrieval finds what was said (content passages, score-aware fusion, importance
//! within relevance), measured on the generated conversation corpus of `cosmo-bench
//! retrieval` and on small hand-made cases, on every graph backend here.

use cosmo_pipeline::retrieval;
use cosmo_pipeline::retrieval::rank::Signal;
use cosmo_shared::domain::Target;
use cosmo_shared::services::Services;
use cosmo_tests::conversations::run::{self, Settings};
use cosmo_tests::conversations::{Size, generate, store as corpus_store};

use super::{chat, explore, ingest, keys};

/// The benchmark's quick corpus on the embedded default: explore finds more evidence
/// sessions than BM25 over the raw text, at least what its best signal finds alone and
/// what it finds with routing off, asks in reverse order with the same result, and still finds them after a week of
/// nightly jobs. (The offline model is deterministic, so are these figures;
/// BENCHMARKS.md has the full corpus.)
#[tokio::test]
async fn explore_beats_bm25_and_its_best_signal_in_any_order_and_after_a_week() {
    let kept = tempfile::tempdir().unwrap();
    let settings = Settings {
        keep: Some(kept.path().to_owned()),
        ..Settings::new(Size::Quick)
    };
    let report = run::run(&settings).await.unwrap();
    let (bm25, forward) = (
        report.bm25.all.recall_at_10,
        report.forward.all.recall_at_10,
    );
    assert!(
        forward >= bm25 + 0.03,
        "explore recall@10 {forward:.3} vs BM25 {bm25:.3}"
    );
    let unrouted = report.unrouted.all.recall_at_10;
    assert!(
        forward >= unrouted - 0.005,
        "routing lowers recall@10: {forward:.3} vs {unrouted:.3} without it"
    );
    let reverse = report.reverse.unwrap().all.recall_at_10;
    assert!(
        (reverse - forward).abs() <= 0.01,
        "the same questions in reverse order: {reverse:.3} vs {forward:.3}"
    );
    let week = report.after_week.unwrap().all.recall_at_10;
    assert!(
        week >= forward - 0.02,
        "after a week of nightly jobs: {week:.3} vs {forward:.3}"
    );
    assert_eq!(report.week_sources_archived, 0, "a back-fill waits a week");

    // Fusion never does worse than its best signal: each signal alone, on the same
    // ingestion (kept above).
    for signal in [Signal::Text, Signal::Vector] {
        let alone = run::run(&Settings {
            only_signal: Some(signal),
            forward_only: true,
            ..settings.clone()
        })
        .await
        .unwrap();
        assert!(alone.reused, "the same ingestion");
        let alone = alone.forward.all.recall_at_10;
        assert!(
            forward >= alone - 0.005,
            "explore recall@10 {forward:.3} vs the {signal:?} signal alone {alone:.3}"
        );
    }
}

/// Small talk that every session of the pair shares.
const FILLER: [(&str, &str); 6] = [
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

/// A long chat whose one fact sits in the middle of small talk: the summary of a long
/// conversation keeps one or two of its topics, so the fact is found by its passage,
/// which explore shows as the evidence. A short fact-free chat and chats about other
/// things are the competition.
async fn a_fact_deep_in_a_long_chat_is_found_with_its_passage(
    svc: Services,
    user: String,
    other: String,
) {
    let mut turns: Vec<(&str, &str)> = Vec::new();
    for _ in 0..3 {
        turns.extend(FILLER);
    }
    turns.insert(
        9,
        (
            "Priya Patel",
            "Oh, and my sister Ines finally moved to Lisbon for her new job at the aquarium.",
        ),
    );
    let deep = ingest(&svc, chat(&user, &other, 1, &turns)).await;
    let mut others = Vec::new();
    for (day, topic) in [
        (2, "I repainted the kitchen cabinets a dark green."),
        (3, "My cousin is training for the Berlin marathon."),
        (4, "We adopted a grey cat from the shelter."),
    ] {
        let mut turns = FILLER.to_vec();
        turns.insert(2, ("Priya Patel", topic));
        others.push(ingest(&svc, chat(&user, &other, day, &turns)).await);
    }
    let source = svc.graph.source(&deep).await.unwrap().unwrap();
    assert!(
        !source.summary.contains("Lisbon"),
        "the premise: the summary leaves the fact out: {}",
        source.summary
    );

    let found = explore(&svc, &user, "Where does Priya's sister live now?").await;
    assert_eq!(keys(&found)[0], deep, "{found:#?}");
    let top = &found.sources.as_ref().unwrap()[0];
    let passage = top.item.passage.as_ref().expect("the evidence passage");
    assert!(passage.text.contains("Lisbon"), "{passage:?}");
    let vector = top
        .why
        .signals
        .iter()
        .find(|h| h.signal == retrieval::rank::Signal::Vector)
        .expect("found by the vector signal too");
    assert!(vector.passage.is_some(), "by a passage: {vector:?}");
}

/// A Source the full-text signal ranks first by far is first in explore, although
/// other Sources are closer by vector and linked through the graph.
async fn the_best_text_match_is_not_lost_in_fusion(svc: Services, user: String, other: String) {
    let mut keys_by_topic = Vec::new();
    for (day, topic) in [
        (
            1,
            "Priya and I talked about the hiring plan and the budget for the team.",
        ),
        (
            2,
            "Priya said the team budget and the hiring plan need another review.",
        ),
        (
            3,
            "The hiring plan for Priya's team is waiting on the budget review.",
        ),
        (
            4,
            "Priya mentioned the zeppelin museum in Friedrichshafen, she wants to go in May.",
        ),
    ] {
        let mut turns = FILLER.to_vec();
        turns.insert(2, ("Alex Johnson", topic));
        keys_by_topic.push(ingest(&svc, chat(&user, &other, day, &turns)).await);
    }
    let query = "When does Priya want to visit the zeppelin museum about the team budget?";
    let text = svc
        .graph
        .text_search(
            &cosmo_shared::domain::SearchScope::user(&user),
            Target::Source,
            &retrieval::terms::terms(query),
            10,
        )
        .await
        .unwrap();
    assert_eq!(
        text[0].key, keys_by_topic[3],
        "the premise: text ranks it first"
    );
    let found = explore(&svc, &user, query).await;
    assert_eq!(keys(&found)[0], keys_by_topic[3], "{found:#?}");
}

/// The order of questions does not decide their answers, nor does asking again: the
/// access update raises what was returned, but importance only orders near-equals. One
/// conversation is ingested for two users; one asks its questions in order and then
/// once more, the other in reverse, and each question's top results and evidence found
/// are compared.
async fn the_order_of_questions_does_not_change_the_answers(
    svc: Services,
    user: String,
    other: String,
) {
    let corpus = generate(Size::Quick);
    let c = &corpus.conversations[0];
    // Ends with the user's name, so a Neo4j key space cleans it up too.
    let second = format!("again-{user}");
    corpus_store::ingest_conversation(&svc, c, &user, &other)
        .await
        .unwrap();
    corpus_store::ingest_conversation(&svc, c, &second, &other)
        .await
        .unwrap();
    // Enough questions that the tolerance below is more than one question's worth.
    let questions = &c.questions[..c.questions.len().min(100)];
    let n = questions.len();
    let mut forward = Vec::new();
    for q in questions {
        forward.push(sessions(&svc, &user, &q.text).await);
    }
    let mut twice = Vec::new();
    for q in questions {
        twice.push(sessions(&svc, &user, &q.text).await);
    }
    let mut reverse = Vec::new();
    for q in questions.iter().rev() {
        reverse.push(sessions(&svc, &second, &q.text).await);
    }
    reverse.reverse();
    // What a question's answer is judged by: its first results, and whether its
    // evidence is among the ten. (Lower down, relevance near-ties are common and
    // importance may order them differently.)
    let same_top = |other: &[Vec<i64>]| {
        forward
            .iter()
            .zip(other)
            .filter(|(f, o)| f[..3] == o[..3])
            .count()
    };
    let recall = |answers: &[Vec<i64>]| {
        let found: f64 = questions
            .iter()
            .zip(answers)
            .map(|(q, top)| {
                let at = |i: &usize| c.sessions[*i].started_at.timestamp();
                q.evidence.iter().filter(|i| top.contains(&at(i))).count() as f64
                    / q.evidence.len() as f64
            })
            .sum();
        found / questions.len() as f64
    };
    let f = recall(&forward);
    for (what, answers) in [("in reverse order", &reverse), ("asked again", &twice)] {
        let (same, r) = (same_top(answers), recall(answers));
        assert!(
            same * 10 >= n * 9 && (f - r).abs() <= 0.02,
            "{what}: top 3 the same for {same} of {n} questions; recall@10 {f:.3} first, \
             {r:.3} {what}"
        );
    }
}

/// The sessions explore returns, by their time (comparable across users).
async fn sessions(svc: &Services, user: &str, query: &str) -> Vec<i64> {
    let mut out = Vec::new();
    for key in keys(&explore(svc, user, query).await) {
        let s = svc.graph.source(&key).await.unwrap().unwrap();
        out.push(s.started_at.unwrap().timestamp());
    }
    out
}

on_every_backend!(
    a_fact_deep_in_a_long_chat_is_found_with_its_passage,
    the_best_text_match_is_not_lost_in_fusion,
    the_order_of_questions_does_not_change_the_answers,
);
