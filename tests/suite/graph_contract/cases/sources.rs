//! Sources, processing state, the owner Person, extraction records.

use cosmo_shared::domain::{
    ExtractionStatus, MemoryState, ProcessedContent, ProcessingStatus, SourceWrite, TtlPolicy,
};
use cosmo_shared::graph::GraphError;
use serde_json::json;

use super::super::support::*;

pub async fn sources_round_trip(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let mut new = source(&u.alice, "Lunch with Sarah Chen.", t0());
    new.provenance =
        Some(json!({ "origin": "app", "confidence": 0.9, "nested": { "list": [1, 2] } }));
    new.context_type = Some("personal".into());
    let SourceWrite::Created(created) = g.create_source(&new).await.unwrap() else {
        panic!("expected a new source")
    };
    let read = g
        .source(&new.entity_key)
        .await
        .unwrap()
        .expect("source exists");
    assert_eq!(created, read);
    assert_eq!(
        read.raw_content, new.raw_content,
        "raw content is kept verbatim"
    );
    assert_eq!(
        read.provenance, new.provenance,
        "structured provenance survives"
    );
    assert_eq!(read.processing_status, ProcessingStatus::Raw);
    assert_eq!(read.started_at, Some(t0()));
    assert_eq!(read.content_hash, new.content_hash);
    assert_eq!(read.lifecycle.salience, 0.5);
    assert_eq!(read.lifecycle.state, MemoryState::Candidate);
    assert_eq!(read.lifecycle.ttl_policy, TtlPolicy::Decay);
    assert!(read.embedding.is_none() && read.summary.is_empty() && read.keywords.is_empty());
    assert!(g.source("no-such-key").await.unwrap().is_none());
}

pub async fn reposting_returns_the_existing_source(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let first = source(&u.alice, "Same note.", t0());
    assert!(matches!(
        g.create_source(&first).await.unwrap(),
        SourceWrite::Created(_)
    ));
    let mut again = first.clone();
    again.lifecycle.created_at = t0() + days(1);
    match g.create_source(&again).await.unwrap() {
        SourceWrite::Existing(s) => {
            assert_eq!(s.lifecycle.created_at, t0(), "the first write is kept")
        }
        other => panic!("expected the existing source, got {other:?}"),
    }
    assert_eq!(
        g.sources_for_user(&u.alice, None, 10).await.unwrap().len(),
        1
    );
}

pub async fn processing_fields_and_errors(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let new = source(&u.alice, "A note.", t0());
    g.create_source(&new).await.unwrap();
    let key = &new.entity_key;
    g.mark_processing_started(key, t0() + days(1))
        .await
        .unwrap();
    g.record_processing_error(key, Some("model timed out"), t0() + days(1))
        .await
        .unwrap();
    assert_eq!(
        g.source(key)
            .await
            .unwrap()
            .unwrap()
            .processing_error
            .as_deref(),
        Some("model timed out")
    );
    let processed = ProcessedContent {
        content: "A note.".into(),
        summary: "A short note.".into(),
        keywords: vec!["note".into(), "short".into()],
        tags: vec!["personal".into(), "text-note".into(), "memo".into()],
        embedding: vec![0.25, -0.5, 1.0],
        passages: Vec::new(),
        embedded_with: EMBEDDED_WITH.into(),
    };
    assert!(
        g.save_processed(key, &processed, t0() + days(2))
            .await
            .unwrap()
    );
    let s = g.source(key).await.unwrap().unwrap();
    assert_eq!(s.processing_status, ProcessingStatus::Processed);
    assert_eq!(
        (s.summary.as_str(), s.keywords.clone(), s.tags.clone()),
        (
            "A short note.",
            processed.keywords.clone(),
            processed.tags.clone()
        )
    );
    assert_eq!(s.embedding.as_deref(), Some(&[0.25f32, -0.5, 1.0][..]));
    assert_eq!(s.embedded_with.as_deref(), Some(EMBEDDED_WITH));
    assert_eq!(s.processing_error, None, "success clears the last error");
    assert_eq!(s.processing_started_at, Some(t0() + days(1)));
    assert_eq!(s.processing_completed_at, Some(t0() + days(2)));
    assert!(!g.save_processed("missing", &processed, t0()).await.unwrap());
}

pub async fn stuck_sources_are_found(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let old = source(&u.alice, "Old raw.", t0());
    let fresh = source(&u.alice, "Fresh raw.", t0() + days(5));
    let done = source(&u.alice, "Processed long ago.", t0());
    for s in [&old, &fresh, &done] {
        g.create_source(s).await.unwrap();
    }
    let processed = ProcessedContent {
        content: "x".into(),
        summary: "x".into(),
        keywords: vec![],
        tags: vec![],
        embedding: vec![1.0],
        passages: Vec::new(),
        embedded_with: EMBEDDED_WITH.into(),
    };
    g.save_processed(&done.entity_key, &processed, t0())
        .await
        .unwrap();
    let stuck = g.stuck_sources(t0() + days(1), 10).await.unwrap();
    let keys: Vec<&str> = stuck.iter().map(|s| s.entity_key.as_str()).collect();
    assert!(keys.contains(&old.entity_key.as_str()) && keys.contains(&done.entity_key.as_str()));
    assert!(
        !keys.contains(&fresh.entity_key.as_str()),
        "recently written sources are not stuck"
    );
    assert_eq!(
        g.stuck_sources(t0() + days(1), 1).await.unwrap().len(),
        1,
        "the limit holds"
    );
}

pub async fn owner_person_lifecycle(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    assert!(g.owner(&u.alice).await.unwrap().is_none());
    let owner = g
        .upsert_owner(&u.alice, "Alice  Walker", t0())
        .await
        .unwrap();
    assert!(owner.is_owner);
    assert_eq!(owner.identity.name, "alice-walker");
    assert_eq!(owner.name, "Alice  Walker");
    assert_eq!(
        (
            owner.lifecycle.state,
            owner.lifecycle.salience,
            owner.lifecycle.confidence
        ),
        (MemoryState::Core, 1.0, 1.0)
    );
    assert_eq!(owner.lifecycle.ttl_policy, TtlPolicy::KeepForever);
    assert_eq!(
        g.upsert_owner(&u.alice, "Alice  Walker", t0() + days(1))
            .await
            .unwrap(),
        owner,
        "same profile, no change"
    );

    let renamed = g
        .upsert_owner(&u.alice, "Alice Walker-Smith", t0() + days(2))
        .await
        .unwrap();
    assert_eq!(
        (renamed.entity_key.as_str(), renamed.identity.name.as_str()),
        (owner.entity_key.as_str(), "alice-walker-smith")
    );
    // Someone else called by Alice's old name is a different person.
    let old_name = source(&u.alice, "Met another Alice Walker.", t0());
    g.create_source(&old_name).await.unwrap();
    let other = g
        .write_extraction(&write(
            &old_name,
            &u.alice,
            t0() + days(3),
            vec![person("Alice Walker", 0.8)],
        ))
        .await
        .unwrap();
    assert_ne!(other.node_keys[0], owner.entity_key);
    assert_eq!(other.nodes_created, 1);

    // Bob's graph already has an extracted "Bob Stone": his profile makes it the owner.
    let s = source(&u.bob, "Notes.", t0());
    g.create_source(&s).await.unwrap();
    let extracted = g
        .write_extraction(&write(&s, &u.bob, t0(), vec![person("Bob Stone", 0.7)]))
        .await
        .unwrap();
    let bob = g
        .upsert_owner(&u.bob, "Bob Stone", t0() + days(1))
        .await
        .unwrap();
    assert_eq!(
        bob.entity_key, extracted.node_keys[0],
        "no duplicate person for the owner"
    );
    assert!(bob.is_owner && bob.lifecycle.state == MemoryState::Core);

    // Renaming Alice onto another existing Person of hers is refused.
    let s2 = source(&u.alice, "More notes.", t0());
    g.create_source(&s2).await.unwrap();
    g.write_extraction(&write(
        &s2,
        &u.alice,
        t0(),
        vec![person("Carol Jones", 0.8)],
    ))
    .await
    .unwrap();
    assert!(matches!(
        g.upsert_owner(&u.alice, "Carol Jones", t0()).await,
        Err(GraphError::Conflict(_))
    ));
    assert_eq!(
        g.owner(&u.alice).await.unwrap().unwrap().identity.name,
        "alice-walker-smith"
    );
}

pub async fn extraction_records_move_through_their_states(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let s = team_source(&u.alice, &[&*u.bob], "Team notes.", t0());
    g.create_source(&s).await.unwrap();
    let key = &s.entity_key;
    assert!(g.extraction(key, &u.bob).await.unwrap().is_none());
    let pending = g.request_extraction(key, &u.bob, t0()).await.unwrap();
    assert_eq!(pending.status, ExtractionStatus::Pending);
    assert_eq!(
        g.request_extraction(key, &u.bob, t0() + days(1))
            .await
            .unwrap(),
        pending,
        "asking again changes nothing"
    );
    g.mark_extraction_started(key, &u.bob, t0() + days(1))
        .await
        .unwrap();
    assert_eq!(
        g.extraction(key, &u.bob).await.unwrap().unwrap().status,
        ExtractionStatus::InProgress
    );
    g.record_extraction_error(key, &u.bob, "model timed out", false, t0() + days(1))
        .await
        .unwrap();
    let retrying = g.extraction(key, &u.bob).await.unwrap().unwrap();
    assert_eq!(
        (retrying.status, retrying.error.as_deref()),
        (ExtractionStatus::Pending, Some("model timed out")),
        "a failed attempt with attempts left waits for its retry"
    );
    g.record_extraction_error(key, &u.bob, "model refused", true, t0() + days(1))
        .await
        .unwrap();
    let failed = g.extraction(key, &u.bob).await.unwrap().unwrap();
    assert_eq!(
        (failed.status, failed.error.as_deref()),
        (ExtractionStatus::Failed, Some("model refused"))
    );
    assert_eq!(
        g.request_extraction(key, &u.bob, t0() + days(2))
            .await
            .unwrap()
            .status,
        ExtractionStatus::Pending,
        "a failed extraction can be asked for again"
    );
    let stuck = g.stuck_extractions(t0() + days(3), 10).await.unwrap();
    assert_eq!(stuck.len(), 1);
    assert!(
        g.stuck_extractions(t0() + days(1), 10)
            .await
            .unwrap()
            .is_empty()
    );

    g.write_extraction(&write(&s, &u.bob, t0() + days(3), vec![]))
        .await
        .unwrap();
    let done = g.extraction(key, &u.bob).await.unwrap().unwrap();
    assert_eq!(
        (done.status, done.completed_at),
        (ExtractionStatus::Extracted, Some(t0() + days(3)))
    );
    g.record_extraction_error(key, &u.bob, "late failure", true, t0() + days(4))
        .await
        .unwrap();
    assert_eq!(
        g.extraction(key, &u.bob).await.unwrap().unwrap().status,
        ExtractionStatus::Extracted,
        "a done extraction stays done"
    );
    assert_eq!(
        g.source(key).await.unwrap().unwrap().processing_status,
        ProcessingStatus::Raw,
        "a participant's extraction does not complete the owner's"
    );
    assert_eq!(g.extractions(key).await.unwrap().len(), 1);
}

pub async fn a_batch_extraction_lists_the_team_sources_not_yet_asked_for(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let mut keys = Vec::new();
    for (i, text) in ["First team call.", "Second team call.", "Third team call."]
        .iter()
        .enumerate()
    {
        let s = team_source(&u.alice, &[&*u.bob], text, t0() + days(i as i64));
        g.create_source(&s).await.unwrap();
        keys.push(s.entity_key);
    }
    // Not bob's to extract: alice's own note, a team Source without him, his own note.
    for s in [
        source(&u.alice, "Alice alone.", t0()),
        team_source(&u.alice, &[&*u.carol], "Alice and Carol.", t0()),
        source(&u.bob, "Bob's own note.", t0()),
    ] {
        g.create_source(&s).await.unwrap();
    }
    keys.sort();
    let bob = u.bob.as_str();
    let listed =
        |limit: usize| async move { g.unrequested_team_sources(bob, limit).await.unwrap() };
    assert_eq!(
        listed(10).await,
        keys,
        "every team Source bob takes part in, by key"
    );
    assert_eq!(listed(2).await, keys[..2], "at most the limit");
    assert!(
        g.unrequested_team_sources(&u.alice, 10)
            .await
            .unwrap()
            .is_empty(),
        "the owner's are extracted for her already"
    );

    // Asked for, in progress or done: no longer listed; failed for good: listed again.
    g.request_extraction(&keys[0], &u.bob, t0()).await.unwrap();
    g.request_extraction(&keys[1], &u.bob, t0()).await.unwrap();
    assert_eq!(listed(10).await, keys[2..]);
    g.record_extraction_error(&keys[1], &u.bob, "model refused", true, t0() + days(1))
        .await
        .unwrap();
    assert_eq!(listed(10).await, [keys[1].clone(), keys[2].clone()]);
    assert!(listed(0).await.is_empty());
}
