//! Note search (`search_notes`): the notes on a user's nodes and relationships are
//! searchable memories — found by their words (stemmed, never query syntax), each with
//! its owner, provenance and date; scoped to the user, to live owners unless archived
//! ones are asked for, to notes not yet expired; an insight with the Sources it was
//! derived from; gone with the Source or user they came from; best first, at most
//! `limit`.

use chrono::{DateTime, Utc};
use cosmo_shared::domain::{MemoryKind, NodeRef, NoteHit, NoteLifetime, NoteTarget, SearchScope};
use cosmo_shared::graph::EpisodicConsolidation;
use cosmo_shared::graph::GraphStore;

use super::super::read_support::*;
use super::super::support::*;

const WANTS: &str = "Sarah Chen wants the hiring plan done by March.";
const SISTER: &str = "Has a sister in Boston.";
const JOINED: &str = "Joined Acme Corp in 2024.";

fn words(w: &[&str]) -> Vec<String> {
    w.iter().map(|s| (*s).to_owned()).collect()
}

async fn search(
    g: &dyn GraphStore,
    scope: &SearchScope,
    terms: &[&str],
    at: DateTime<Utc>,
) -> Vec<NoteHit> {
    g.search_notes(scope, &words(terms), at, 50).await.unwrap()
}

fn texts(hits: &[NoteHit]) -> Vec<&str> {
    hits.iter().map(|h| h.text.as_str()).collect()
}

fn sorted(mut v: Vec<&str>) -> Vec<&str> {
    v.sort_unstable();
    v
}

/// `user`'s extraction of a Source about Sarah Chen at Acme Corp (on `t0() + 1 day`):
/// two notes on Sarah (a month, forever), one on Sarah —works_at→ Acme Corp (a week).
/// Returns the Source key, the node keys (Sarah, Acme) and the relationship key.
async fn sarah_at_acme(g: &dyn GraphStore, user: &str) -> (String, Vec<String>, String) {
    let (source, nodes) = extracted(
        g,
        user,
        "Lunch with Sarah Chen from Acme Corp.",
        t0() + days(1),
        vec![person("Sarah Chen", 0.9), organization("Acme Corp")],
        |w| {
            w.relationships = vec![link(0, 1, "works_at")];
            w.notes = vec![
                note(
                    NoteTarget::Node(NodeRef::Extracted(0)),
                    WANTS,
                    NoteLifetime::Month,
                ),
                note(
                    NoteTarget::Node(NodeRef::Extracted(0)),
                    SISTER,
                    NoteLifetime::Forever,
                ),
                note(NoteTarget::Relationship(0), JOINED, NoteLifetime::Week),
            ];
        },
    )
    .await;
    let rel = g
        .relationships_for_user(user, None, 10)
        .await
        .unwrap()
        .into_iter()
        .find(|r| r.from_key == nodes[0] && r.to_key == nodes[1])
        .expect("the works_at link")
        .rel_key;
    (source, nodes, rel)
}

pub async fn notes_are_found_by_their_words_on_nodes_and_relationships(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let (source, nodes, rel) = sarah_at_acme(g, &u.alice).await;
    let alice = SearchScope::user(&u.alice);
    let now = t0() + days(2);

    let hits = search(g, &alice, &["march"], now).await;
    assert_eq!(texts(&hits), [WANTS], "{hits:#?}");
    let h = &hits[0];
    assert_eq!(h.owner_kind, MemoryKind::Node);
    assert_eq!(
        (h.owner_key.as_str(), h.owner.as_str()),
        (nodes[0].as_str(), "Sarah Chen")
    );
    assert_eq!(h.about, [nodes[0].clone()]);
    assert_eq!(h.source_id.as_deref(), Some(source.as_str()));
    assert_eq!(h.date_added, t0() + days(1));
    assert_eq!(
        h.said_at,
        said_at(),
        "when it was said, not when it was noted"
    );
    assert_eq!(h.added_by, u.alice);
    assert!(h.derived_from.is_empty() && !h.is_insight());
    assert!(h.score > 0.0, "{h:?}");
    assert!(!h.note_id.is_empty());

    let hits = search(g, &alice, &["joined"], now).await;
    assert_eq!(texts(&hits), [JOINED], "{hits:#?}");
    let h = &hits[0];
    assert_eq!(h.owner_kind, MemoryKind::Relationship);
    assert_eq!(h.owner_key, rel);
    assert_eq!(h.owner, "Sarah Chen —works_at→ Acme Corp");
    assert_eq!(h.about, [nodes[0].clone(), nodes[1].clone()]);
    assert_eq!(h.source_id.as_deref(), Some(source.as_str()));

    // Words meet on their stems, as in every full-text search.
    assert_eq!(texts(&search(g, &alice, &["want"], now).await), [WANTS]);
    assert_eq!(texts(&search(g, &alice, &["hiring"], now).await), [WANTS]);
    assert_eq!(
        sorted(texts(&search(g, &alice, &["sister", "acme"], now).await)),
        sorted(vec![SISTER, JOINED]),
        "any of the words, on either kind of owner"
    );
    // Only the notes: a node's name is not a note.
    assert!(search(g, &alice, &["lunch"], now).await.is_empty());
    assert!(search(g, &alice, &["zeppelin"], now).await.is_empty());
    assert!(search(g, &alice, &[], now).await.is_empty());
    // Never query syntax.
    for hostile in [
        "march OR sister",
        "\"march",
        "NEAR(march sister)",
        "march*",
        "note_texts:march",
        "text:march",
        "-march",
        "(",
    ] {
        let hits = g
            .search_notes(&alice, &words(&[hostile]), now, 50)
            .await
            .unwrap_or_else(|e| panic!("{hostile:?}: {e}"));
        assert!(
            hits.iter().all(|h| h.text == WANTS),
            "{hostile:?} is words, not syntax: {hits:#?}"
        );
    }
}

pub async fn note_search_is_scoped_to_the_user_live_owners_and_live_notes(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let (_, nodes, rel) = sarah_at_acme(g, &u.alice).await;
    sarah_at_acme(g, &u.bob).await;
    let now = t0() + days(2);
    let alice = SearchScope::user(&u.alice);
    let terms = ["march", "sister", "joined"];

    let hits = search(g, &alice, &terms, now).await;
    assert_eq!(hits.len(), 3, "{hits:#?}");
    assert!(
        hits.iter()
            .all(|h| h.added_by == u.alice && h.about.contains(&nodes[0])),
        "never Bob's notes: {hits:#?}"
    );
    assert!(
        search(g, &SearchScope::user(&u.carol), &terms, now)
            .await
            .is_empty()
    );

    // Expired notes are not found, although they are stored until cleanup.
    let in_a_week = t0() + days(8);
    assert_eq!(
        sorted(texts(&search(g, &alice, &terms, in_a_week).await)),
        sorted(vec![WANTS, SISTER]),
        "the week-long note ran out on day 8"
    );
    let after_a_month = t0() + days(31);
    assert_eq!(
        texts(&search(g, &alice, &terms, after_a_month).await),
        [SISTER],
        "only the note kept forever"
    );
    let just_before = t0() + days(1) + chrono::Duration::days(7) - chrono::Duration::seconds(1);
    assert_eq!(search(g, &alice, &terms, just_before).await.len(), 3);

    // The time range applies to when the note was said (8 May 2023, 18:00), not to
    // when it was noted (day 1): a question about May 2023 finds what was said then.
    let range = |since: DateTime<Utc>, until: DateTime<Utc>| SearchScope {
        since: Some(since),
        until: Some(until),
        ..SearchScope::user(&u.alice)
    };
    let said = said_at();
    let hour = chrono::Duration::hours(1);
    assert_eq!(
        search(g, &range(said - hour, said + hour), &terms, now)
            .await
            .len(),
        3
    );
    assert!(
        search(g, &range(said + hour, said + days(1)), &terms, now)
            .await
            .is_empty()
    );
    assert!(
        search(g, &range(t0() + days(1), t0() + days(2)), &terms, now)
            .await
            .is_empty(),
        "not when it was noted"
    );

    // Archived owners only when asked for.
    archive(g, MemoryKind::Relationship, &rel, &u.alice).await;
    assert_eq!(
        sorted(texts(&search(g, &alice, &terms, now).await)),
        sorted(vec![WANTS, SISTER])
    );
    archive(g, MemoryKind::Node, &nodes[0], &u.alice).await;
    assert!(search(g, &alice, &terms, now).await.is_empty());
    assert_eq!(
        search(g, &with_archived(&u.alice), &terms, now).await.len(),
        3,
        "archived owners when asked"
    );
    assert_eq!(
        search(g, &SearchScope::user(&u.bob), &terms, now)
            .await
            .len(),
        3,
        "Bob's own are untouched"
    );
}

pub async fn insight_notes_carry_the_sources_they_were_derived_from(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let user = u.alice.as_str();
    let sarah = || vec![person("Sarah Chen", 0.9)];
    let noted = |text: &'static str| {
        move |w: &mut cosmo_shared::domain::ExtractionWrite| {
            w.notes = vec![note(
                NoteTarget::Node(NodeRef::Extracted(0)),
                text,
                NoteLifetime::Forever,
            )];
        }
    };
    let (s1, nodes) = extracted(
        g,
        user,
        "Sarah one",
        t0(),
        sarah(),
        noted("Zorblax kickoff."),
    )
    .await;
    let (s2, _) = extracted(g, user, "Sarah two", t0() + days(1), sarah(), |_| {}).await;
    let (s3, _) = extracted(g, user, "Sarah three", t0() + days(2), sarah(), |_| {}).await;
    let insight = |text: &str, sources: Vec<String>, d: i64| EpisodicConsolidation {
        entity_key: nodes[0].clone(),
        user_id: user.to_owned(),
        insight: text.to_owned(),
        lifetime: NoteLifetime::Year,
        source_keys: sources,
        at: t0() + days(d),
    };
    g.consolidate_sources(&insight(
        "Sarah leads the zorblax launch.",
        vec![s2.clone(), s1.clone()],
        10,
    ))
    .await
    .unwrap();
    g.consolidate_sources(&insight("Sarah still plans zorblax.", vec![s3.clone()], 12))
        .await
        .unwrap();

    let hits = search(g, &SearchScope::user(user), &["zorblax"], t0() + days(20)).await;
    assert_eq!(hits.len(), 3, "{hits:#?}");
    let by_text = |t: &str| {
        hits.iter()
            .find(|h| h.text == t)
            .unwrap_or_else(|| panic!("{t:?} in {hits:#?}"))
    };
    let first = by_text("Sarah leads the zorblax launch.");
    assert!(first.is_insight());
    assert_eq!(
        (first.source_id.as_deref(), first.added_by.as_str()),
        (None, "cosmo")
    );
    let mut want = vec![s1.clone(), s2.clone()];
    want.sort();
    assert_eq!(first.derived_from, want, "its Sources, sorted");
    assert_eq!(first.date_added, t0() + days(10));
    assert_eq!(
        (first.owner_kind, first.owner.as_str()),
        (MemoryKind::Node, "Sarah Chen")
    );
    let second = by_text("Sarah still plans zorblax.");
    assert_eq!(second.derived_from, [s3.as_str()]);
    let extracted_note = by_text("Zorblax kickoff.");
    assert!(!extracted_note.is_insight() && extracted_note.derived_from.is_empty());
    assert_eq!(extracted_note.source_id.as_deref(), Some(s1.as_str()));

    // The Sources are archived by consolidation; the insight keeps them reachable.
    let archived = g.source(&s1).await.unwrap().unwrap();
    assert_eq!(
        archived.lifecycle.state,
        cosmo_shared::domain::MemoryState::Archived
    );

    // Each archived Source leads to the insights derived from it (never to another
    // user's, never to an extraction's note), each once with all its Sources.
    let later = t0() + days(20);
    let of = |keys: Vec<String>| async move {
        g.insights_of(user, &keys, later)
            .await
            .unwrap()
            .into_iter()
            .map(|h| (h.text, h.derived_from))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        of(vec![s1.clone()]).await,
        [("Sarah leads the zorblax launch.".to_owned(), want.clone())]
    );
    let mut both = of(vec![s1.clone(), s2.clone(), s3.clone()]).await;
    both.sort();
    assert_eq!(
        both,
        [
            ("Sarah leads the zorblax launch.".to_owned(), want.clone()),
            ("Sarah still plans zorblax.".to_owned(), vec![s3.clone()]),
        ]
    );
    assert!(of(Vec::new()).await.is_empty());
    assert!(
        g.insights_of(&u.bob, std::slice::from_ref(&s1), later)
            .await
            .unwrap()
            .is_empty(),
        "not another user's"
    );
    // An insight past its lifetime (a year) leads nowhere.
    assert!(
        g.insights_of(user, std::slice::from_ref(&s3), t0() + days(12 + 366))
            .await
            .unwrap()
            .is_empty()
    );
    let hit = &g
        .insights_of(user, std::slice::from_ref(&s3), later)
        .await
        .unwrap()[0];
    assert_eq!(
        (hit.owner.as_str(), hit.owner_kind, hit.source_id.as_deref()),
        ("Sarah Chen", MemoryKind::Node, None)
    );
    assert_eq!(hit.said_at, t0() + days(2), "said when its Source happened");

    // The node holding the insight decays into the archive too: the insight still
    // stands for the Sources it replaced.
    set_lifecycle(g, MemoryKind::Node, &nodes[0], user, |l| {
        l.state = cosmo_shared::domain::MemoryState::Archived;
    })
    .await;
    assert_eq!(
        of(vec![s3.clone()]).await,
        [("Sarah still plans zorblax.".to_owned(), vec![s3.clone()])],
        "an insight on an archived node"
    );
}

pub async fn erasure_takes_notes_out_of_note_search(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let (source, nodes, _) = sarah_at_acme(g, &u.alice).await;
    let user = u.alice.as_str();
    let (other, _) = extracted(
        g,
        user,
        "Sarah again",
        t0() + days(3),
        vec![person("Sarah Chen", 0.9)],
        |w| {
            w.notes = vec![note(
                NoteTarget::Node(NodeRef::Extracted(0)),
                "Sarah moved the hiring deadline to April.",
                NoteLifetime::Forever,
            )];
        },
    )
    .await;
    g.consolidate_sources(&EpisodicConsolidation {
        entity_key: nodes[0].clone(),
        user_id: user.to_owned(),
        insight: "Sarah drives the hiring plan.".to_owned(),
        lifetime: NoteLifetime::Year,
        source_keys: vec![source.clone()],
        at: t0() + days(4),
    })
    .await
    .unwrap();
    sarah_at_acme(g, &u.bob).await;
    let alice = SearchScope::user(user);
    // Before the week-long note on the relationship runs out.
    let now = t0() + days(5);
    let terms = ["hiring", "sister", "joined"];
    assert_eq!(search(g, &with_archived(user), &terms, now).await.len(), 5);

    // Erasing a Source: the notes taken from it and the insight drawn from it go.
    g.erase_source(&source, now).await.unwrap().unwrap();
    let left = search(g, &with_archived(user), &terms, now).await;
    assert_eq!(
        texts(&left),
        ["Sarah moved the hiring deadline to April."],
        "{left:#?}"
    );
    assert_eq!(left[0].source_id.as_deref(), Some(other.as_str()));
    assert!(
        search(g, &alice, &["march", "drives"], now)
            .await
            .is_empty()
    );

    // Erasing the user: everything of theirs, nothing of Bob's.
    g.erase_user(user, now).await.unwrap();
    assert!(
        search(g, &with_archived(user), &terms, now)
            .await
            .is_empty()
    );
    assert_eq!(
        search(g, &SearchScope::user(&u.bob), &terms, now)
            .await
            .len(),
        3
    );
}

pub async fn note_search_ranks_best_first_within_the_limit(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let user = u.alice.as_str();
    // One note per node, so every backend scores each note on its own.
    for (i, (name, text)) in [
        ("Quill", "The quasar survey needs funding."),
        (
            "Ravel",
            "Quasar and pulsar data, both in the survey archive.",
        ),
        ("Sable", "The pulsar timing results."),
        ("Tarn", "Nothing about the sky at all."),
    ]
    .iter()
    .enumerate()
    {
        extracted(
            g,
            user,
            &format!("Astronomy #{i}"),
            t0() + days(i as i64),
            vec![concept(name)],
            |w| {
                w.notes = vec![note(
                    NoteTarget::Node(NodeRef::Extracted(0)),
                    text,
                    NoteLifetime::Forever,
                )];
            },
        )
        .await;
    }
    let scope = SearchScope::user(user);
    let now = t0() + days(10);
    let terms = words(&["quasar", "pulsar"]);
    let all = g.search_notes(&scope, &terms, now, 10).await.unwrap();
    assert_eq!(all.len(), 3, "{all:#?}");
    assert_eq!(
        all[0].text, "Quasar and pulsar data, both in the survey archive.",
        "the note with both words first: {all:#?}"
    );
    assert!(
        all.windows(2).all(|w| w[0].score >= w[1].score),
        "best first: {all:#?}"
    );
    let top = g.search_notes(&scope, &terms, now, 1).await.unwrap();
    assert_eq!(
        texts(&top),
        [all[0].text.as_str()],
        "the limit keeps the best"
    );
    assert_eq!(
        g.search_notes(&scope, &terms, now, 2).await.unwrap().len(),
        2
    );
    assert!(
        g.search_notes(&scope, &terms, now, 0)
            .await
            .unwrap()
            .is_empty()
    );
}
