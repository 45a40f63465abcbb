//! Isolation: one user never sees another's memories through any read endpoint, even
//! when asking for the other's words; another tenant's key reaches none of them (404,
//! as if they did not exist) and changes nothing.

use cosmo_shared::domain::{NewMacro, NewStoryline};
use cosmo_shared::ids;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use super::world::{World, day, keys_of, node_named, note};

/// Every key of `user`'s memories, and the user's Sarah, Storyline, Macro and fact.
struct Memories {
    all: Vec<String>,
    sarah: String,
    storyline: String,
    macro_id: String,
    fact: String,
}

async fn memories(w: &World, user: &str, words: &str) -> Memories {
    let mut all = Vec::new();
    for n in 0..3 {
        let text = format!(
            "Project meeting {n} with Sarah Chen about {words}. Sarah Chen reviewed the {words} plan. She approved it."
        );
        all.push(w.ingest(note(user, n, &text)).await);
    }
    let sarah = node_named(w, user, "Sarah Chen").await;
    let storyline = ids::storyline_id(&sarah, &all[0]);
    w.svc
        .graph
        .create_storyline(&NewStoryline {
            storyline_id: storyline.clone(),
            user_id: user.into(),
            anchor_key: sarah.clone(),
            description: format!("Sarah Chen and the project: {words}."),
            embedding: None,
            source_keys: all.clone(),
            at: day(5),
        })
        .await
        .unwrap();
    let macro_id = ids::macro_id(&sarah);
    w.svc
        .graph
        .create_macro(&NewMacro {
            macro_id: macro_id.clone(),
            user_id: user.into(),
            anchor_key: sarah.clone(),
            description: format!("Sarah Chen over the project: {words}."),
            embedding: None,
            storyline_ids: vec![storyline.clone()],
            at: day(6),
        })
        .await
        .unwrap();
    let (status, f) = w
        .api
        .post("/api/facts", &json!({ "user_id": user, "text": format!("Project code word: {words}"), "confidence": 0.3 }))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{f}");
    let fact = f["fact"]["fact_id"].as_str().unwrap().to_owned();
    let snapshot = cosmo_shared::graph::GraphSnapshot::of_user(&*w.svc.graph, user)
        .await
        .unwrap();
    all.extend(snapshot.nodes.iter().map(|n| n.entity_key.clone()));
    all.extend(snapshot.relationships.iter().map(|r| r.rel_key.clone()));
    all.extend([storyline.clone(), macro_id.clone(), fact.clone()]);
    Memories {
        all,
        sarah,
        storyline,
        macro_id,
        fact,
    }
}

/// Asserts that nothing of `other` (its keys or its words) is in `answer`.
fn assert_clean(what: &str, answer: &Value, other: &Memories, words: &str) {
    let text = answer.to_string();
    assert!(
        !text.contains(words),
        "{what} shows the other user's words: {text}"
    );
    for key in &other.all {
        assert!(
            !text.contains(key.as_str()),
            "{what} shows the other user's {key}: {text}"
        );
    }
}

#[tokio::test]
async fn a_user_never_sees_another_users_memories() {
    let w = World::new().await;
    let alice = memories(&w, "alice", "tulips").await;
    let bob = memories(&w, "bob", "quixotry").await;
    let ask = "Sarah Chen project meeting quixotry tulips code word";
    for g in 1..=3 {
        let answer = w.explore("alice", ask, g).await;
        let list = ["sources", "storylines", "macros"][g as usize - 1];
        assert!(
            !answer[list].as_array().unwrap().is_empty(),
            "alice finds her own {list}"
        );
        assert_clean(&format!("explore {g}"), &answer, &bob, "quixotry");
    }
    for format in ["markdown", "xml", "json"] {
        let body =
            json!({ "user_id": "alice", "message": ask, "format": format, "budget_tokens": 16000 });
        let answer = w.ok("/api/context", body).await;
        assert!(
            answer["context"].as_str().unwrap().contains("tulips"),
            "{answer}"
        );
        assert_clean(&format!("context {format}"), &answer, &bob, "quixotry");
    }
    let reads = [
        "/api/facts?user_id=alice&include_inactive=true".to_owned(),
        "/api/facts/weak?user_id=alice".to_owned(),
        format!("/api/facts/{}/explain", alice.fact),
        format!("/api/entities/{}", alice.sarah),
        format!("/api/storylines/{}", alice.storyline),
        format!("/api/macros/{}", alice.macro_id),
        format!("/api/sources/{}", alice.all[0]),
        format!("/api/memories/node/{}", alice.sarah),
        format!("/api/memories/node/{}/events", alice.sarah),
        "/api/users/alice".to_owned(),
    ];
    for path in &reads {
        let answer = w.read(path).await;
        assert_clean(path, &answer, &bob, "quixotry");
    }
    let weak = w.read("/api/facts/weak?user_id=alice").await;
    assert_eq!(
        weak["facts"][0]["fact_id"],
        alice.fact.as_str(),
        "her weak fact is listed"
    );
    let entity = w.read(&format!("/api/entities/{}", alice.sarah)).await;
    assert_eq!(
        entity["sources"].as_array().unwrap().len(),
        3,
        "only her Sources: {entity}"
    );
}

#[tokio::test]
async fn another_tenant_reaches_nothing_and_changes_nothing() {
    let w = World::new().await;
    let alice = memories(&w, "alice", "tulips").await;
    let globex = w.other_tenant().await;
    let explore = json!({ "user_id": "alice", "queries": [{ "query": "tulips" }] });
    let context = json!({ "user_id": "alice", "message": "tulips" });
    let (s, f, n) = (&alice.all[0], &alice.fact, &alice.sarah);
    let calls: Vec<(Method, String, Option<Value>)> = vec![
        (Method::POST, "/api/explore".into(), Some(explore)),
        (Method::POST, "/api/context".into(), Some(context)),
        (Method::GET, "/api/facts?user_id=alice".into(), None),
        (Method::GET, "/api/facts/weak?user_id=alice".into(), None),
        (
            Method::POST,
            "/api/facts".into(),
            Some(json!({ "user_id": "alice", "text": "x" })),
        ),
        (Method::GET, format!("/api/facts/{f}"), None),
        (Method::GET, format!("/api/facts/{f}/explain"), None),
        (
            Method::POST,
            format!("/api/facts/{f}/confirm"),
            Some(json!({})),
        ),
        (
            Method::POST,
            format!("/api/facts/{f}/corrections"),
            Some(json!({ "text": "y" })),
        ),
        (Method::DELETE, format!("/api/facts/{f}"), None),
        (Method::GET, format!("/api/entities/{n}"), None),
        (Method::GET, format!("/api/memories/node/{n}"), None),
        (Method::GET, format!("/api/memories/node/{n}/events"), None),
        (
            Method::POST,
            format!("/api/memories/node/{n}/pin"),
            Some(json!({})),
        ),
        (
            Method::GET,
            format!("/api/storylines/{}", alice.storyline),
            None,
        ),
        (Method::GET, format!("/api/macros/{}", alice.macro_id), None),
        (Method::GET, format!("/api/sources/{s}"), None),
        (Method::DELETE, format!("/api/sources/{s}"), None),
        (Method::GET, "/api/users/alice".into(), None),
        (Method::DELETE, "/api/users/alice".into(), None),
    ];
    let before = cosmo_shared::graph::GraphSnapshot::of_user(&*w.svc.graph, "alice")
        .await
        .unwrap();
    let fact_before = w.read(&format!("/api/facts/{f}")).await;
    for (method, path, body) in calls {
        let body = body.map(|b| b.to_string().into_bytes());
        let (status, answer) = globex.send(method.clone(), &path, body, &[]).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{method} {path}: {answer}");
        // The answer may name what was asked for, and nothing else of hers.
        let text = answer.to_string();
        assert!(!text.contains("tulips"), "{method} {path}: {text}");
        for key in alice.all.iter().filter(|k| !path.contains(k.as_str())) {
            assert!(
                !text.contains(key.as_str()),
                "{method} {path} shows {key}: {text}"
            );
        }
    }
    let after = cosmo_shared::graph::GraphSnapshot::of_user(&*w.svc.graph, "alice")
        .await
        .unwrap();
    assert_eq!(after, before, "nothing changed, nothing was recalled");
    assert_eq!(w.read(&format!("/api/facts/{f}")).await, fact_before);
    assert!(w.svc.directory.user("alice").await.unwrap().is_some());
}

/// A user is (tenant, user id): another tenant's `alice` is another user, with her own
/// memories, and nothing tells either tenant that the other uses the id.
#[tokio::test]
async fn the_same_user_id_in_two_tenants_is_two_users() {
    let w = World::new().await;
    let acme = memories(&w, "alice", "tulips").await;
    let globex = w.other_tenant().await;

    // Before globex uses the id, its alice is as unknown as an id nobody uses.
    let unknown = |answer: Value, id: &str| answer.to_string().replace(id, "ID");
    let (used, used_answer) = globex.get("/api/users/alice").await;
    let (unused, unused_answer) = globex.get("/api/users/nobody").await;
    assert_eq!(used, StatusCode::NOT_FOUND);
    assert_eq!(
        (used, unknown(used_answer, "alice")),
        (unused, unknown(unused_answer, "nobody"))
    );

    let mut theirs = Vec::new();
    for n in 0..3 {
        let text = format!(
            "Project meeting {n} with Sarah Chen about quixotry. Sarah Chen reviewed the quixotry plan."
        );
        let (status, accepted) = globex.post("/api/sources", &note("alice", n, &text)).await;
        assert_eq!(status, StatusCode::ACCEPTED, "{accepted}");
        theirs.push(accepted["entity_key"].as_str().unwrap().to_owned());
    }
    assert!(
        theirs.iter().all(|k| !acme.all.contains(k)),
        "the same item of two users is two Sources"
    );
    // The workers know globex's alice by her graph user id.
    let graph_user_id = w
        .svc
        .directory
        .tenant_user("globex", "alice")
        .await
        .unwrap()
        .expect("globex's alice")
        .graph_user_id;
    assert_ne!(graph_user_id, "alice");
    for key in &theirs {
        w.process(key).await;
        w.extract(key, &graph_user_id).await;
    }

    // Each tenant's alice finds her own meetings with Sarah Chen, never the other's.
    let ask = json!({ "user_id": "alice", "queries": [{ "query": "Sarah Chen project meeting plan quixotry tulips" }] });
    let (status, mine) = w.api.post("/api/explore", &ask).await;
    assert_eq!(status, StatusCode::OK, "{mine}");
    let (status, other) = globex.post("/api/explore", &ask).await;
    assert_eq!(status, StatusCode::OK, "{other}");
    let sources = |answer: &Value| keys_of(answer, "sources", "entity_key");
    assert!(!sources(&mine).is_empty() && !sources(&other).is_empty());
    assert!(
        sources(&mine).iter().all(|k| acme.all.contains(k)),
        "{mine}"
    );
    assert!(
        sources(&other).iter().all(|k| theirs.contains(k)),
        "{other}"
    );
    assert!(!mine.to_string().contains("quixotry"), "{mine}");
    assert!(!other.to_string().contains("tulips"), "{other}");
    // Answers show the id the tenant uses, never the graph's.
    for answer in [
        &other,
        &globex.get(&format!("/api/sources/{}", theirs[0])).await.1,
    ] {
        assert!(!answer.to_string().contains(&graph_user_id), "{answer}");
    }
    let (_, source) = globex.get(&format!("/api/sources/{}", theirs[0])).await;
    assert_eq!(source["user_id"], "alice", "{source}");
    assert_eq!(source["participants"], json!(["alice"]), "{source}");
    // Neither tenant reaches the other's Sources.
    assert_eq!(
        globex.get(&format!("/api/sources/{}", acme.all[0])).await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        w.api.get(&format!("/api/sources/{}", theirs[0])).await.0,
        StatusCode::NOT_FOUND
    );

    // Erasing globex's alice leaves acme's alice as she was.
    let before = cosmo_shared::graph::GraphSnapshot::of_user(&*w.svc.graph, "alice")
        .await
        .unwrap();
    assert_eq!(
        globex
            .send(Method::DELETE, "/api/users/alice", None, &[])
            .await
            .0,
        StatusCode::OK
    );
    let after = cosmo_shared::graph::GraphSnapshot::of_user(&*w.svc.graph, "alice")
        .await
        .unwrap();
    assert_eq!(after, before);
    assert!(
        cosmo_shared::graph::GraphSnapshot::of_user(&*w.svc.graph, &graph_user_id)
            .await
            .unwrap()
            .sources
            .is_empty(),
        "globex's alice is erased"
    );
    assert_eq!(w.read("/api/users/alice").await["user_id"], "alice");
}
