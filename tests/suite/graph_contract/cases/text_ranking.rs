//! Full-text search ranks the same on every store: BM25 over the user's own memories
//! (`cosmo_shared::graph::text_rank`), whatever other users write and however the store
//! indexes text. Each store's order must be the shared ranking's over the same texts.

use cosmo_shared::domain::{NewFact, SearchScope, Target};
use cosmo_shared::graph::text_rank;

use super::super::read_support::*;
use super::super::support::*;

fn terms(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| (*w).to_owned()).collect()
}

pub async fn text_search_ranks_as_the_shared_ranking(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let alice: [(&str, &str, &[&str]); 6] = [
        (
            "Budget review",
            "The budget review moved to Friday; Priya owns the e-mail.",
            &["budget", "finance"],
        ),
        (
            "Launch plan",
            "Falcon launch plan: pricing, budget and the launch date.",
            &["launch", "falcon"],
        ),
        (
            "Team lunch",
            "Lunch with the design team; nobody mentioned the budget.",
            &["team"],
        ),
        (
            "Mail triage",
            "Sorting mail and e-mail from the launch partners, and the mail of O'Brien.",
            &["mail"],
        ),
        (
            "Pricing",
            "Pricing, pricing, pricing: priced plans and their prices.",
            &["price"],
        ),
        ("Quiet day", "Nothing happened at all.", &[]),
    ];
    let mut sources = Vec::new();
    for (i, (summary, content, keywords)) in alice.into_iter().enumerate() {
        let s = source(&u.alice, content, t0() + days(i as i64));
        let key = processed(g, &s, summary, keywords, angle(0.0)).await;
        let keywords: Vec<String> = keywords.iter().map(|k| (*k).to_owned()).collect();
        let columns = [
            summary.to_owned(),
            content.to_owned(),
            serde_json::to_string(&keywords).unwrap(),
        ];
        sources.push((key, columns, true));
    }
    // Bob writes "budget" everywhere: a ranking over every user's text would find it
    // common; over Alice's own, it is not.
    for i in 0..4 {
        let s = source(
            &u.bob,
            "Budget, budget, budget and more budget.",
            t0() + days(i),
        );
        processed(g, &s, "Budget budget", &["budget"], angle(0.0)).await;
    }
    let alice_scope = SearchScope::user(&u.alice);
    for words in [
        &["budget"][..],
        &["launch", "budget"],
        &["e-mail"],
        &["pricing", "team", "falcon"],
        &["mail", "mail", "o'brien"],
        &["friday", "absent"],
    ] {
        let words = terms(words);
        let hits = g
            .text_search(&alice_scope, Target::Source, &words, 10)
            .await
            .unwrap();
        assert_eq!(
            keys(&hits),
            text_rank::rank_texts(Target::Source, &sources, &words, 10),
            "Sources for {words:?}: {hits:?}"
        );
    }

    let at = t0() + days(10);
    let alice_facts = [
        ("Drives a Falcon to work", None),
        ("Favourite car", Some("Falcon budget edition")),
        ("Keeps the budget in a spreadsheet", None),
        ("Works with Priya on the launch", None),
    ];
    let mut facts = Vec::new();
    for (text, value) in alice_facts {
        let f = NewFact {
            category: value.map(|_| "car".to_owned()),
            key: value.map(|_| "model".to_owned()),
            value: value.map(str::to_owned),
            ..fact(&u.alice, text, at)
        };
        let id = stored(g, &f).await.fact_id;
        facts.push((
            id,
            [
                text.to_owned(),
                value.unwrap_or_default().to_owned(),
                String::new(),
            ],
            true,
        ));
    }
    stored(g, &fact(&u.bob, "Budget budget budget", at)).await;
    for words in [&["budget"][..], &["falcon", "launch"], &["edition", "work"]] {
        let words = terms(words);
        let hits = g
            .text_search(&alice_scope, Target::Fact, &words, 10)
            .await
            .unwrap();
        assert_eq!(
            keys(&hits),
            text_rank::rank_texts(Target::Fact, &facts, &words, 10),
            "facts for {words:?}: {hits:?}"
        );
    }
}
