//! Causal links from explicit markers. A sentence of the later Source that gives a
//! reason names its cause in a clause: the words after the marker ("after the whole vet
//! drama", "because of the flood"), or before it for markers that follow their cause
//! ("…, so we cancelled", "that's why"). The earlier Source that clause points to is the
//! one that holds its distinctive words: each word counts 1 / (the number of the earlier
//! Sources that hold it), so a word every one of them has (a name, small talk) decides
//! nothing. The best Source must beat the runner-up and score at least what its marker
//! asks:
//!
//! * a cause named as something already known — a causal preposition before a definite
//!   article or a possessive ("after the", "because of my", "due to the", "since the",
//!   "now that") — needs [`MIN_SCORE`]: the phrase points back by itself;
//! * a bare "because", "so" or "that's why" usually gives a reason told in the same
//!   breath ("I'm tired because I ran"), so it needs twice that, and "so" needs an
//!   effect of two content words at least ("…, so yes" names none).
//!
//! A sentence names at most one cause.

use std::collections::BTreeSet;

use super::text::{content_words, split_sentences};
use crate::FoundCause;

/// Causal prepositions; a cause after them that starts with a [`DEFINITE`] word points
/// back to something already told.
const PREPOSITIONS: &[&str] = &[
    "as a result of",
    "in the wake of",
    "because of",
    "ever since",
    "thanks to",
    "after all",
    "due to",
    "after",
    "since",
];

const DEFINITE: &[&str] = &[
    "the", "that", "this", "those", "my", "his", "her", "our", "their",
];

/// Markers whose cause follows them, with no definite reference required.
const BARE_AFTER: &[&str] = &["now that", "because", "'cause"];

/// Markers whose cause comes before them in the sentence.
/// ("so" only after a comma: a bare "so" is as often "so hot", "so weird".)
const BEFORE: &[&str] = &["that's why", "that is why", "which is why", ", so "];

/// What a cause named as something already known must score (see the module comment).
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
            let Some((clause, needs)) = cause_clause(&sentence) else {
                continue;
            };
            let words: BTreeSet<String> = content_words(&clause).into_iter().collect();
            let Some(best) = best_match(&words, &vocab, needs) else {
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

/// The clause of `sentence` that names a cause, if a marker says it has one, and what
/// the Source it points to must score.
fn cause_clause(sentence: &str) -> Option<(String, f64)> {
    let lower = format!(" {} ", sentence.to_lowercase().replace('’', "'"));
    // Where `marker` starts as a whole word (or phrase), the first such place.
    let at = |marker: &str| -> Option<usize> {
        lower.match_indices(marker).map(|(i, _)| i).find(|&i| {
            let before = lower[..i].chars().next_back();
            let after = lower[i + marker.len()..].chars().next();
            (marker.starts_with([' ', ',']) || before.is_none_or(|c| !c.is_alphanumeric()))
                && (marker.ends_with(' ') || after.is_none_or(|c| !c.is_alphanumeric()))
        })
    };
    for p in PREPOSITIONS {
        let Some(i) = at(p) else { continue };
        let rest = lower[i + p.len()..].trim_start();
        let first = rest
            .split(|c: char| !c.is_alphanumeric() && c != '\'')
            .next();
        if first.is_some_and(|w| DEFINITE.contains(&w)) {
            return Some((rest.to_owned(), MIN_SCORE));
        }
    }
    for m in BARE_AFTER {
        if let Some(i) = at(m) {
            return Some((lower[i + m.len()..].to_owned(), 2.0 * MIN_SCORE));
        }
    }
    for m in BEFORE {
        if let Some(i) = at(m) {
            let effect = &lower[i + m.len()..];
            if m.contains("so") && content_words(effect).len() < 2 {
                continue;
            }
            return Some((lower[..i].to_owned(), 2.0 * MIN_SCORE));
        }
    }
    None
}

/// The earlier Source the clause's words point to, scoring at least `needs` (see the
/// module comment).
fn best_match(words: &BTreeSet<String>, vocab: &[BTreeSet<String>], needs: f64) -> Option<usize> {
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
    (scores[best] >= needs && scores[best] > runner_up).then_some(best)
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
    fn a_reason_told_in_the_same_breath_needs_more_than_one_shared_word() {
        let earlier = texts(&[
            "Ana: I went for a long run by the river this morning.",
            "Ana: pottery class was fun, I made a wonky bowl.",
        ]);
        // One word in common, and no definite reference: a reason of its own.
        assert!(find_causes("Ana: I'm tired because I ran late.", &earlier).is_empty());
        assert!(find_causes("Ana: the river was pretty, so yes.", &earlier).is_empty());
        // A temporal "after" with nothing already known is no cause.
        assert!(find_causes("Ana: I napped after lunch by the river.", &earlier).is_empty());
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
