//! Memory over time, in simulated time: a recurring person becomes a Storyline, a new
//! Source joins it and the refresh rewrites it, a second Storyline months later and a
//! Macro grouping both; decay archives a tentative memory on schedule but not a confirmed
//! one; expired notes go, forever notes stay; and re-running any job for the same as-of
//! time changes nothing. Runs on every graph backend here.

use chrono::{DateTime, Duration, Utc};
use cosmo_shared::clock::ManualClock;
use cosmo_shared::domain::input::SourceInput;
use cosmo_shared::domain::{
    ExtractionWrite, MemoryState, NodeIdentity, NodeRef, NodeUpsert, NoteLifetime, NoteTarget,
    NoteWrite,
};
use cosmo_shared::graph::GraphSnapshot;
use cosmo_shared::queue::JobKind;
use cosmo_shared::services::Services;
use cosmo_tests::stores;
use cosmo_workers::dispatch::Dispatcher;
use serde_json::{Value, json};

fn day(n: i64) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-01-05T09:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
        + Duration::days(n)
}

/// A call with Sarah Chen about `topic` on day `n`.
fn call_with_sarah(user: &str, n: i64, topic: &str) -> Value {
    let turns = [
        ("Alex Johnson", format!("Sarah, how is the {topic} going?")),
        (
            "Sarah Chen",
            format!("The {topic} is on track for week {n}."),
        ),
        (
            "Sarah Chen",
            format!("I reviewed the {topic} numbers with finance on day {n}."),
        ),
        (
            "Sarah Chen",
            format!("Next I will present the {topic} to the board."),
        ),
        (
            "Alex Johnson",
            format!("Thanks Sarah, send me the {topic} summary."),
        ),
    ];
    let content: Vec<String> = turns
        .iter()
        .map(|(s, t)| json!({ "speaker": s, "text": t }).to_string())
        .collect();
    json!({
        "user_id": user, "source_type": "conversation", "started_at": day(n).to_rfc3339(),
        "raw_content": { "content": content.join("\n") },
    })
}

struct World {
    svc: Services,
    clock: ManualClock,
    jobs: Dispatcher,
    user: String,
}

impl World {
    async fn ingest(&self, body: Value) -> String {
        cosmo_tests::ingest::ingest(&self.svc, "acme", body).await
    }

    async fn at(&self, n: i64) {
        self.clock.set(day(n));
    }

    async fn run(&self, kind: JobKind, n: i64) -> cosmo_shared::job_runs::JobRun {
        self.clock.set(day(n));
        self.jobs
            .run_periodic(kind, day(n), None)
            .await
            .unwrap_or_else(|e| panic!("{kind}: {}", e.message))
    }

    async fn snapshot(&self) -> GraphSnapshot {
        GraphSnapshot::of_user(&*self.svc.graph, &self.user)
            .await
            .unwrap()
    }
}

async fn scenario(svc: Services, user: String) {
    let (svc, clock) = stores::manual_clock(svc, day(0));
    svc.graph
        .upsert_owner(&user, "Alex Johnson", day(0))
        .await
        .unwrap();
    let w = World {
        jobs: Dispatcher::new(svc.clone()),
        svc,
        clock,
        user,
    };

    // Five days of calls with Sarah → a Storyline after the nightly promotion.
    let topics = [
        "budget review",
        "hiring plan",
        "launch checklist",
        "vendor contract",
        "security audit",
    ];
    let mut first_five = Vec::new();
    for (n, topic) in topics.iter().enumerate() {
        w.at(n as i64).await;
        first_five.push(w.ingest(call_with_sarah(&w.user, n as i64, topic)).await);
    }
    let sarah = w
        .snapshot()
        .await
        .node_named("Sarah Chen")
        .expect("Sarah extracted")
        .clone();
    assert_eq!(
        (
            sarah.counters.source_count,
            sarah.counters.distinct_source_days
        ),
        (5, 5)
    );
    assert_eq!(
        sarah.lifecycle.state,
        MemoryState::Active,
        "confirmed by being mentioned again"
    );
    assert_eq!(
        w.run(JobKind::PromoteStorylines, 2).await.changed,
        0,
        "first mention not 3 days old yet"
    );
    assert_eq!(w.run(JobKind::PromoteStorylines, 7).await.changed, 1);
    let snap = w.snapshot().await;
    let storyline = snap
        .storylines
        .iter()
        .find(|(s, _)| s.anchor_key == sarah.entity_key)
        .expect("a Storyline about Sarah");
    let mut expected = first_five.clone();
    expected.sort();
    assert_eq!(storyline.1, expected, "with exactly her five Sources");
    let first_description = storyline.0.description.clone();
    assert!(!first_description.is_empty() && storyline.0.embedding.is_some());
    assert!(
        w.svc
            .graph
            .node(&sarah.entity_key)
            .await
            .unwrap()
            .unwrap()
            .counters
            .has_meso
    );

    // A new call joins it; the next refresh rewrites its description.
    w.at(8).await;
    let joined = w
        .ingest(call_with_sarah(&w.user, 8, "pricing decision"))
        .await;
    let st = w
        .svc
        .graph
        .storyline(&storyline.0.storyline_id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((st.source_count, st.is_dirty), (6, true));
    assert!(
        w.svc
            .graph
            .storyline_sources(&st.storyline_id)
            .await
            .unwrap()
            .contains(&joined)
    );
    assert_eq!(w.run(JobKind::RefreshStorylines, 9).await.changed, 1);
    let st = w
        .svc
        .graph
        .storyline(&st.storyline_id)
        .await
        .unwrap()
        .unwrap();
    assert!(!st.is_dirty);
    assert_ne!(
        st.description, first_description,
        "refreshed from the new Source too"
    );

    // Months later Sarah is back: the old Storyline is too old to join, so a second one
    // grows, and the weekly promotion groups both under a Macro.
    for (i, topic) in ["reorg", "offsite", "roadmap", "retro", "quarterly plan"]
        .iter()
        .enumerate()
    {
        let n = 120 + i as i64;
        w.at(n).await;
        w.ingest(call_with_sarah(&w.user, n, topic)).await;
    }
    assert_eq!(
        w.run(JobKind::PromoteStorylines, 128).await.changed,
        1,
        "a second Storyline"
    );
    let storylines: Vec<_> = w
        .snapshot()
        .await
        .storylines
        .into_iter()
        .filter(|(s, _)| s.anchor_key == sarah.entity_key)
        .collect();
    assert_eq!(storylines.len(), 2);
    assert_eq!(w.run(JobKind::PromoteMacros, 130).await.changed, 1);
    let mac = w
        .svc
        .graph
        .macro_by_id(&cosmo_shared::ids::macro_id(&sarah.entity_key))
        .await
        .unwrap()
        .expect("a Macro");
    assert_eq!((mac.storyline_count, mac.total_source_count), (2, 11));
    assert!(!mac.description.is_empty());
    assert_eq!(
        w.svc
            .graph
            .macro_storylines(&mac.macro_id)
            .await
            .unwrap()
            .len(),
        2
    );

    // One more call joins the second Storyline and dirties the Macro: the next nights'
    // refreshes rewrite both, and running every job again for that night is a no-op.
    w.at(131).await;
    w.ingest(call_with_sarah(&w.user, 131, "hiring freeze"))
        .await;
    let dirty = w
        .svc
        .graph
        .macro_by_id(&mac.macro_id)
        .await
        .unwrap()
        .unwrap();
    assert!(
        dirty.is_dirty && dirty.total_source_count == 12,
        "{dirty:?}"
    );
    reruns_change_nothing(&w, 132).await;
    let refreshed = w
        .svc
        .graph
        .macro_by_id(&mac.macro_id)
        .await
        .unwrap()
        .unwrap();
    assert!(!refreshed.is_dirty);
    assert_ne!(refreshed.description, mac.description);
}

/// Tentative vs confirmed memories under decay, and note lifetimes under cleanup.
async fn fading(svc: Services, user: String) {
    let (svc, clock) = stores::manual_clock(svc, day(0));
    let w = World {
        jobs: Dispatcher::new(svc.clone()),
        svc,
        clock,
        user,
    };
    let mut keys = Vec::new();
    for n in 0..2 {
        let body = json!({ "user_id": w.user, "source_type": "text-note", "started_at": day(n).to_rfc3339(),
                           "raw_content": { "content": format!("Garden note {n}.") } });
        let input = SourceInput::parse(body).unwrap();
        let new = input.into_new_source(None, day(n));
        w.svc.graph.create_source(&new).await.unwrap();
        keys.push(new);
    }
    let node = |name: &str, confidence: f64| NodeUpsert {
        identity: NodeIdentity::concept(name),
        display_name: name.into(),
        confidence,
    };
    let write = |s: &cosmo_shared::domain::NewSource,
                 nodes: Vec<NodeUpsert>,
                 notes: Vec<NoteWrite>| ExtractionWrite {
        source_key: s.entity_key.clone(),
        user_id: w.user.clone(),
        event_time: s.started_at.unwrap(),
        at: s.started_at.unwrap(),
        nodes,
        relationships: vec![],
        notes,
        storylines: vec![],
        is_source_owner: true,
    };
    let note = |text: &str, lifetime| NoteWrite {
        target: NoteTarget::Node(NodeRef::Extracted(1)),
        text: text.into(),
        lifetime,
        said_at: day(0),
    };
    w.svc
        .graph
        .write_extraction(&write(
            &keys[0],
            vec![node("tentative idea", 0.6), node("gardening", 0.9)],
            vec![
                note("Water the tomatoes this week.", NoteLifetime::Week),
                note("Loves growing tomatoes.", NoteLifetime::Forever),
            ],
        ))
        .await
        .unwrap();
    w.svc
        .graph
        .write_extraction(&write(&keys[1], vec![node("gardening", 0.9)], vec![]))
        .await
        .unwrap();

    // Nightly cleanup a month on: the week note is gone, the forever note stays.
    assert_eq!(w.run(JobKind::CleanupNotes, 30).await.changed, 1);
    let gardening = w.snapshot().await.node_named("gardening").unwrap().clone();
    let notes: Vec<&str> = gardening.notes.iter().map(|n| n.text.as_str()).collect();
    assert_eq!(notes, ["Loves growing tomatoes."]);
    assert_eq!(
        gardening.lifecycle.state,
        MemoryState::Active,
        "confirmed by a second Source"
    );

    // Weekly decay for 150 days: the never-accessed low-confidence candidate archives
    // (half-life ~19 days), the confirmed memory fades but stays.
    let mut archived_on = None;
    for week in 1..=22 {
        let run = w.run(JobKind::Decay, week * 7).await;
        let tentative = w
            .snapshot()
            .await
            .node_named("tentative idea")
            .unwrap()
            .lifecycle
            .clone();
        if tentative.state == MemoryState::Archived && archived_on.is_none() {
            archived_on = Some(week * 7);
            assert!(run.archived >= 1);
        }
    }
    let archived_on = archived_on.expect("the tentative candidate archived");
    assert!(
        (105..=126).contains(&archived_on),
        "archived when salience fell under 0.01: day {archived_on}"
    );
    let snap = w.snapshot().await;
    let tentative = snap.node_named("tentative idea").unwrap();
    let events = w
        .svc
        .graph
        .lifecycle_events(&tentative.entity_key)
        .await
        .unwrap();
    assert_eq!(
        events.last().map(|e| (e.new_state, e.reason.as_str())),
        Some((MemoryState::Archived, "decayed"))
    );
    let gardening = snap.node_named("gardening").unwrap();
    assert_eq!(gardening.lifecycle.state, MemoryState::Active);
    assert!(gardening.lifecycle.salience < 0.5 && gardening.lifecycle.salience > 0.01);
}

/// Every periodic job, then every one again for the same as-of time: nothing changes.
async fn reruns_change_nothing(w: &World, n: i64) {
    let kinds = [
        JobKind::Decay,
        JobKind::ConsolidateEpisodic,
        JobKind::PromoteStorylines,
        JobKind::RefreshStorylines,
        JobKind::ConsolidateDescriptions,
        JobKind::CleanupNotes,
        JobKind::PromoteMacros,
        JobKind::RefreshMacros,
    ];
    for kind in kinds {
        w.run(kind, n).await;
    }
    let once = w.snapshot().await;
    for kind in kinds {
        let again = w.run(kind, n).await;
        assert_eq!(
            again.changed, 0,
            "{kind} changed something on a re-run for the same as-of time"
        );
    }
    assert_eq!(w.snapshot().await, once);
}

async fn full_year(svc: Services, user: String) {
    let (svc, clock) = stores::manual_clock(svc, day(0));
    svc.graph
        .upsert_owner(&user, "Alex Johnson", day(0))
        .await
        .unwrap();
    let w = World {
        jobs: Dispatcher::new(svc.clone()),
        svc,
        clock,
        user,
    };
    for n in 0..6 {
        w.at(n).await;
        w.ingest(call_with_sarah(
            &w.user,
            n,
            ["budget", "hiring", "launch", "pricing", "audit", "offsite"][n as usize],
        ))
        .await;
    }
    reruns_change_nothing(&w, 20).await;
    let snap = w.snapshot().await;
    assert!(
        snap.sources
            .iter()
            .all(|s| s.lifecycle.state == MemoryState::Archived),
        "two weeks later the calls consolidated"
    );
    let sarah = snap.node_named("Sarah Chen").unwrap();
    assert!(
        sarah.notes.iter().any(|n| n.added_by == "cosmo"),
        "into an insight on Sarah"
    );
    assert_eq!(
        w.svc
            .graph
            .derived_sources(&sarah.entity_key)
            .await
            .unwrap()
            .len(),
        6
    );
    assert!(
        !sarah.description.is_empty(),
        "and her description was consolidated"
    );
}

#[tokio::test]
async fn storylines_and_macros_grow_from_recurring_sources_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    scenario(stores::sqlite(dir.path()).await, "alex".into()).await;
}

#[tokio::test]
async fn decay_and_note_cleanup_follow_the_calendar_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    fading(stores::sqlite(dir.path()).await, "alex".into()).await;
}

#[tokio::test]
async fn re_running_maintenance_for_the_same_time_changes_nothing_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    full_year(stores::sqlite(dir.path()).await, "alex".into()).await;
}

#[tokio::test]
async fn storylines_and_macros_grow_from_recurring_sources_on_neo4j() {
    let dir = tempfile::tempdir().unwrap();
    if let Some((svc, suffix, _space)) = stores::neo4j(dir.path(), "memory over time").await {
        scenario(svc, format!("alex{suffix}")).await;
    }
}

#[tokio::test]
async fn decay_and_note_cleanup_follow_the_calendar_on_neo4j() {
    let dir = tempfile::tempdir().unwrap();
    if let Some((svc, suffix, _space)) = stores::neo4j(dir.path(), "memory over time").await {
        fading(svc, format!("alex{suffix}")).await;
    }
}

#[tokio::test]
async fn re_running_maintenance_for_the_same_time_changes_nothing_on_neo4j() {
    let dir = tempfile::tempdir().unwrap();
    if let Some((svc, suffix, _space)) = stores::neo4j(dir.path(), "memory over time").await {
        full_year(svc, format!("alex{suffix}")).await;
    }
}
