use cosmo_core::graph::text_rank::{self, words};

use super::*;

fn entry(text: &str) -> Entry {
    let mut counts: HashMap<String, f32> = HashMap::new();
    let mut len = 0;
    for w in words(text) {
        len += 1;
        *counts.entry(w).or_default() += 1.0;
    }
    Entry {
        visibility: 0,
        at: 0,
        len,
        words: counts.into_iter().collect(),
    }
}

fn query(q: &[&str]) -> Vec<Vec<String>> {
    q.iter().map(|t| words(t).collect()).collect()
}

const ALL: Filter = Filter {
    visibility: 1,
    since: i64::MIN,
    until: i64::MAX,
};

#[test]
fn rare_words_and_short_memories_rank_first() {
    let mut p = Postings::default();
    p.put(
        "a".into(),
        Some(entry("the pricing decision was made on Friday")),
    );
    p.put(
        "b".into(),
        Some(entry("pricing pricing and more about the budget")),
    );
    p.put("c".into(), Some(entry("Friday lunch with the team")));
    p.put(
        "d".into(),
        Some(entry("the team met about the budget on Friday and Monday")),
    );
    let found = p.search(&ALL, &query(&["pricing", "decision"]), 10);
    let keys: Vec<&str> = found.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(keys, ["a", "b"], "only memories holding a query word");
    // "decision" is in one memory, "friday" in three: the rare word decides.
    let found = p.search(&ALL, &query(&["decision", "friday"]), 2);
    assert_eq!(found[0].0, "a");
    assert_eq!(found.len(), 2);
}

#[test]
fn a_replaced_or_deleted_memory_leaves_no_word_behind() {
    let mut p = Postings::default();
    p.put("a".into(), Some(entry("secret zanzibar plans")));
    p.put("b".into(), Some(entry("ordinary plans")));
    assert_eq!(p.search(&ALL, &query(&["zanzibar"]), 5).len(), 1);
    p.put("a".into(), Some(entry("new plans")));
    assert!(p.search(&ALL, &query(&["zanzibar"]), 5).is_empty());
    assert!(
        !p.vocabulary.contains_key("zanzibar"),
        "the word left memory"
    );
    p.put("a".into(), None);
    assert!(!p.vocabulary.contains_key("new"));
    let found = p.search(&ALL, &query(&["plans"]), 5);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].0, "b");
}

#[test]
fn compaction_keeps_every_answer() {
    let mut p = Postings::default();
    for i in 0..3000 {
        p.put(
            format!("k{i}"),
            Some(entry(&format!("word{} common{} shared", i % 7, i % 3))),
        );
    }
    for i in (0..3000).step_by(2) {
        p.put(
            format!("k{i}"),
            Some(entry(&format!("word{} other shared", i % 5))),
        );
    }
    let before = p.search(&ALL, &query(&["word3", "shared", "common1"]), 50);
    p.compact();
    assert_eq!(p.dead_postings, 0);
    assert_eq!(
        p.search(&ALL, &query(&["word3", "shared", "common1"]), 50),
        before
    );
}

#[test]
fn a_compound_word_needs_all_its_parts() {
    let mut p = Postings::default();
    p.put("a".into(), Some(entry("send the e-mail today")));
    p.put("b".into(), Some(entry("mail the letter")));
    let found = p.search(&ALL, &query(&["e-mail"]), 5);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].0, "a");
}

/// The SQLite store's postings rank exactly as `text_rank::rank` (what the Neo4j
/// store ranks with) over random corpora: compound words, repeated words, columns
/// of every weight, memories outside the scope, replaced and deleted ones.
#[test]
fn postings_rank_as_the_shared_ranking() {
    let vocabulary = [
        "price", "pricing", "plan", "launch", "Falcon", "budget", "e-mail", "mail", "o'brien",
        "review", "team", "café", "the", "naïve",
    ];
    let mut seed = 7u64;
    let mut next = |n: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % n
    };
    for round in 0..60 {
        let target = [Target::Source, Target::Node, Target::Fact][round % 3];
        let mut postings = Postings::default();
        let mut memories: Vec<(String, [String; 3], bool)> = Vec::new();
        for i in 0..(5 + next(40)) {
            let mut text = || -> String {
                (0..next(12))
                    .map(|_| vocabulary[next(vocabulary.len() as u64) as usize])
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            let columns = [text(), text(), text()];
            let admitted = next(4) != 0;
            let key = format!("m{:03}", (i * 37) % 100);
            let a = text_rank::analyze(target, [&columns[0], &columns[1], &columns[2]]);
            let entry = Entry {
                visibility: i64::from(!admitted),
                at: 0,
                len: a.len,
                words: a.words,
            };
            postings.put(key.clone(), Some(entry));
            memories.retain(|(k, _, _)| *k != key);
            if next(10) == 0 {
                postings.put(key, None);
            } else {
                memories.push((key, columns, admitted));
            }
        }
        let terms: Vec<String> = (0..1 + next(4))
            .map(|_| vocabulary[next(vocabulary.len() as u64) as usize].to_owned())
            .collect();
        let scope = Filter {
            visibility: 0,
            since: i64::MIN,
            until: i64::MAX,
        };
        let got: Vec<String> = postings
            .search(&scope, &query_words(&terms), 10)
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        let want = text_rank::rank_texts(target, &memories, &terms, 10);
        assert_eq!(got, want, "round {round}: {terms:?}");
    }
}
