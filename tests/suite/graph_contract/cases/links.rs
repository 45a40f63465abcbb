//! Links between Sources: `temporal` ones chain a thread's Sources in event order, once
//! per consecutive pair whatever order they are processed in; `causal` ones are written
//! once, from the Sources waiting to have their causes looked for; erasing a Source
//! takes its links and closes its thread over the gap.

use cosmo_shared::domain::{NewCausalLink, SourceLink, SourceLinkKind};
use cosmo_shared::graph::GraphStore;

use super::super::support::*;

/// A Source of `user` at day `day`, its key.
async fn at_day(g: &dyn GraphStore, user: &str, text: &str, day: i64) -> String {
    let s = source(user, text, t0() + days(day));
    g.create_source(&s).await.unwrap();
    s.entity_key
}

/// The links touching `keys`, as (kind, from, to).
pub(crate) async fn links(
    g: &dyn GraphStore,
    keys: &[&String],
) -> Vec<(SourceLinkKind, String, String)> {
    let keys: Vec<String> = keys.iter().map(|k| (*k).clone()).collect();
    g.source_links(&keys)
        .await
        .unwrap()
        .into_iter()
        .map(|l| (l.kind, l.from_key, l.to_key))
        .collect()
}

/// Links as [`links`] lists them: by kind, then from and to key.
pub(crate) fn sorted<const N: usize>(
    links: [(SourceLinkKind, String, String); N],
) -> Vec<(SourceLinkKind, String, String)> {
    let mut links = links.to_vec();
    links.sort();
    links
}

pub(crate) fn temporal(from: &str, to: &str) -> (SourceLinkKind, String, String) {
    (SourceLinkKind::Temporal, from.to_owned(), to.to_owned())
}

fn causal(from: &str, to: &str) -> (SourceLinkKind, String, String) {
    (SourceLinkKind::Causal, from.to_owned(), to.to_owned())
}

fn cause(cause: &str, effect: &str) -> NewCausalLink {
    NewCausalLink {
        cause_key: cause.to_owned(),
        effect_key: effect.to_owned(),
        confidence: 0.7,
        inferred_by: "offline:test".into(),
        evidence: format!("because of {cause}"),
    }
}

pub async fn temporal_links_chain_a_thread_once_in_event_order(store: &Store) {
    let g = store.graph();
    let u = store.users();
    let thread = format!("{}-chat", u.alice);
    let a = at_day(g, &u.alice, "first", 0).await;
    let c = at_day(g, &u.alice, "third", 2).await;
    let b = at_day(g, &u.alice, "second", 1).await;
    let elsewhere = at_day(g, &u.alice, "another thread", 1).await;
    let unthreaded = at_day(g, &u.alice, "no thread", 1).await;

    assert!(g.link_temporal(&a, &thread, t0()).await.unwrap());
    assert_eq!(links(g, &[&a]).await, [], "a thread of one has no links");
    assert!(g.link_temporal(&c, &thread, t0()).await.unwrap());
    assert_eq!(links(g, &[&a, &c]).await, [temporal(&a, &c)]);

    // Processed late, it lands between the two, which no longer follow each other.
    assert!(g.link_temporal(&b, &thread, t0()).await.unwrap());
    let chain = sorted([temporal(&a, &b), temporal(&b, &c)]);
    assert_eq!(links(g, &[&a, &b, &c]).await, chain);

    // Again, in any order: nothing changes.
    for key in [&c, &b, &a, &b] {
        assert!(g.link_temporal(key, &thread, t0()).await.unwrap());
    }
    assert_eq!(links(g, &[&a, &b, &c]).await, chain);

    // Another thread, and a Source that joined none, stay apart.
    let other = format!("{}-mail", u.alice);
    assert!(g.link_temporal(&elsewhere, &other, t0()).await.unwrap());
    assert_eq!(links(g, &[&elsewhere, &unthreaded]).await, []);
    assert_eq!(links(g, &[&a, &b, &c]).await, chain);

    let every: Vec<SourceLink> = g.source_links(std::slice::from_ref(&b)).await.unwrap();
    assert_eq!(every.len(), 2);
    assert!(
        every
            .iter()
            .all(|l| l.confidence == 1.0 && l.inferred_by.is_none())
    );

    // Who took part changed: it moves to its new thread, and the old one closes over it.
    let moved = format!("{}-moved", u.alice);
    assert!(g.link_temporal(&b, &moved, t0()).await.unwrap());
    assert_eq!(links(g, &[&a, &b, &c]).await, [temporal(&a, &c)]);
    assert!(
        !g.link_temporal("no-such-source", &thread, t0())
            .await
            .unwrap()
    );
}

pub async fn causal_links_are_written_once_from_waiting_sources(store: &Store) {
    let g = store.graph();
    let u = store.users();
    let thread = format!("{}-chat", u.alice);
    let a = at_day(g, &u.alice, "the sock", 0).await;
    let b = at_day(g, &u.alice, "small talk", 1).await;
    let c = at_day(g, &u.alice, "obedience classes after the vet", 2).await;
    let bobs = at_day(g, &u.bob, "bob's own", 0).await;
    for key in [&a, &b, &c] {
        g.link_temporal(key, &thread, t0()).await.unwrap();
    }

    // Each waits, with the Sources before it, nearest first, at most `window`. (Every
    // page is read: a server shared with other tests has their Sources too.)
    let alice = u.alice.clone();
    let waiting = |window| {
        let alice = alice.clone();
        async move {
            let mut found = Vec::new();
            let mut after: Option<String> = None;
            loop {
                let page = g
                    .causal_candidates(after.as_deref(), window, 100)
                    .await
                    .unwrap();
                let Some(last) = page.last() else { break };
                after = Some(last.effect_key.clone());
                found.extend(page);
            }
            found.retain(|x| x.user_id == alice);
            found
                .into_iter()
                .map(|x| (x.effect_key, x.earlier))
                .collect::<Vec<_>>()
        }
    };
    let mut want = vec![
        (a.clone(), vec![]),
        (b.clone(), vec![a.clone()]),
        (c.clone(), vec![b.clone(), a.clone()]),
    ];
    want.sort();
    assert_eq!(waiting(2).await, want);
    let short = waiting(1).await;
    assert!(short.contains(&(c.clone(), vec![b.clone()])), "{short:?}");
    // Paged by entity key.
    let first = g.causal_candidates(None, 2, 1).await.unwrap();
    let after = first.last().map(|x| x.effect_key.clone());
    let rest = g.causal_candidates(after.as_deref(), 2, 100).await.unwrap();
    assert!(rest.iter().all(|x| Some(&x.effect_key) > after.as_ref()));

    // Written once; one naming another user's Source or another effect is skipped.
    let found = [cause(&a, &c), cause(&bobs, &c), cause(&a, &b)];
    assert_eq!(g.save_causal(&c, &found, t0()).await.unwrap(), 1);
    assert_eq!(g.save_causal(&c, &found, t0()).await.unwrap(), 0);
    assert_eq!(
        g.save_causal("no-such-source", &found, t0()).await.unwrap(),
        0
    );
    let written: Vec<SourceLink> = g
        .source_links(std::slice::from_ref(&c))
        .await
        .unwrap()
        .into_iter()
        .filter(|l| l.kind == SourceLinkKind::Causal)
        .collect();
    assert_eq!(written.len(), 1, "{written:?}");
    let l = &written[0];
    assert_eq!(
        (l.from_key.as_str(), l.to_key.as_str()),
        (a.as_str(), c.as_str())
    );
    assert_eq!(l.confidence, 0.7);
    assert_eq!(l.inferred_by.as_deref(), Some("offline:test"));
    assert_eq!(
        l.evidence.as_deref(),
        Some(format!("because of {a}").as_str())
    );
    assert_eq!(l.created_at, t0());
    assert!(
        !waiting(2).await.iter().any(|(k, _)| k == &c),
        "c was looked at"
    );
    assert_eq!(links(g, &[&bobs]).await, []);

    // A Source that arrives just before it (half a day after b) has it looked at again.
    let told_late = source(
        &u.alice,
        "told late",
        t0() + days(1) + chrono::Duration::hours(12),
    );
    g.create_source(&told_late).await.unwrap();
    let late = told_late.entity_key;
    g.link_temporal(&late, &thread, t0()).await.unwrap();
    let again = waiting(2).await;
    assert!(
        again.contains(&(c.clone(), vec![late.clone(), b.clone()])),
        "{again:?}"
    );
    assert!(again.iter().any(|(k, _)| k == &late));
}

pub async fn erasing_a_source_takes_its_links_and_closes_its_thread(store: &Store) {
    let g = store.graph();
    let u = store.users();
    let thread = format!("{}-chat", u.alice);
    let a = at_day(g, &u.alice, "first", 0).await;
    let b = at_day(g, &u.alice, "second", 1).await;
    let c = at_day(g, &u.alice, "third", 2).await;
    for key in [&a, &b, &c] {
        g.link_temporal(key, &thread, t0()).await.unwrap();
    }
    g.save_causal(&c, &[cause(&a, &c), cause(&b, &c)], t0())
        .await
        .unwrap();
    g.save_causal(&b, &[cause(&a, &b)], t0()).await.unwrap();

    g.erase_source(&b, t0()).await.unwrap().expect("erased");
    assert_eq!(
        links(g, &[&a, &b, &c]).await,
        sorted([causal(&a, &c), temporal(&a, &c)])
    );
    // The Source after the gap has its causes looked for again.
    let waiting = g.causal_candidates(None, 2, 100).await.unwrap();
    assert!(
        waiting
            .iter()
            .any(|x| x.effect_key == c && x.earlier == [a.clone()]),
        "{waiting:?}"
    );

    g.erase_user(&u.alice, t0()).await.unwrap();
    assert_eq!(links(g, &[&a, &b, &c]).await, []);
}
