//! A back-filled conversation history survives the nightly jobs (episodic
//! consolidation's rules for back-fills and shared anchors): twelve sessions of a
//! two-person conversation that happened over half a year are posted on one day and go
//! through the real pipeline jobs; then, night after night, every nightly and weekly
//! job runs for that night as `cosmo run-job <kind> --as-of` does. For seven nights
//! nothing is archived and explore finds each session; on the eighth (received more
//! than `episodic_min_age_days` ago) the sessions that share a topic are consolidated,
//! the other speaker (in every session) makes no cluster, and the run record counts
//! each archived session once. Reading the archived sessions back does not restore
//! them. After a year of nights the consolidated sessions are still reached, through
//! the insights that replaced them. Runs on every graph backend here.

use chrono::{DateTime, Duration, Utc};
use cosmo_pipeline::retrieval::Exploration;
use cosmo_shared::clock::ManualClock;
use cosmo_shared::domain::MemoryState;
use cosmo_shared::domain::input::read::ExploreInput;
use cosmo_shared::graph::GraphSnapshot;
use cosmo_shared::job_runs::JobRun;
use cosmo_shared::queue::JobKind;
use cosmo_shared::services::Services;
use cosmo_tests::stores;
use cosmo_workers::dispatch::Dispatcher;
use serde_json::{Value, json};

/// The day the history is posted.
fn received() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-06-01T10:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

/// Night `n` after it: the jobs' as-of time, 02:00 UTC.
fn night(n: i64) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-06-01T02:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
        + Duration::days(n)
}

/// What each session is about: its own topic, and the recurring themes of sessions
/// 0–5 (the adoption agency: exactly half the history) and 4–8 (the charity race).
const TOPICS: [&str; 12] = [
    "pottery class",
    "camping trip",
    "violin recital",
    "vegetable garden",
    "museum visit",
    "baking contest",
    "kayak lesson",
    "poetry reading",
    "chess tournament",
    "hiking trail",
    "painting workshop",
    "book club",
];
const ADOPTION: std::ops::RangeInclusive<usize> = 0..=5;
const RACE: std::ops::RangeInclusive<usize> = 4..=8;

/// Session `k` between Alex (the owner) and Melanie, which happened 14·k days after a
/// day half a year before it was posted.
fn session(owner: &str, melanie: &str, k: usize) -> Value {
    let topic = TOPICS[k];
    let mut turns = vec![
        (
            "Alex Johnson",
            format!("Melanie, tell me how the {topic} went."),
        ),
        (
            "Melanie Brooks",
            format!("The {topic} was wonderful this time."),
        ),
        ("Melanie Brooks", format!("My kids loved the {topic} too.")),
        (
            "Alex Johnson",
            format!("I am glad the {topic} went so well."),
        ),
    ];
    if ADOPTION.contains(&k) {
        turns.extend([
            (
                "Melanie Brooks",
                "I called the adoption agency about the papers.".into(),
            ),
            (
                "Alex Johnson",
                "I hope the adoption agency answers you soon.".into(),
            ),
            (
                "Melanie Brooks",
                "The adoption agency needs one more interview.".into(),
            ),
        ]);
    }
    if RACE.contains(&k) {
        turns.extend([
            (
                "Melanie Brooks",
                "I signed up for the charity race in the spring.".into(),
            ),
            (
                "Alex Johnson",
                "I will cheer for you at the charity race.".into(),
            ),
            (
                "Melanie Brooks",
                "The charity race raises money for the animal shelter.".into(),
            ),
        ]);
    }
    let content: Vec<String> = turns
        .iter()
        .map(|(speaker, text)| json!({ "speaker": speaker, "text": text }).to_string())
        .collect();
    let started_at = received() - Duration::days(180) + Duration::days(14 * k as i64);
    json!({
        "user_id": owner, "participants": [owner, melanie], "source_type": "conversation",
        "started_at": started_at.to_rfc3339(),
        "raw_content": { "content": content.join("\n") },
    })
}

struct World {
    svc: Services,
    clock: ManualClock,
    jobs: Dispatcher,
    owner: String,
}

impl World {
    /// Stores a Source as the API does and runs its pipeline jobs.
    async fn ingest(&self, body: Value) -> String {
        cosmo_tests::ingest::ingest(&self.svc, "acme", body).await
    }

    /// Every nightly and weekly job, in the scheduler's order, for night `n`; the
    /// `consolidate-episodic` run record.
    async fn night(&self, n: i64) -> JobRun {
        self.clock.set(night(n));
        let mut episodic = None;
        for (kind, _) in self.svc.config.scheduler.expressions() {
            let kind: JobKind = kind.parse().unwrap();
            if kind == JobKind::Reconcile {
                continue;
            }
            let run = self
                .jobs
                .run_periodic(kind, night(n), None)
                .await
                .unwrap_or_else(|e| panic!("{kind} on night {n}: {}", e.message));
            if kind == JobKind::ConsolidateEpisodic {
                episodic = Some(run);
            }
        }
        episodic.expect("consolidate-episodic ran")
    }

    /// What explore returns for a question about session `k`.
    async fn ask(&self, k: usize, include_archived: bool) -> Exploration {
        let input = ExploreInput::parse(json!({
            "user_id": self.owner,
            "queries": [{ "query": format!("How did the {} go with Melanie?", TOPICS[k]) }],
            "limit": 10,
            "include_archived": include_archived,
        }))
        .unwrap();
        cosmo_pipeline::retrieval::explore(&self.svc, &input, None)
            .await
            .unwrap_or_else(|e| panic!("explore: {e}"))
    }

    /// The Sources explore returns for a question about session `k`.
    async fn explore(&self, k: usize, include_archived: bool) -> Vec<String> {
        self.ask(k, include_archived)
            .await
            .sources
            .unwrap_or_default()
            .into_iter()
            .map(|r| r.item.entity_key)
            .collect()
    }

    async fn states(&self, sessions: &[String]) -> Vec<MemoryState> {
        let mut out = Vec::new();
        for key in sessions {
            let source = self.svc.graph.source(key).await.unwrap().unwrap();
            out.push(source.lifecycle.state);
        }
        out
    }
}

async fn backfilled_history(svc: Services, owner: String, melanie: String) {
    let (svc, clock) = stores::manual_clock(svc, received());
    svc.graph
        .upsert_owner(&owner, "Alex Johnson", received())
        .await
        .unwrap();
    let w = World {
        jobs: Dispatcher::new(svc.clone()),
        svc,
        clock,
        owner,
    };
    let mut sessions = Vec::new();
    for k in 0..TOPICS.len() {
        sessions.push(w.ingest(session(&w.owner, &melanie, k)).await);
    }
    let snap = GraphSnapshot::of_user(&*w.svc.graph, &w.owner)
        .await
        .unwrap();
    let node = |name: &str| {
        snap.node_named(name)
            .unwrap_or_else(|| {
                let names: Vec<&str> = snap.nodes.iter().map(|n| n.name.as_str()).collect();
                panic!("{name} extracted: {names:?}")
            })
            .clone()
    };
    let (melanie_node, adoption, race) = (
        node("Melanie Brooks"),
        node("adoption agency"),
        node("charity race"),
    );
    assert_eq!(
        (
            melanie_node.counters.source_count,
            adoption.counters.source_count,
            race.counters.source_count
        ),
        (12, 6, 5),
        "the premise: Melanie in every session, the themes in theirs"
    );

    // Seven nights: the history happened months ago, but it was received less than
    // `episodic_min_age_days` ago, so nothing is consolidated and every session is found.
    for n in 1..=7 {
        let run = w.night(n).await;
        assert_eq!(
            (run.examined, run.archived),
            (0, 0),
            "night {n}: nothing to consolidate yet"
        );
        assert!(
            w.states(&sessions)
                .await
                .iter()
                .all(|s| *s != MemoryState::Archived),
            "night {n}: no session archived"
        );
        for (k, key) in sessions.iter().enumerate() {
            assert!(
                w.explore(k, false).await.contains(key),
                "night {n}: the {} session is found",
                TOPICS[k]
            );
        }
    }

    // The eighth night: the two themes' sessions are consolidated, sessions 4 and 5 into
    // both, and counted once; Melanie, in all twelve, is a shared anchor and takes none.
    let run = w.night(8).await;
    let states = w.states(&sessions).await;
    let archived: Vec<usize> = (0..sessions.len())
        .filter(|k| states[*k] == MemoryState::Archived)
        .collect();
    assert_eq!(
        archived,
        (0..=8).collect::<Vec<_>>(),
        "the adoption-agency and charity-race sessions, not the last three"
    );
    assert_eq!(
        (run.examined, run.archived, run.changed),
        (9, 9, 9),
        "nine sessions, each counted once though two are in both clusters: {run:?}"
    );
    let details: Value = serde_json::from_str(&run.details).unwrap();
    assert_eq!(details["clusters"], 2, "{details}");
    for key in &sessions[..=8] {
        let events = w.svc.graph.lifecycle_events(key).await.unwrap();
        let consolidated = events.iter().filter(|e| e.reason == "consolidated").count();
        assert_eq!(consolidated, 1, "{key} archived once");
    }
    let derived = |node: String| {
        let g = w.svc.graph.clone();
        async move { g.derived_sources(&node).await.unwrap() }
    };
    let sorted = |ks: std::ops::RangeInclusive<usize>| {
        let mut v: Vec<String> = ks.map(|k| sessions[k].clone()).collect();
        v.sort();
        v
    };
    assert_eq!(derived(adoption.entity_key.clone()).await, sorted(ADOPTION));
    assert_eq!(derived(race.entity_key.clone()).await, sorted(RACE));
    assert!(derived(melanie_node.entity_key.clone()).await.is_empty());
    for (k, key) in sessions.iter().enumerate().skip(9) {
        assert!(
            w.explore(k, false).await.contains(key),
            "the {} session is still found",
            TOPICS[k]
        );
    }

    // Every archived session is still reached by default by a question about it: a
    // note taken from it, or an insight consolidated from it, names it.
    for (k, key) in sessions.iter().enumerate().take(9) {
        let found = w.ask(k, false).await;
        let notes = found.notes.unwrap_or_default();
        assert!(
            notes
                .iter()
                .any(|n| n.source_id.as_deref() == Some(key.as_str())
                    || n.derived_from.iter().any(|m| &m.entity_key == key)),
            "the archived {} session is reached through a note: {notes:#?}",
            TOPICS[k]
        );
    }

    // What the archived sessions held stays reachable by default: explore returns the
    // insight that replaced them, with the Sources it was consolidated from.
    let input = ExploreInput::parse(json!({
        "user_id": w.owner,
        "queries": [{ "query": "What did the adoption agency say to Melanie?" }],
        "limit": 10,
    }))
    .unwrap();
    let found = cosmo_pipeline::retrieval::explore(&w.svc, &input, None)
        .await
        .unwrap();
    let notes = found.notes.unwrap_or_default();
    let insight = notes
        .iter()
        .find(|n| n.source_id.is_none() && n.owner_key == adoption.entity_key)
        .unwrap_or_else(|| panic!("the adoption agency's insight is among the notes: {notes:#?}"));
    let mut reached: Vec<String> = insight
        .derived_from
        .iter()
        .map(|m| m.entity_key.clone())
        .collect();
    reached.sort();
    assert_eq!(
        reached,
        sorted(ADOPTION),
        "through it, every session it replaced"
    );
    assert!(
        insight
            .derived_from
            .iter()
            .all(|m| m.state == MemoryState::Archived)
    );

    // Asking for archived memories finds the consolidated sessions and leaves them
    // archived; re-running the night changes nothing.
    for (k, key) in sessions.iter().enumerate().take(9) {
        assert!(
            w.explore(k, true).await.contains(key),
            "the archived {} session is found when asked for",
            TOPICS[k]
        );
    }
    assert_eq!(
        w.states(&sessions[..=8]).await,
        states[..=8],
        "reading archived sessions does not restore them"
    );
    let again = w.night(8).await;
    assert_eq!((again.examined, again.archived), (0, 0));

    // A year of nights nobody asks in: everything decays, the extraction's notes expire.
    // Each consolidated session is still reached by a question about it, through the
    // insight that replaced it; the last three, made core by the questions asked about
    // them above, stay and are found as themselves.
    for n in 9..=365 {
        w.night(n).await;
    }
    let states = w.states(&sessions).await;
    assert_eq!(
        states,
        [
            [MemoryState::Archived; 9].as_slice(),
            &[MemoryState::Core; 3]
        ]
        .concat(),
        "a year later"
    );
    for (k, key) in sessions.iter().enumerate() {
        let found = w.ask(k, false).await;
        let returned: Vec<String> = found
            .sources
            .unwrap_or_default()
            .into_iter()
            .map(|r| r.item.entity_key)
            .collect();
        let notes = found.notes.unwrap_or_default();
        let through_insight = notes
            .iter()
            .any(|n| n.source_id.is_none() && n.derived_from.iter().any(|m| &m.entity_key == key));
        if k <= 8 {
            assert!(
                !returned.contains(key) && through_insight,
                "a year later the {} session is reached through its insight: {notes:#?}",
                TOPICS[k]
            );
        } else {
            assert!(returned.contains(key), "the {} session", TOPICS[k]);
        }
    }
}

#[tokio::test]
async fn a_backfilled_conversation_survives_the_nightly_jobs_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    backfilled_history(
        stores::sqlite(dir.path()).await,
        "alex".into(),
        "melanie".into(),
    )
    .await;
}

#[tokio::test]
async fn a_backfilled_conversation_survives_the_nightly_jobs_on_neo4j() {
    let dir = tempfile::tempdir().unwrap();
    if let Some((svc, suffix, _space)) = stores::neo4j(dir.path(), "back-fill").await {
        backfilled_history(svc, format!("alex{suffix}"), format!("melanie{suffix}")).await;
    }
}
