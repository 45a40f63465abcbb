//! When a memory was said, beside when it was noted: a chat of 2023 back-filled today
//! keeps its 2023 dates on its notes, its insights and the facts that cite it, written
//! now or filled in by `migrate()` for what an older Cosmo wrote.

use chrono::{DateTime, Utc};
use cosmo_shared::domain::input::SourceInput;
use cosmo_shared::domain::{
    FactWrite, NewFact, NewSource, NodeRef, NoteLifetime, NoteTarget, NoteWrite, SearchScope,
};
use cosmo_shared::graph::EpisodicConsolidation;
use cosmo_shared::graph::GraphStore;
use serde_json::json;

use super::super::support::*;

fn at(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().to_utc()
}

/// A chat that happened at `started_at`, posted (received) on day 1.
fn back_filled(user: &str, text: &str, started_at: DateTime<Utc>) -> NewSource {
    SourceInput::parse(json!({
        "user_id": user,
        "source_type": "text-note",
        "started_at": started_at.to_rfc3339(),
        "raw_content": { "content": text },
    }))
    .unwrap()
    .into_new_source(None, t0() + days(1))
}

/// What the case reads back: each note's said date on the node and in note search,
/// the insight's, and the fact's.
struct Said {
    notes: Vec<(String, DateTime<Utc>)>,
    found: Vec<(String, DateTime<Utc>)>,
    fact: DateTime<Utc>,
}

async fn read(g: &dyn GraphStore, user: &str, node: &str, fact: &str) -> Said {
    let mut notes: Vec<(String, DateTime<Utc>)> = g
        .node(node)
        .await
        .unwrap()
        .unwrap()
        .notes
        .into_iter()
        .map(|n| (n.text, n.said_at))
        .collect();
    notes.sort();
    let terms = ["support".to_owned(), "group".to_owned()];
    let mut found: Vec<(String, DateTime<Utc>)> = g
        .search_notes(&SearchScope::user(user), &terms, t0() + days(2), 50)
        .await
        .unwrap()
        .into_iter()
        .map(|h| (h.text, h.said_at))
        .collect();
    found.sort();
    let fact = g.fact(fact).await.unwrap().unwrap().said_at;
    Said { notes, found, fact }
}

pub async fn notes_insights_and_facts_keep_when_they_were_said(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let (may_8, may_20) = (at("2023-05-08T18:00:00Z"), at("2023-05-20T10:00:00Z"));
    let first = back_filled(&u.alice, "Caroline went to a support group.", may_8);
    let second = back_filled(&u.alice, "Caroline leads the support group now.", may_20);
    for s in [&first, &second] {
        g.create_source(s).await.unwrap();
    }
    let mut w = write(
        &first,
        &u.alice,
        t0() + days(1),
        vec![person("Caroline", 0.9)],
    );
    w.notes = vec![
        NoteWrite {
            target: NoteTarget::Node(NodeRef::Extracted(0)),
            text: "Caroline went to a support group yesterday.".into(),
            lifetime: NoteLifetime::Forever,
            said_at: w.event_time,
        },
        // A turn the transcript dated itself.
        NoteWrite {
            target: NoteTarget::Node(NodeRef::Extracted(0)),
            text: "The support group meets on Mondays.".into(),
            lifetime: NoteLifetime::Forever,
            said_at: may_8 + chrono::Duration::minutes(42),
        },
    ];
    let node = g.write_extraction(&w).await.unwrap().node_keys[0].clone();
    g.consolidate_sources(&EpisodicConsolidation {
        entity_key: node.clone(),
        user_id: u.alice.clone(),
        insight: "Caroline found a support group and came to lead it.".into(),
        lifetime: NoteLifetime::Forever,
        source_keys: vec![first.entity_key.clone(), second.entity_key.clone()],
        at: t0() + days(9),
    })
    .await
    .unwrap();
    let tell = |id: &str, text: &str, source_keys: Vec<String>| NewFact {
        fact_id: format!("{id}{}", u.alice),
        user_id: u.alice.clone(),
        text: text.into(),
        category: None,
        key: None,
        value: None,
        confidence: 0.9,
        about: vec![node.clone()],
        source_keys,
        embedding: None,
        at: t0() + days(3),
    };
    let stored = |w: FactWrite| match w {
        FactWrite::Stored { fact, .. } => fact,
        other => panic!("a new fact: {other:?}"),
    };
    let cites = vec![first.entity_key.clone(), second.entity_key.clone()];
    let fact = stored(
        g.store_fact(&tell("fact-said", "Caroline leads a support group.", cites))
            .await
            .unwrap(),
    );
    // A fact told without a Source was said when it was told.
    let plain = stored(
        g.store_fact(&tell("fact-plain", "Caroline likes tea.", Vec::new()))
            .await
            .unwrap(),
    );
    assert_eq!(plain.said_at, t0() + days(3));

    let want = Said {
        notes: vec![
            (
                "Caroline found a support group and came to lead it.".into(),
                may_20,
            ),
            ("Caroline went to a support group yesterday.".into(), may_8),
            (
                "The support group meets on Mondays.".into(),
                may_8 + chrono::Duration::minutes(42),
            ),
        ],
        found: Vec::new(),
        fact: may_20,
    };
    let written = read(g, &u.alice, &node, &fact.fact_id).await;
    assert_eq!(
        written.notes, want.notes,
        "noted on day 1, said in May 2023"
    );
    assert_eq!(
        written.found, want.notes,
        "note search says when they were said"
    );
    assert_eq!(written.fact, want.fact, "the latest Source it cites");

    // As a Cosmo that did not keep it left them, then migrated: filled in by the same
    // rules, except that a turn's own time was never recorded (its Source's is used).
    store.forget_when_said().await;
    g.migrate().await.unwrap();
    let migrated = read(g, &u.alice, &node, &fact.fact_id).await;
    let mut filled = want.notes.clone();
    filled[2].1 = may_8;
    assert_eq!(migrated.notes, filled);
    assert_eq!(migrated.found, filled);
    assert_eq!(migrated.fact, want.fact);
    assert_eq!(
        g.fact(&plain.fact_id).await.unwrap().unwrap().said_at,
        t0() + days(3)
    );
}
