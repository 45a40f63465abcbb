//! The three signals of hybrid retrieval over Sources: vector similarity by cosine,
//! full-text match on summary, content and keywords, graph neighbours by mentions; each
//! scoped to one user (their own Sources and the team Sources they take part in), without
//! archived Sources unless asked, within a time range.

use cosmo_shared::domain::{MemoryKind, SearchScope, Target};

use super::super::read_support::*;
use super::super::support::*;

pub async fn vector_search_ranks_sources_by_cosine_in_scope(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let mine = |text: &str, d: i64| source(&u.alice, text, t0() + days(d));
    let s0 = processed(g, &mine("Straight ahead", 0), "s0", &[], angle(0.0)).await;
    let s37 = processed(g, &mine("A little off", 1), "s37", &[], angle(37.0)).await;
    let s90 = processed(g, &mine("Unrelated", 2), "s90", &[], angle(90.0)).await;
    let s180 = processed(g, &mine("Opposite", 3), "s180", &[], angle(180.0)).await;
    // Not candidates: a vector of another length, and no vector at all.
    processed(g, &mine("Short vector", 4), "short", &[], vec![1.0, 0.0]).await;
    g.create_source(&mine("Never processed", 5)).await.unwrap();
    // Bob's own, Bob's team Source with Alice, and Bob's team Source with Carol only.
    let b0 = processed(
        g,
        &source(&u.bob, "Bob's note", t0()),
        "b0",
        &[],
        angle(0.0),
    )
    .await;
    let shared = team_source(&u.bob, &[&u.alice], "Team call with Alice", t0() + days(6));
    let t10 = processed(g, &shared, "t10", &[], angle(10.0)).await;
    let other = team_source(&u.bob, &[&u.carol], "Team call with Carol", t0() + days(6));
    let tc = processed(g, &other, "tc", &[], angle(0.0)).await;

    let query = angle(0.0);
    let alice = SearchScope::user(&u.alice);
    let hits = g
        .vector_search(&alice, Target::Source, &query, 10)
        .await
        .unwrap();
    assert_hits(
        "alice sees her Sources and the team Source she is in, by cosine",
        &hits,
        &[
            (&s0, 1.0),
            (&t10, cos_deg(10.0)),
            (&s37, cos_deg(37.0)),
            (&s90, 0.0),
            (&s180, -1.0),
        ],
    );
    let top2 = g
        .vector_search(&alice, Target::Source, &query, 2)
        .await
        .unwrap();
    assert_eq!(
        keys(&top2),
        [s0.clone(), t10.clone()],
        "limit keeps the best"
    );
    assert!(
        g.vector_search(&alice, Target::Source, &query, 0)
            .await
            .unwrap()
            .is_empty()
    );

    let bob = g
        .vector_search(&SearchScope::user(&u.bob), Target::Source, &query, 10)
        .await
        .unwrap();
    let mut bob_keys = keys(&bob);
    bob_keys[..2].sort();
    let mut want = vec![b0.clone(), tc.clone()];
    want.sort();
    want.push(t10.clone());
    assert_eq!(bob_keys, want, "bob sees his own and both team Sources");
    let carol = g
        .vector_search(&SearchScope::user(&u.carol), Target::Source, &query, 10)
        .await
        .unwrap();
    assert_eq!(keys(&carol), [tc.as_str()], "carol only the one she is in");

    // Archived: left out unless asked for.
    archive(g, MemoryKind::Source, &s37, &u.alice).await;
    let hits = g
        .vector_search(&alice, Target::Source, &query, 10)
        .await
        .unwrap();
    assert!(!keys(&hits).contains(&s37), "archived left out");
    let hits = g
        .vector_search(&with_archived(&u.alice), Target::Source, &query, 10)
        .await
        .unwrap();
    assert_eq!(keys(&hits)[2], s37, "archived found when asked, same rank");

    // A time range on the event time: [since, until).
    let range = SearchScope {
        since: Some(t0() + days(1)),
        until: Some(t0() + days(3)),
        ..with_archived(&u.alice)
    };
    let hits = g
        .vector_search(&range, Target::Source, &query, 10)
        .await
        .unwrap();
    assert_eq!(keys(&hits), [s37, s90], "days 1 and 2 only");
}

pub async fn text_search_matches_source_fields_in_scope(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let e = || angle(0.0);
    let mine = |text: &str, d: i64| source(&u.alice, text, t0() + days(d));
    let both = processed(g, &mine("Notes", 0), "Budget for the zeppelin", &[], e()).await;
    let summary = processed(g, &mine("More notes", 1), "The budget again", &[], e()).await;
    let content = processed(g, &mine("We flew a zeppelin", 2), "A flight", &[], e()).await;
    let keyword = processed(g, &mine("Airship day", 3), "A day out", &["zeppelin"], e()).await;
    processed(
        g,
        &mine("Gardening", 4),
        "Tomatoes and basil",
        &["garden"],
        e(),
    )
    .await;
    let bobs = source(&u.bob, "Bob's zeppelin budget", t0());
    processed(g, &bobs, "Zeppelin budget", &["zeppelin"], e()).await;
    let terms = vec!["budget".to_owned(), "zeppelin".to_owned()];

    let alice = SearchScope::user(&u.alice);
    let hits = g
        .text_search(&alice, Target::Source, &terms, 10)
        .await
        .unwrap();
    let found = keys(&hits);
    assert_eq!(
        found.len(),
        4,
        "summary, content and keywords match: {hits:?}"
    );
    for k in [&both, &summary, &content, &keyword] {
        assert!(found.contains(k), "{k} matches");
    }
    assert_eq!(found[0], both, "the Source matching both words ranks first");
    assert!(hits.iter().all(|h| h.score > 0.0), "{hits:?}");
    assert!(
        hits.windows(2).all(|w| w[0].score >= w[1].score),
        "most relevant first: {hits:?}"
    );
    let one = g
        .text_search(&alice, Target::Source, &terms, 1)
        .await
        .unwrap();
    assert_eq!(keys(&one), [both.as_str()]);
    assert!(
        g.text_search(&alice, Target::Source, &[], 10)
            .await
            .unwrap()
            .is_empty(),
        "no terms, no hits"
    );

    // A term of several words counts for the memories that hold every one of them.
    let together = |t: &str| vec![t.to_owned()];
    let hits = g
        .text_search(&alice, Target::Source, &together("budget again"), 10)
        .await
        .unwrap();
    assert_eq!(keys(&hits), [summary.as_str()], "{hits:?}");
    let hits = g
        .text_search(&alice, Target::Source, &together("budget flew"), 10)
        .await
        .unwrap();
    assert!(hits.is_empty(), "no Source holds both: {hits:?}");

    // Words that are syntax elsewhere are plain words here.
    let odd: Vec<String> = ["\"budget", "OR", "NEAR(", "*", "zep:pelin", "-", "AND NOT"]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    let hits = g
        .text_search(&alice, Target::Source, &odd, 10)
        .await
        .unwrap();
    assert!(
        keys(&hits).iter().all(|k| found.contains(k)),
        "only alice's Sources: {hits:?}"
    );

    archive(g, MemoryKind::Source, &both, &u.alice).await;
    let hits = g
        .text_search(&alice, Target::Source, &terms, 10)
        .await
        .unwrap();
    assert!(!keys(&hits).contains(&both), "archived left out");
    let hits = g
        .text_search(&with_archived(&u.alice), Target::Source, &terms, 10)
        .await
        .unwrap();
    assert!(keys(&hits).contains(&both), "archived found when asked");
}

pub async fn team_sources_are_found_by_participants_only(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let team = team_source(&u.alice, &[&u.bob], "Quokka planning call", t0());
    let key = processed(g, &team, "Quokka planning", &["quokka"], angle(0.0)).await;
    // Bob extracts it for himself: his own node, his own mention.
    let w = write(&team, &u.bob, t0(), vec![concept("Quokka")]);
    let bob_quokka = g.write_extraction(&w).await.unwrap().node_keys[0].clone();
    let terms = vec!["quokka".to_owned()];
    for (user, sees) in [(&u.alice, true), (&u.bob, true), (&u.carol, false)] {
        let scope = SearchScope::user(user);
        let v = g
            .vector_search(&scope, Target::Source, &angle(0.0), 10)
            .await
            .unwrap();
        let t = g
            .text_search(&scope, Target::Source, &terms, 10)
            .await
            .unwrap();
        let want: Vec<String> = if sees { vec![key.clone()] } else { vec![] };
        assert_eq!(keys(&v), want, "{user}: vector");
        assert_eq!(keys(&t), want, "{user}: text");
    }
    let seeds = vec![bob_quokka.clone()];
    let n = g
        .neighbours(&SearchScope::user(&u.bob), Target::Source, &seeds, 10)
        .await
        .unwrap();
    assert_eq!(n.len(), 1, "bob reaches it through his own node: {n:?}");
    assert_eq!((n[0].key.as_str(), n[0].score), (key.as_str(), 1.0));
    assert_eq!(n[0].via, seeds);
    for user in [&u.alice, &u.carol] {
        let n = g
            .neighbours(&SearchScope::user(user), Target::Source, &seeds, 10)
            .await
            .unwrap();
        assert!(n.is_empty(), "{user} does not walk bob's graph: {n:?}");
    }
}
