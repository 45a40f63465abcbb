//! Lifecycle control over HTTP: pin and unpin (a pinned memory refuses state changes and
//! keeps its state under decay), archive and restore, how a memory ages (its TTL policy),
//! and the event log that records each
//! with the previous and new state, the reason and the actor; and the dry runs of decay,
//! consolidate-episodic and cleanup-notes, which say what a run would archive or delete
//! and write nothing.

use cosmo_shared::domain::{LifecycleChange, MemoryKind};
use cosmo_shared::graph::GraphSnapshot;
use cosmo_shared::queue::JobKind;
use reqwest::StatusCode;
use serde_json::{Value, json};

use super::world::{World, day, node_named, note};

async fn act(w: &World, kind: &str, key: &str, action: &str) -> (StatusCode, Value) {
    w.api
        .post(&format!("/api/memories/{kind}/{key}/{action}"), &json!({}))
        .await
}

#[tokio::test]
async fn pin_unpin_archive_restore_and_their_log() {
    let w = World::new().await;
    w.ingest(note("alex", 0, "Had lunch with Sarah Chen. Sarah Chen leads the Berlin launch. She will hire two engineers."))
        .await;
    let sarah = node_named(&w, "alex", "Sarah Chen").await;
    let state = |m: &Value| m["lifecycle"]["state"].as_str().unwrap().to_owned();
    let start = state(&w.memory("node", &sarah).await);

    let steps = [
        ("pin", StatusCode::OK, true, Some("pinned")),
        ("pin", StatusCode::OK, false, None),
        ("archive", StatusCode::CONFLICT, false, None),
        ("restore", StatusCode::CONFLICT, false, None),
        ("unpin", StatusCode::OK, true, Some("unpinned")),
        ("archive", StatusCode::OK, true, Some("archived_by_user")),
        ("archive", StatusCode::OK, false, None),
        ("restore", StatusCode::OK, true, Some("restored_by_user")),
        ("restore", StatusCode::OK, false, None),
    ];
    for (i, (action, status, changed, reason)) in steps.into_iter().enumerate() {
        w.at(i as i64 + 1);
        let (got, answer) = act(&w, "node", &sarah, action).await;
        assert_eq!(got, status, "step {i} {action}: {answer}");
        if status == StatusCode::OK {
            assert_eq!(answer["changed"], changed, "step {i} {action}: {answer}");
            assert_eq!(answer["event"]["reason"].as_str(), reason, "step {i}");
            assert_eq!(
                answer["memory"],
                w.memory("node", &sarah).await,
                "the stored memory"
            );
        } else {
            assert_eq!(answer["error"]["code"], "conflict", "{answer}");
        }
    }
    let m = w.memory("node", &sarah).await;
    assert_eq!(
        (state(&m), m["lifecycle"]["pinned"].as_bool()),
        ("active".into(), Some(false))
    );

    let log = w.read(&format!("/api/memories/node/{sarah}/events")).await;
    let seen: Vec<(String, String, String, String)> = log["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let s = |f: &str| e[f].as_str().unwrap().to_owned();
            (s("previous_state"), s("new_state"), s("reason"), s("actor"))
        })
        .collect();
    let e =
        |a: &str, b: &str, r: &str| (a.to_owned(), b.to_owned(), r.to_owned(), "user".to_owned());
    assert_eq!(
        seen,
        [
            e(&start, &start, "pinned"),
            e(&start, &start, "unpinned"),
            e(&start, "archived", "archived_by_user"),
            e("archived", "active", "restored_by_user"),
        ],
        "oldest first"
    );

    for (path, status) in [
        (
            format!("/api/memories/node/{sarah}/forget"),
            StatusCode::NOT_FOUND,
        ),
        (
            format!("/api/memories/planet/{sarah}/pin"),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            "/api/memories/node/no-such-node/pin".to_owned(),
            StatusCode::NOT_FOUND,
        ),
    ] {
        let (got, answer) = w.api.post(&path, &json!({})).await;
        assert_eq!(got, status, "{path}: {answer}");
    }
}

#[tokio::test]
async fn a_user_chooses_how_each_memory_ages_and_decay_keeps_to_it() {
    let w = World::new().await;
    w.ingest(note(
        "alex",
        0,
        "Had lunch with Sarah Chen. Sarah Chen leads the Berlin launch. She will hire two engineers.",
    ))
    .await;
    let sarah = node_named(&w, "alex", "Sarah Chen").await;
    let (kept, loose) = kayak_sources(&w).await;
    // Recalled once, the Sources are active memories that decay.
    w.explore("alex", "kayak", 1).await;
    let lifecycle = |m: Value| m["lifecycle"].clone();

    w.at(1);
    let (status, kept_forever) = act(&w, "source", &kept, "ttl_keep_forever").await;
    assert_eq!(status, StatusCode::OK, "{kept_forever}");
    assert_eq!(kept_forever["event"]["reason"], "ttl_keep_forever");
    assert_eq!(kept_forever["event"]["actor"], "user");
    assert_eq!(
        kept_forever["event"]["previous_state"], kept_forever["event"]["new_state"],
        "the state is left as it is"
    );
    let l = lifecycle(w.memory("source", &kept).await);
    assert_eq!(
        (l["ttl_policy"].as_str(), l["salience"].as_f64()),
        (Some("keep_forever"), Some(1.0))
    );
    let (_, again) = act(&w, "source", &kept, "ttl_keep_forever").await;
    assert_eq!(
        (again["changed"].as_bool(), &again["event"]),
        (Some(false), &Value::Null)
    );

    let (status, ephemeral) = act(&w, "node", &sarah, "ttl_ephemeral").await;
    assert_eq!(status, StatusCode::OK, "{ephemeral}");
    assert_eq!(
        lifecycle(w.memory("node", &sarah).await)["ttl_policy"],
        "ephemeral"
    );

    // An ephemeral entity lasts 90 days from its creation, whatever its salience.
    w.run(JobKind::Decay, 89).await;
    assert_ne!(
        lifecycle(w.memory("node", &sarah).await)["state"],
        "archived",
        "day 89"
    );
    w.run(JobKind::Decay, 91).await;
    assert_eq!(
        lifecycle(w.memory("node", &sarah).await)["state"],
        "archived",
        "day 91"
    );
    let log = w.read(&format!("/api/memories/node/{sarah}/events")).await;
    let reasons: Vec<&str> = log["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["reason"].as_str().unwrap())
        .collect();
    assert_eq!(reasons.last(), Some(&"ttl_expired"), "{log}");
    assert!(reasons.contains(&"ttl_ephemeral"), "{log}");

    // Two years on, the Source kept forever is active at full salience; the other faded.
    w.run(JobKind::Decay, 700).await;
    assert_eq!(
        lifecycle(w.memory("source", &loose).await)["state"],
        "archived"
    );
    let l = lifecycle(w.memory("source", &kept).await);
    assert_eq!(
        (l["state"].as_str(), l["salience"].as_f64()),
        (Some("active"), Some(1.0))
    );

    // Back to decay, it fades from now: a day later it has lost a day's salience, not
    // two years'.
    w.at(700);
    let (status, _) = act(&w, "source", &kept, "ttl_decay").await;
    assert_eq!(status, StatusCode::OK);
    w.run(JobKind::Decay, 701).await;
    let l = lifecycle(w.memory("source", &kept).await);
    let salience = l["salience"].as_f64().unwrap();
    assert_eq!(
        (l["ttl_policy"].as_str(), l["state"].as_str()),
        (Some("decay"), Some("active"))
    );
    assert!(
        (0.95..1.0).contains(&salience),
        "one day of decay: {salience}"
    );
    w.run(JobKind::Decay, 1400).await;
    assert_eq!(
        lifecycle(w.memory("source", &kept).await)["state"],
        "archived"
    );
}

/// Two of alex's Sources on day 0, about kayaking: the one to pin, and the other.
async fn kayak_sources(w: &World) -> (String, String) {
    let pinned = w
        .ingest(note("alex", 0, "Kayak lessons with Dana Park on the lake."))
        .await;
    let loose = w
        .ingest(note(
            "alex",
            0,
            "Kayak repair at the harbour with Dana Park.",
        ))
        .await;
    (pinned, loose)
}

#[tokio::test]
async fn decay_leaves_pinned_memories_in_their_state() {
    let w = World::new().await;
    let (pinned, loose) = kayak_sources(&w).await;
    // Recalled once, both are active memories that decay.
    w.explore("alex", "kayak", 1).await;
    for key in [&pinned, &loose] {
        assert_eq!(
            w.memory("source", key).await["lifecycle"]["state"],
            "active"
        );
    }
    act(&w, "source", &pinned, "pin").await;
    w.run(JobKind::Decay, 700).await;
    let faded = w.memory("source", &loose).await;
    assert_eq!(
        faded["lifecycle"]["state"], "archived",
        "two years unrecalled: {faded}"
    );
    let kept = w.memory("source", &pinned).await;
    assert_eq!(kept["lifecycle"]["state"], "active", "pinned: {kept}");
}

#[tokio::test]
async fn archived_relationships_leave_explore_unless_asked() {
    let w = World::new().await;
    w.profile("alex", "Alex Johnson").await;
    w.ingest(super::explore::call("Marco Rossi", 0, "vineyard harvest"))
        .await;
    let marco = node_named(&w, "alex", "Marco Rossi").await;
    let relationships = |answer: &Value| -> Vec<String> {
        let nodes = answer["nodes"].as_array().unwrap();
        let node = nodes.iter().find(|n| n["entity_key"] == marco.as_str());
        let node = node.unwrap_or_else(|| panic!("Marco found: {answer}"));
        let rels = node["relationships"].as_array().unwrap();
        rels.iter()
            .map(|r| r["rel_key"].as_str().unwrap().to_owned())
            .collect()
    };
    let shown = relationships(&w.explore("alex", "Marco Rossi", 1).await);
    assert!(!shown.is_empty(), "the premise: Marco has relationships");
    let (status, answer) = act(&w, "relationship", &shown[0], "archive").await;
    assert_eq!(status, StatusCode::OK, "{answer}");

    let hidden = relationships(&w.explore("alex", "Marco Rossi", 1).await);
    assert!(!hidden.contains(&shown[0]), "archived: left out");
    let body = json!({ "user_id": "alex", "queries": [{ "query": "Marco Rossi" }], "include_archived": true });
    let all = relationships(&w.ok("/api/explore", body).await);
    assert!(all.contains(&shown[0]), "archived: shown when asked");
}

/// The API as an operator of the tenant: an admin key.
async fn admin(w: &World) -> cosmo_tests::http::Api {
    let (key, _) = w
        .svc
        .directory
        .create_api_key("acme", "operator", true, day(0))
        .await
        .unwrap();
    w.api.with_key(Some(&key))
}

/// Runs `kind` as of day `n` and checks it did what `preview`, its dry run to that
/// time, said: the same counts and details, and each listed memory's last logged event
/// the one listed.
async fn run_as_previewed(w: &World, kind: JobKind, n: i64, preview: &Value) {
    let run = w.run(kind, n).await;
    assert_eq!(
        json!([run.examined, run.changed, run.archived]),
        json!([preview["examined"], preview["changed"], preview["archived"]]),
    );
    let details: Value = serde_json::from_str(&run.details).unwrap();
    assert_eq!(details, preview["details"]);
    for listed in preview["archive"].as_array().unwrap() {
        let kind = listed["memory_kind"].as_str().unwrap();
        let key = listed["memory_key"].as_str().unwrap();
        let logged = w.read(&format!("/api/memories/{kind}/{key}/events")).await["events"]
            .as_array()
            .and_then(|e| e.last().cloned());
        assert_eq!(logged.as_ref(), Some(listed), "the event the run logged");
    }
}

#[tokio::test]
async fn dry_runs_of_decay_and_cleanup_notes_show_what_the_runs_then_do_and_write_nothing() {
    let w = World::new().await;
    let (pinned, loose) = kayak_sources(&w).await;
    // Notes on Sarah that run out within the two years (a month, a year).
    w.ingest(note(
        "alex",
        0,
        "Had lunch with Sarah Chen. Sarah Chen leads the Berlin launch. She will hire two engineers.",
    ))
    .await;
    w.explore("alex", "kayak", 1).await;
    act(&w, "source", &pinned, "pin").await;
    let admin = admin(&w).await;
    let world = &w;
    let snapshot = move || async move {
        GraphSnapshot::of_user(&*world.svc.graph, "alex")
            .await
            .unwrap()
    };
    let events = move |key: String| async move {
        world
            .read(&format!("/api/memories/source/{key}/events"))
            .await["events"]
            .clone()
    };
    let (graph_before, events_before) = (snapshot().await, events(loose.clone()).await);

    // Two years on, unrecalled: the loose Source would be archived, the pinned one not.
    let body = json!({ "as_of": day(700) });
    let (status, preview) = admin.post("/api/admin/jobs/decay/dry-run", &body).await;
    assert_eq!(status, StatusCode::OK, "{preview}");
    let listed = preview["archive"].as_array().unwrap().clone();
    let loose_event = listed
        .iter()
        .find(|e| e["memory_key"] == loose.as_str())
        .unwrap_or_else(|| panic!("the loose Source is listed: {preview}"));
    assert_eq!(
        (
            &loose_event["memory_kind"],
            &loose_event["previous_state"],
            &loose_event["new_state"],
            &loose_event["reason"],
            &loose_event["actor"]
        ),
        (
            &json!("source"),
            &json!("active"),
            &json!("archived"),
            &json!("decayed"),
            &json!("system")
        )
    );
    assert!(
        listed.iter().all(|e| e["memory_key"] != pinned.as_str()),
        "a pinned memory is never archived: {preview}"
    );
    assert_eq!(preview["archived"], json!(listed.len()), "all listed");
    assert_eq!(snapshot().await, graph_before, "a dry run writes nothing");
    assert_eq!(
        events(loose.clone()).await,
        events_before,
        "nor logs anything"
    );

    // The list is capped, the counts are not.
    let (_, capped) = admin
        .post(
            "/api/admin/jobs/decay/dry-run",
            // A whole number, as JSON Schema's `integer` has it.
            &json!({ "as_of": day(700), "limit": 1.0 }),
        )
        .await;
    assert_eq!(
        capped["archive"].as_array().map(Vec::len),
        Some(1),
        "{capped}"
    );
    for count in ["examined", "changed", "archived", "details"] {
        assert_eq!(capped[count], preview[count], "{count}");
    }

    // The run then does exactly what the dry run said.
    run_as_previewed(&w, JobKind::Decay, 700, &preview).await;
    let (_, again) = admin.post("/api/admin/jobs/decay/dry-run", &body).await;
    assert_eq!(
        (
            again["changed"].as_i64(),
            again["archive"].as_array().map(Vec::len)
        ),
        (Some(0), Some(0)),
        "a run to the same time again would change nothing: {again}"
    );

    // cleanup-notes' dry run counts the notes the run then deletes.
    let notes = |answer: &Value| answer["changed"].as_i64();
    let (status, expiring) = admin
        .post("/api/admin/jobs/cleanup-notes/dry-run", &body)
        .await;
    assert_eq!(status, StatusCode::OK, "{expiring}");
    assert!(notes(&expiring) > Some(0), "the premise: {expiring}");
    let run = w.run(JobKind::CleanupNotes, 700).await;
    assert_eq!(notes(&expiring), Some(run.changed), "{expiring}");
    let (_, left) = admin
        .post("/api/admin/jobs/cleanup-notes/dry-run", &body)
        .await;
    assert_eq!(notes(&left), Some(0), "{left}");

    // What a dry run refuses.
    for (path, body, status, field) in [
        (
            "promote-storylines",
            json!({}),
            StatusCode::UNPROCESSABLE_ENTITY,
            Some("kind"),
        ),
        ("nonsense", json!({}), StatusCode::NOT_FOUND, None),
        (
            "decay",
            json!({ "limit": 1001 }),
            StatusCode::UNPROCESSABLE_ENTITY,
            Some("limit"),
        ),
        (
            "decay",
            json!({ "as_of": "9999-12-31T00:00:00Z" }),
            StatusCode::UNPROCESSABLE_ENTITY,
            Some("as_of"),
        ),
        (
            "decay",
            json!({ "dry": true }),
            StatusCode::UNPROCESSABLE_ENTITY,
            Some("dry"),
        ),
    ] {
        let (got, answer) = admin
            .post(&format!("/api/admin/jobs/{path}/dry-run"), &body)
            .await;
        assert_eq!(
            (got, answer["error"]["field"].as_str()),
            (status, field),
            "{path} {body}: {answer}"
        );
    }
    let (status, _) = w
        .api
        .post("/api/admin/jobs/decay/dry-run", &json!({}))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "a tenant key");
}

#[tokio::test]
async fn a_dry_run_of_consolidate_episodic_lists_the_sources_the_run_then_archives() {
    let w = World::new().await;
    // Six calls about Sarah Chen in one week: once they are old, a cluster on her.
    let topics = ["budget", "hiring", "launch", "pricing", "audit", "offsite"];
    let mut calls = Vec::new();
    for (n, topic) in topics.iter().enumerate() {
        calls.push(
            w.ingest(note(
                "alex",
                n as i64,
                &format!(
                    "Had lunch with Sarah Chen. Sarah Chen leads the {topic} review. She will hire two engineers."
                ),
            ))
            .await,
        );
    }
    // And one faded Source about something else (as decay leaves one no one recalls).
    let faded = w
        .ingest(note(
            "alex",
            6,
            "Had lunch with Tom Baker. Tom Baker leads the kayak review. He will hire two engineers.",
        ))
        .await;
    w.svc
        .graph
        .update_lifecycles(MemoryKind::Source, std::slice::from_ref(&faded), &|m| {
            let mut lifecycle = m.lifecycle.clone();
            lifecycle.salience = 0.1;
            Some(LifecycleChange {
                kind: m.kind,
                key: m.key.clone(),
                event: None,
                lifecycle,
            })
        })
        .await
        .unwrap();
    calls.push(faded);
    let admin = admin(&w).await;
    let dry_run = |as_of: i64| {
        let admin = admin.clone();
        async move {
            let (status, answer) = admin
                .post(
                    "/api/admin/jobs/consolidate-episodic/dry-run",
                    &json!({ "as_of": day(as_of) }),
                )
                .await;
            assert_eq!(status, StatusCode::OK, "{answer}");
            answer
        }
    };
    let snapshot = || async { GraphSnapshot::of_user(&*w.svc.graph, "alex").await.unwrap() };

    // Too recent to consolidate: nothing.
    let early = dry_run(3).await;
    assert_eq!(early["archived"], json!(0), "{early}");

    let before = snapshot().await;
    let preview = dry_run(30).await;
    let listed = preview["archive"].as_array().unwrap().clone();
    let mut keys: Vec<&str> = listed
        .iter()
        .map(|e| e["memory_key"].as_str().unwrap())
        .collect();
    keys.sort_unstable();
    let mut expected: Vec<&str> = calls.iter().map(String::as_str).collect();
    expected.sort_unstable();
    assert_eq!(
        keys, expected,
        "every call and the faded Source, once: {preview}"
    );
    assert!(
        listed.iter().all(|e| e["memory_kind"] == "source"
            && e["new_state"] == "archived"
            && e["previous_state"] != "archived"
            && e["reason"] == "consolidated"),
        "{preview}"
    );
    assert_eq!(preview["archived"], json!(7), "{preview}");
    assert_eq!(
        preview["details"],
        json!({ "clusters": 1, "faded": 1 }),
        "{preview}"
    );
    assert_eq!(snapshot().await, before, "a dry run writes nothing");

    // The run archives exactly those, and logs exactly those events.
    run_as_previewed(&w, JobKind::ConsolidateEpisodic, 30, &preview).await;
    let again = dry_run(30).await;
    assert_eq!(
        (
            again["archived"].as_i64(),
            again["archive"].as_array().map(Vec::len)
        ),
        (Some(0), Some(0)),
        "nothing left to consolidate: {again}"
    );
}
