//! Concepts: lower-case topics that recur across sentences — two-word noun phrases
//! ("hiring plan", "quarterly budget") and, failing those, single content words.

use std::collections::{HashMap, HashSet};

use super::lexicon::GENERIC_NOUNS;
use super::text::{self, Sentence};

/// A recurring topic and the sentences it occurs in.
#[derive(Debug, Clone, PartialEq)]
pub struct Topic {
    pub name: String,
    pub sentences: Vec<usize>,
    pub confidence: f64,
}

const MAX_PHRASES: usize = 6;
const MAX_WORDS: usize = 4;

/// Recurring topics, most frequent first; `exclude` holds lower-case words of names.
pub fn find(sentences: &[Sentence], exclude: &HashSet<String>) -> Vec<Topic> {
    let mut phrases: Vec<(String, Vec<usize>)> = Vec::new();
    let mut words: Vec<(String, Vec<usize>)> = Vec::new();
    let mut phrase_index: HashMap<String, usize> = HashMap::new();
    let mut word_index: HashMap<String, usize> = HashMap::new();
    for (i, sentence) in sentences.iter().enumerate() {
        let masked = text::mask_urls(&sentence.text);
        let tokens = text::tokens(&masked);
        let usable: Vec<Option<String>> = tokens
            .iter()
            .enumerate()
            .map(|(j, t)| topic_word(t.text, j == 0, exclude))
            .collect();
        for (j, word) in usable.iter().enumerate() {
            let Some(word) = word else { continue };
            if !GENERIC_NOUNS.contains(word.as_str()) {
                record(&mut words, &mut word_index, singular(word), i);
            }
            if let Some(Some(next)) = usable.get(j + 1)
                && text::adjacent(&masked, &tokens[j], &tokens[j + 1])
                && !GENERIC_NOUNS.contains(word.as_str())
            {
                record(
                    &mut phrases,
                    &mut phrase_index,
                    format!("{word} {}", singular(next)),
                    i,
                );
            }
        }
    }
    let mut kept: Vec<Topic> = join_overlaps(top(phrases, 2, MAX_PHRASES))
        .into_iter()
        .map(|(name, sentences)| Topic {
            confidence: (4.0 + sentences.len() as f64).min(10.0),
            name,
            sentences,
        })
        .collect();
    // A word adds nothing when a phrase holding it occurs at least as often.
    let covered = |word: &str, count: usize| {
        kept.iter()
            .any(|t| t.name.split(' ').any(|w| w == word) && t.sentences.len() >= count)
    };
    let words: Vec<(String, Vec<usize>)> = words
        .into_iter()
        .filter(|(w, s)| !covered(w, s.len()))
        .collect();
    kept.extend(
        top(words, 3, MAX_WORDS)
            .into_iter()
            .map(|(name, sentences)| Topic {
                confidence: (4.0 + sentences.len() as f64).min(10.0),
                name,
                sentences,
            }),
    );
    kept
}

/// A lower-case content word that can head or modify a topic: no adverbs, past
/// participles or adjectives in `-able`/`-ful`/`-ous`. Capitalised words are names,
/// except at the start of a sentence.
fn topic_word(token: &str, sentence_start: bool, exclude: &HashSet<String>) -> Option<String> {
    let mut chars = token.chars();
    let first_lower = chars.next().is_some_and(char::is_lowercase);
    if !(first_lower || sentence_start && chars.all(char::is_lowercase)) {
        return None;
    }
    let word = text::norm(token);
    let usable = text::is_content_word(&word)
        && !is_modifier(&word)
        && word.chars().all(|c| c.is_alphabetic() || c == '-')
        && !exclude.contains(&word);
    usable.then_some(word)
}

/// Adverbs (`-ly`), past participles (`-ed`) and adjectives (`-able`, `-ful`, `-ous`),
/// except common nouns and noun modifiers with those endings.
fn is_modifier(word: &str) -> bool {
    const NOUNS: &str = "quarterly weekly monthly daily yearly hourly early family supply reply \
        assembly anomaly rally ally belly jelly friendly elderly costly timely monopoly butterfly \
        table cable vegetable timetable variable deliverable receivable payable handful";
    if text::listed(word, NOUNS) {
        return false;
    }
    let participle = word.ends_with("ed") && word.chars().count() > 4 && !word.ends_with("eed");
    participle
        || ["ly", "able", "ible", "ful", "ous"]
            .iter()
            .any(|s| word.ends_with(s))
}

/// `plans` → `plan`, `budgets` → `budget`, `tomatoes` → `tomato`, `boxes` → `box`;
/// leaves `business`, `analysis`, `news`.
fn singular(word: &str) -> String {
    const INVARIANT: &str = "sales series species headquarters means lens gas bus";
    const E_PLURALS: &str = "shoes canoes toes horses houses courses cases bases uses";
    let es_plural = (word.ends_with("oes")
        || ["ches", "shes", "xes", "zes", "sses"]
            .iter()
            .any(|s| word.ends_with(s)))
        && word.chars().count() > 4
        && !text::listed(word, E_PLURALS);
    if es_plural {
        return word[..word.len() - 2].to_owned();
    }
    let keep = ["ss", "us", "is", "ws", "ics"]
        .iter()
        .any(|s| word.ends_with(s))
        || word.chars().count() <= 3
        || text::listed(word, INVARIANT);
    match word.strip_suffix('s') {
        Some(stem) if !keep => stem
            .strip_suffix("ie")
            .map(|s| format!("{s}y"))
            .unwrap_or_else(|| stem.to_owned()),
        _ => word.to_owned(),
    }
}

/// "vendor contract" + "contract renewal" in the same sentences → "vendor contract renewal".
fn join_overlaps(mut phrases: Vec<(String, Vec<usize>)>) -> Vec<(String, Vec<usize>)> {
    let mut i = 0;
    while i < phrases.len() {
        let last = phrases[i].0.rsplit(' ').next().unwrap_or("").to_owned();
        let next = (0..phrases.len()).find(|&j| {
            j != i
                && phrases[j].1 == phrases[i].1
                && phrases[j].0.split(' ').next() == Some(last.as_str())
        });
        match next {
            Some(j) => {
                let tail = phrases[j]
                    .0
                    .split_once(' ')
                    .map(|(_, t)| t.to_owned())
                    .unwrap_or_default();
                phrases[i].0 = format!("{} {tail}", phrases[i].0);
                phrases.remove(j);
                if j < i {
                    i -= 1;
                }
            }
            None => i += 1,
        }
    }
    phrases
}

fn record(
    list: &mut Vec<(String, Vec<usize>)>,
    index: &mut HashMap<String, usize>,
    key: String,
    sentence: usize,
) {
    let at = *index.entry(key.clone()).or_insert_with(|| {
        list.push((key, Vec::new()));
        list.len() - 1
    });
    if list[at].1.last() != Some(&sentence) {
        list[at].1.push(sentence);
    }
}

/// Entries seen in at least `min` sentences, most sentences first, then first seen.
fn top(list: Vec<(String, Vec<usize>)>, min: usize, max: usize) -> Vec<(String, Vec<usize>)> {
    let mut list: Vec<(String, Vec<usize>)> =
        list.into_iter().filter(|(_, s)| s.len() >= min).collect();
    list.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.1[0].cmp(&b.1[0])));
    list.truncate(max);
    list
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sentences(texts: &[&str]) -> Vec<Sentence> {
        texts
            .iter()
            .map(|t| Sentence {
                speaker: None,
                header: None,
                text: (*t).to_owned(),
            })
            .collect()
    }

    #[test]
    fn plurals_fold_to_their_singular() {
        for (plural, one) in [
            ("plans", "plan"),
            ("tomatoes", "tomato"),
            ("boxes", "box"),
            ("matches", "match"),
            ("stories", "story"),
            ("shoes", "shoe"),
            ("business", "business"),
            ("news", "news"),
            ("houses", "house"),
        ] {
            assert_eq!(singular(plural), one);
        }
    }

    #[test]
    fn recurring_phrases_become_topics() {
        let s = sentences(&[
            "The hiring plan needs a budget.",
            "We reviewed the hiring plans yesterday.",
            "Is the hiring plan final?",
            "Sarah owns it.",
        ]);
        let topics = find(&s, &HashSet::new());
        assert_eq!(topics[0].name, "hiring plan");
        assert_eq!(topics[0].sentences, vec![0, 1, 2]);
        assert_eq!(topics[0].confidence, 7.0);
        assert!(
            topics
                .iter()
                .all(|t| t.name != "sarah" && t.name != "reviewed")
        );
    }

    #[test]
    fn overlapping_phrases_join_and_covered_words_drop() {
        let s = sentences(&[
            "The vendor contract renewal is due.",
            "Legal signed the vendor contract renewal.",
            "Send the contract.",
            "Where is the contract?",
        ]);
        let names: Vec<String> = find(&s, &HashSet::new())
            .into_iter()
            .map(|t| t.name)
            .collect();
        assert_eq!(names, vec!["vendor contract renewal", "contract"]);
    }

    #[test]
    fn single_words_need_three_sentences() {
        let s = sentences(&[
            "I love hiking.",
            "Hiking clears my head.",
            "We went hiking again, then kayaking.",
        ]);
        let topics = find(&s, &HashSet::new());
        assert_eq!(
            topics.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
            vec!["hiking"]
        );
        assert_eq!(topics[0].sentences, vec![0, 1, 2]);
        let s = sentences(&[
            "The garden needs water.",
            "My garden is small.",
            "I sold the garden tools.",
        ]);
        let topics = find(&s, &HashSet::new());
        assert_eq!(topics.len(), 1);
        assert_eq!(topics[0].name, "garden");
    }
}
