//! `POST /api/explore` at the three granularities returns the Source, Storyline and
//! Macro a query was built from, ranked first with its reasons; and the drill-down
//! endpoints lead from a Macro to its Storylines to their Sources. Storylines and
//! Macros come from the real promotion jobs, in simulated time.

use cosmo_shared::queue::JobKind;
use serde_json::{Value, json};

use super::world::{World, day, keys_of};

/// A call between Alex and `person` on day `n` about `topic`.
pub(super) fn call(person: &str, n: i64, topic: &str) -> Value {
    let first = person.split(' ').next().unwrap();
    let turns = [
        (
            "Alex Johnson",
            format!("{first}, how is the {topic} going?"),
        ),
        (person, format!("The {topic} is on track for week {n}.")),
        (
            person,
            format!("I reviewed the {topic} numbers on day {n}."),
        ),
        (
            "Alex Johnson",
            format!("Thanks {first}, send me the {topic} summary."),
        ),
    ];
    let content: Vec<String> = turns
        .iter()
        .map(|(s, t)| json!({ "speaker": s, "text": t }).to_string())
        .collect();
    json!({
        "user_id": "alex", "source_type": "conversation", "started_at": day(n).to_rfc3339(),
        "raw_content": { "content": content.join("\n") },
    })
}

const SARAH: [&str; 10] = [
    "budget review",
    "hiring plan",
    "launch checklist",
    "vendor contract",
    "security audit",
    "reorg memo",
    "offsite agenda",
    "roadmap draft",
    "retro notes",
    "quarterly plan",
];
const MARCO: [&str; 10] = [
    "vineyard harvest",
    "olive grove",
    "wine cellar",
    "grape press",
    "barrel tasting",
    "orchard pruning",
    "honey bees",
    "cheese aging",
    "bread oven",
    "herb garden",
];

/// Two people, ten calls each in two bursts months apart: two Storylines each, then a
/// Macro each. Returns the Source keys per person, in call order.
async fn two_people(w: &World) -> (Vec<String>, Vec<String>) {
    w.profile("alex", "Alex Johnson").await;
    let (mut sarah, mut marco) = (Vec::new(), Vec::new());
    for i in 0..10 {
        let n = if i < 5 { i } else { 115 + i };
        w.at(n);
        sarah.push(w.ingest(call("Sarah Chen", n, SARAH[i as usize])).await);
        marco.push(w.ingest(call("Marco Rossi", n, MARCO[i as usize])).await);
        if i == 4 {
            assert_eq!(
                w.run(JobKind::PromoteStorylines, 7).await.changed,
                2,
                "one each"
            );
        }
    }
    assert_eq!(
        w.run(JobKind::PromoteStorylines, 128).await.changed,
        2,
        "a second each"
    );
    assert_eq!(
        w.run(JobKind::PromoteMacros, 130).await.changed,
        2,
        "one Macro each"
    );
    (sarah, marco)
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

/// Each result says why it was returned, and results come best first.
fn assert_explained(answer: &Value, list: &str) {
    let results = answer[list].as_array().unwrap();
    assert!(!results.is_empty(), "{list}: {answer}");
    for r in results {
        let signals = r["why"]["signals"].as_array().unwrap();
        assert!(!signals.is_empty(), "a reason for {r}");
        assert!(r["why"]["importance"].is_number() && r["why"]["relevance"].is_number());
    }
    let scores: Vec<f64> = results
        .iter()
        .map(|r| r["score"].as_f64().unwrap())
        .collect();
    assert!(
        scores.windows(2).all(|p| p[0] >= p[1]),
        "{list} best first: {scores:?}"
    );
}

#[tokio::test]
async fn each_granularity_returns_what_the_query_was_built_from() {
    let w = World::new().await;
    let (sarah, marco) = two_people(&w).await;
    let first = w.read(&format!("/api/sources/{}", marco[0])).await;
    assert_eq!(first["status"], "extracted");

    // Granularity 1: a Source, by the words only it holds.
    for (keys, topics) in [(&sarah, &SARAH), (&marco, &MARCO)] {
        for i in [0, 7] {
            let answer = w
                .explore("alex", &format!("the {} numbers", topics[i]), 1)
                .await;
            assert_eq!(answer["granularity"], 1);
            let found = keys_of(&answer, "sources", "entity_key");
            assert_eq!(found[0], keys[i], "{}: {answer}", topics[i]);
            assert_explained(&answer, "sources");
            assert!(answer["nodes"].is_array() && answer.get("storylines").is_none());
        }
    }
    let answer = w.explore("alex", "Marco Rossi", 1).await;
    let nodes = answer["nodes"].as_array().unwrap();
    let marco_view = nodes
        .iter()
        .find(|n| n["name"] == "Marco Rossi")
        .unwrap_or_else(|| panic!("Marco among the nodes: {answer}"));
    assert_eq!(marco_view["kind"], "person");
    let marco_key = marco_view["entity_key"].as_str().unwrap().to_owned();
    let rels = marco_view["relationships"].as_array().unwrap();
    assert!(
        !rels.is_empty(),
        "Marco talks with Alex in every call: {marco_view}"
    );
    for r in rels {
        assert!(
            r["from_key"] == marco_key.as_str() || r["to_key"] == marco_key.as_str(),
            "{r}"
        );
    }

    // Granularity 2: the Storyline of the burst the query's topics come from.
    let entity = w.read(&format!("/api/entities/{marco_key}")).await;
    let storylines = entity["storylines"].as_array().unwrap();
    assert_eq!(storylines.len(), 2, "{entity}");
    for (burst, range) in [(0, 0..5), (1, 5..10)] {
        let query = MARCO[range.clone()].join(", ");
        let answer = w.explore("alex", &query, 2).await;
        assert_eq!(answer["granularity"], 2);
        assert_explained(&answer, "storylines");
        let top = &answer["storylines"][0];
        assert_eq!(
            top["anchor_key"],
            marco_key.as_str(),
            "burst {burst}: {answer}"
        );
        let shown = keys_of(top, "sources", "entity_key");
        assert_eq!(
            sorted(shown),
            sorted(marco[range].to_vec()),
            "its Sources' metadata"
        );
        for s in top["sources"].as_array().unwrap() {
            assert!(!s["summary"].as_str().unwrap().is_empty() && s["event_time"].is_string());
        }
        // Drill down: the Storyline's own endpoint shows the same Sources.
        let id = top["storyline_id"].as_str().unwrap();
        let view = w.read(&format!("/api/storylines/{id}")).await;
        assert_eq!(view["sources"], top["sources"]);
        assert_eq!(view["source_count"], 5);
    }

    // Granularity 3: the Macro about the person the query names.
    for (person, topics) in [("Marco Rossi", &MARCO), ("Sarah Chen", &SARAH)] {
        let answer = w
            .explore("alex", &format!("{person}: {}", topics[..3].join(", ")), 3)
            .await;
        assert_eq!(answer["granularity"], 3);
        assert_explained(&answer, "macros");
        let top = &answer["macros"][0];
        let anchor = w
            .read(&format!(
                "/api/entities/{}",
                top["anchor_key"].as_str().unwrap()
            ))
            .await;
        assert_eq!(anchor["name"], person, "{answer}");
        assert_eq!(
            (
                top["storyline_count"].as_i64(),
                top["total_source_count"].as_i64()
            ),
            (Some(2), Some(10))
        );
        let lines = top["storylines"].as_array().unwrap();
        assert_eq!(lines.len(), 2);
        for l in lines {
            assert!(
                !l["one_liner"].as_str().unwrap().is_empty() && l["source_count"] == 5,
                "{l}"
            );
        }
        // Drill down: Macro → its Storylines → their Sources (ten in all).
        let id = top["macro_id"].as_str().unwrap();
        let view = w.read(&format!("/api/macros/{id}")).await;
        let mut all = Vec::new();
        for l in view["storylines"].as_array().unwrap() {
            let st = w
                .read(&format!(
                    "/api/storylines/{}",
                    l["storyline_id"].as_str().unwrap()
                ))
                .await;
            all.extend(keys_of(&st, "sources", "entity_key"));
        }
        let want = if person == "Marco Rossi" {
            &marco
        } else {
            &sarah
        };
        assert_eq!(sorted(all), sorted(want.clone()));
    }
}

#[tokio::test]
async fn processed_content_is_returned_on_request_and_time_ranges_filter() {
    let w = World::new().await;
    let early = w
        .ingest(super::world::note(
            "alex",
            1,
            "Kayak trip on the lake with Dana.",
        ))
        .await;
    let late = w
        .ingest(super::world::note(
            "alex",
            9,
            "Kayak repair at the harbour.",
        ))
        .await;
    let body = |extra: Value| {
        let mut b = json!({ "user_id": "alex", "queries": [{ "query": "kayak" }] });
        b.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        b
    };
    let plain = w.ok("/api/explore", body(json!({}))).await;
    assert_eq!(
        sorted(keys_of(&plain, "sources", "entity_key")),
        sorted(vec![early.clone(), late.clone()])
    );
    assert!(
        plain["sources"][0].get("content").is_none(),
        "no content unless asked"
    );
    let full = w
        .ok("/api/explore", body(json!({ "include_content": true })))
        .await;
    for s in full["sources"].as_array().unwrap() {
        assert!(s["content"].as_str().unwrap().contains("Kayak"), "{s}");
    }
    let ranged = w
        .ok(
            "/api/explore",
            body(json!({ "since": day(5).to_rfc3339(), "until": day(10).to_rfc3339() })),
        )
        .await;
    assert_eq!(keys_of(&ranged, "sources", "entity_key"), [late]);
    let limited = w.ok("/api/explore", body(json!({ "limit": 1 }))).await;
    assert_eq!(limited["sources"].as_array().unwrap().len(), 1);
}
