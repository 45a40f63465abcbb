//! Causal links from explicit markers. A sentence of the later Source that gives a
//! reason ("because of the move", "after the whole vet drama", "…, so we cancelled",
//! "that's why") names its cause in a clause: the words after the marker, or before it
//! for markers that follow their cause ("so", "that's why"). The earlier Source that
//! clause points to is the one that holds its distinctive words: each word counts
//! 1 / (the number of the earlier Sources that hold it), so a word every one of them has
//! (a name, small talk) decides nothing. The best Source must score at least
//! [`MIN_SCORE`] and beat the runner-up; a sentence names at most one cause.

use std::collections::BTreeSet;

use super::text::{content_words, split_sentences};
use crate::llm::FoundCause;

/// Markers whose cause follows them, longest first.
const CAUSE_AFTER: &[&str] = &[
    "as a result of",
    "in the wake of",
    "because of",
    "ever since",
    "after all the",
    "after what",
    "after that",
    "after the",
    "thanks to",
    "because",
    "due to",
    "since the",
    "'cause",
    "cause of",
];

/// Markers whose cause comes before them in the sentence.
const CAUSE_BEFORE: &[&str] = &[
    "that's why",
    "that is why",
    "which is why",
    "as a result",
    "led to",
    ", so ",
    " so now ",
    " so we ",
    " so i ",
];

/// What a cause must score (see the module comment).
pub const MIN_SCORE: f64 = 1.0;

/// The causes `effect` names among `earlier` (nearest first), one per marked sentence.
pub fn find_causes(effect: &str, earlier: &[String]) -> Vec<FoundCause> {
    if earlier.is_empty() {
        return Vec::new();
    }
    let vocab: Vec<BTreeSet<String>> = earlier
        .iter()
        .map(|t| content_words(t).into_iter().collect())
        .collect();
    let mut found: Vec<FoundCause> = Vec::new();
    for line in effect.lines() {
        for sentence in split_sentences(line) {
            let Some(clause) = cause_clause(&sentence) else {
                continue;
            };
            let words: BTreeSet<String> = content_words(&clause).into_iter().collect();
            let Some(best) = best_match(&words, &vocab) else {
                continue;
            };
            if !found.iter().any(|f| f.earlier == best) {
                found.push(FoundCause {
                    earlier: best,
                    sentence: sentence.trim().to_owned(),
                });
            }
        }
    }
    found
}

/// The clause of `sentence` that names a cause, if a marker says it has one.
fn cause_clause(sentence: &str) -> Option<String> {
    let lower = format!(" {} ", sentence.to_lowercase().replace('’', "'"));
    let at_word = |m: &str| {
        lower.match_indices(m).find(|(i, _)| {
            let before = lower[..*i].chars().next_back();
            m.starts_with([' ', ',']) || before.is_none_or(|c| !c.is_alphanumeric())
        })
    };
    for m in CAUSE_AFTER {
        if let Some((i, _)) = at_word(m) {
            let rest = &lower[i + m.len()..];
            if rest.chars().next().is_some_and(char::is_alphanumeric) {
                continue; // inside a longer word
            }
            return Some(rest.to_owned());
        }
    }
    CAUSE_BEFORE
        .iter()
        .find_map(|m| at_word(m).map(|(i, _)| lower[..i].to_owned()))
}

/// The earlier Source the clause's words point to (see the module comment).
fn best_match(words: &BTreeSet<String>, vocab: &[BTreeSet<String>]) -> Option<usize> {
    let mut scores = vec![0.0; vocab.len()];
    for w in words {
        let holders: Vec<usize> = (0..vocab.len()).filter(|&i| vocab[i].contains(w)).collect();
        for &i in &holders {
            scores[i] += 1.0 / holders.len() as f64;
        }
    }
    let mut order: Vec<usize> = (0..scores.len()).collect();
    // Best first; the nearest of equals first (`earlier` is nearest first).
    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
    let best = order[0];
    let runner_up = order.get(1).map_or(0.0, |&i| scores[i]);
    (scores[best] >= MIN_SCORE && scores[best] > runner_up).then_some(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(t: &[&str]) -> Vec<String> {
        t.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn a_reason_given_later_links_to_the_source_that_told_it() {
        let earlier = texts(&[
            "Leo: how was the weekend? Maya: quiet, we repainted the kitchen.",
            "Maya: rough week. Biscuit ate half a sock and we ended up at the emergency vet at 2am.",
            "Maya: we adopted a rescue pup, his name is Biscuit.",
        ]);
        let effect = "Maya: we started obedience classes with Biscuit on thursday nights, \
                      after the whole vet drama he has to learn to leave socks alone.";
        let found = find_causes(effect, &earlier);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].earlier, 1);
        assert!(found[0].sentence.contains("vet drama"));
    }

    #[test]
    fn a_cause_before_so_is_found_too() {
        let earlier = texts(&[
            "Ana: the landlord says no pets in the building, effective next month.",
            "Ana: pottery class was fun, I made a wonky bowl.",
        ]);
        let effect = "Ana: with the landlord and his no pets rule, so we found the cat a new home.";
        let found = find_causes(effect, &earlier);
        assert_eq!(found.iter().map(|f| f.earlier).collect::<Vec<_>>(), [0]);
    }

    #[test]
    fn no_marker_or_no_distinctive_word_names_no_cause() {
        let earlier = texts(&[
            "Maya: Biscuit ate a sock, we went to the emergency vet.",
            "Maya: the vet bill was huge.",
        ]);
        // Related, but nothing says one led to the other.
        assert!(find_causes("Maya: Biscuit is doing great at the vet now.", &earlier).is_empty());
        // A marker whose clause both earlier Sources share equally decides nothing.
        assert!(find_causes("Maya: we stayed in because of the vet.", &earlier).is_empty());
        assert!(find_causes("Maya: because of the vet.", &[]).is_empty());
    }
}
