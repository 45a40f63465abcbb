//! `GET /api/entities/{key}`: a node with its live notes (newest first), its
//! relationships with the other end's name, the Sources mentioning it (newest first)
//! and its Storylines; reading it counts as a recall.

use cosmo_shared::domain::{
    ExtractionWrite, NodeIdentity, NodeRef, NodeUpsert, NoteLifetime, NoteTarget, NoteWrite,
};

use super::explore::call;
use super::world::{World, day, node_named};

#[tokio::test]
async fn an_entity_shows_live_notes_relationships_and_sources() {
    let w = World::new().await;
    w.profile("alex", "Alex Johnson").await;
    let first = w.ingest(call("Marco Rossi", 0, "vineyard harvest")).await;
    w.at(2);
    let second = w.ingest(call("Marco Rossi", 2, "olive grove")).await;
    let marco = node_named(&w, "alex", "Marco Rossi").await;
    // Two notes of our own from a third Source: one for a week, one forever.
    w.at(3);
    let third = w
        .api
        .post_source(&super::world::note("alex", 3, "A short note."))
        .await;
    w.process(&third).await;
    let note = |text: &str, lifetime| NoteWrite {
        target: NoteTarget::Node(NodeRef::Extracted(0)),
        text: text.into(),
        lifetime,
        said_at: day(3),
    };
    let extraction = ExtractionWrite {
        source_key: third.clone(),
        user_id: "alex".into(),
        event_time: day(3),
        at: day(3),
        nodes: vec![NodeUpsert {
            identity: NodeIdentity::person("Marco Rossi"),
            display_name: "Marco Rossi".into(),
            confidence: 0.9,
        }],
        relationships: Vec::new(),
        notes: vec![
            note("Harvest starts Monday", NoteLifetime::Week),
            note("Grows grapes", NoteLifetime::Forever),
        ],
        storylines: Vec::new(),
        is_source_owner: true,
    };
    w.svc.graph.write_extraction(&extraction).await.unwrap();

    w.at(4);
    let view = w.read(&format!("/api/entities/{marco}")).await;
    assert_eq!(
        (view["name"].as_str(), view["kind"].as_str()),
        (Some("Marco Rossi"), Some("person"))
    );
    let sources: Vec<&str> = view["sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["entity_key"].as_str().unwrap())
        .collect();
    assert_eq!(
        sources,
        [third.as_str(), second.as_str(), first.as_str()],
        "newest first"
    );
    let notes: Vec<&str> = view["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["text"].as_str().unwrap())
        .collect();
    assert!(
        notes.contains(&"Harvest starts Monday") && notes.contains(&"Grows grapes"),
        "{notes:?}"
    );
    let dates: Vec<&str> = view["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["date_added"].as_str().unwrap())
        .collect();
    assert!(
        dates.windows(2).all(|d| d[0] >= d[1]),
        "newest first: {dates:?}"
    );
    let rels = view["relationships"].as_array().unwrap();
    assert!(!rels.is_empty(), "{view}");
    for r in rels {
        assert!(
            r["from_key"] == marco.as_str() || r["to_key"] == marco.as_str(),
            "{r}"
        );
        assert_ne!(r["other_key"], marco.as_str());
        assert!(r["other_name"].is_string(), "the other end is named: {r}");
    }
    assert!(
        rels.iter().any(|r| r["other_name"] == "Alex Johnson"),
        "{rels:?}"
    );
    assert_eq!(view["access_count"], 1, "reading it is a recall");

    // A week on, the week's note is no longer shown (cleanup has not run yet).
    w.at(11);
    let later = w.read(&format!("/api/entities/{marco}")).await;
    let notes: Vec<&str> = later["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["text"].as_str().unwrap())
        .collect();
    assert!(
        !notes.contains(&"Harvest starts Monday") && notes.contains(&"Grows grapes"),
        "{notes:?}"
    );
    assert_eq!(later["access_count"], 2);
    let stored = w.svc.graph.node(&marco).await.unwrap().unwrap();
    assert!(
        stored
            .notes
            .iter()
            .any(|n| n.text == "Harvest starts Monday"),
        "still stored"
    );

    let (status, _) = w.api.get("/api/entities/no-such-node").await;
    assert_eq!(status, reqwest::StatusCode::NOT_FOUND);
}
