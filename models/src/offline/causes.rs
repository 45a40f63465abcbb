//! Causal links from explicit back-references. A sentence of the later Source names an
//! earlier event as its cause with a causal preposition and a definite noun phrase —
//! "after the whole vet drama", "because of the flood", "since the arm", "now that my
//! knee is fixed": the phrase points back to something already told. The earlier Source
//! that phrase points to is the one that holds its distinctive words: each word counts
//! 1 / (the number of the earlier Sources that hold it), so a word every one of them has
//! (a name, small talk) decides nothing. The best Source must score at least
//! [`MIN_SCORE`] and beat the runner-up.
//!
//! What is not a link to an earlier Source:
//!
//! * a reason given in the same breath — "I'm tired because I ran", "I never learned to
//!   swim, so I'm taking lessons", "that's why": the cause is told right there, in this
//!   Source, not in an earlier one (a bare "because" counts only before a definite
//!   phrase, "because the landlord…");
//! * an order, not a cause — "after the second one", "since the first time";
//! * a phrase this Source explains itself — "because of the dent" in a Source that
//!   described the dent: its words count only where this Source does not hold them
//!   outside the sentence.
//!
//! A sentence names at most one cause.

use std::collections::BTreeSet;

use super::text::{content_words, split_sentences};
use crate::FoundCause;

/// Causal prepositions, and "because"/"now that": a cause after them that starts with a
/// [`DEFINITE`] word points back to something already told.
const MARKERS: &[&str] = &[
    "as a result of",
    "in the wake of",
    "because of",
    "ever since",
    "thanks to",
    "now that",
    "because",
    "'cause",
    "due to",
    "after",
    "since",
];

const DEFINITE: &[&str] = &[
    "the", "that", "this", "those", "my", "his", "her", "our", "their",
];

/// Words that make "after the …" an order rather than an event: "after the second one".
const SEQUENCE: &[&str] = &[
    "first", "second", "third", "last", "next", "other", "one", "same", "rest", "end",
];

/// At most this many words of the phrase after the definite word are read (the phrase
/// is cut at punctuation before that).
const PHRASE_WORDS: usize = 6;

/// What the Source a phrase points to must score (see the module comment).
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
    let sentences: Vec<String> = effect.lines().flat_map(split_sentences).collect();
    let mut found: Vec<FoundCause> = Vec::new();
    for (i, sentence) in sentences.iter().enumerate() {
        let Some(phrase) = cause_phrase(sentence) else {
            continue;
        };
        // What this Source holds outside the sentence it explains itself.
        let elsewhere: BTreeSet<String> = sentences
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .flat_map(|(_, s)| content_words(s))
            .collect();
        let words: BTreeSet<String> = content_words(&phrase)
            .into_iter()
            .filter(|w| !elsewhere.contains(w))
            .collect();
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
    found
}

/// The definite phrase a marker of `sentence` names as a cause: the words after the
/// definite word, up to punctuation, at most [`PHRASE_WORDS`].
fn cause_phrase(sentence: &str) -> Option<String> {
    let lower = format!(" {} ", sentence.to_lowercase().replace('’', "'"));
    // Where `marker` starts as a whole word (or phrase), each such place.
    let places = |marker: &'static str| {
        let lower = &lower;
        lower
            .match_indices(marker)
            .map(|(i, _)| i)
            .filter(move |&i| {
                let before = lower[..i].chars().next_back();
                let after = lower[i + marker.len()..].chars().next();
                before.is_none_or(|c| !c.is_alphanumeric())
                    && after.is_none_or(|c| !c.is_alphanumeric())
            })
    };
    for m in MARKERS {
        for i in places(m) {
            let rest = lower[i + m.len()..].trim_start();
            let mut words = rest
                .split(|c: char| c.is_whitespace())
                .take_while(|w| !w.is_empty());
            let Some(first) = words.next() else { continue };
            let first = first.trim_end_matches(|c: char| !c.is_alphanumeric());
            if !DEFINITE.contains(&first) {
                continue;
            }
            // The phrase: up to punctuation, at most PHRASE_WORDS words.
            let after_definite = &rest[first.len()..];
            let clause = after_definite
                .split([',', ';', ':', '(', ')', '"', '.', '!', '?', '—', '–'])
                .next()
                .unwrap_or("");
            let phrase: Vec<&str> = clause.split_whitespace().take(PHRASE_WORDS).collect();
            if phrase.first().is_none_or(|w| SEQUENCE.contains(w)) {
                continue;
            }
            return Some(phrase.join(" "));
        }
    }
    None
}

/// The earlier Source the phrase's words point to (see the module comment).
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
    fn a_definite_phrase_after_because_or_since_points_back_too() {
        let earlier = texts(&[
            "Ana: the landlord says no pets in the building, effective next month.",
            "Ana: pottery class was fun, I made a wonky bowl.",
        ]);
        let effect = "Ana: we found the cat a new home because the landlord won't budge.";
        let found = find_causes(effect, &earlier);
        assert_eq!(found.iter().map(|f| f.earlier).collect::<Vec<_>>(), [0]);
        let effect = "Ana: first bowl that didn't crack since the pottery class!";
        let found = find_causes(effect, &earlier);
        assert_eq!(found.iter().map(|f| f.earlier).collect::<Vec<_>>(), [1]);
    }

    #[test]
    fn a_reason_given_before_so_is_told_here_not_earlier() {
        let earlier = texts(&[
            "Ana: the landlord says no pets in the building, effective next month.",
            "Ana: pottery class was fun, I made a wonky bowl.",
        ]);
        for effect in [
            "Ana: with the landlord and his no pets rule, so we found the cat a new home.",
            "Ana: the landlord won't budge on pets, that's why the cat moved out.",
        ] {
            assert!(find_causes(effect, &earlier).is_empty(), "{effect}");
        }
    }

    #[test]
    fn an_order_or_a_phrase_this_source_explains_is_no_link() {
        let earlier = texts(&[
            "Maya: the car dealer had a blue hatchback with a dent in the door.",
            "Maya: the second game of the season is on saturday.",
        ]);
        // "after the second one" orders, it does not give a reason.
        assert!(find_causes("Maya: she scored after the second one.", &earlier).is_empty());
        // The dent is described in this very Source: it explains itself.
        let effect = "Maya: bought the hatchback, it has a dent. \
                      Got it cheaper because of the dent.";
        assert!(find_causes(effect, &earlier).is_empty());
        // Without the description here, the phrase points back.
        let effect = "Maya: bought the hatchback. Got it cheaper because of the dent.";
        let found = find_causes(effect, &earlier);
        assert_eq!(found.iter().map(|f| f.earlier).collect::<Vec<_>>(), [0]);
    }

    #[test]
    fn a_reason_told_in_the_same_breath_is_no_link() {
        let earlier = texts(&[
            "Ana: I went for a long run by the river this morning.",
            "Ana: pottery class was fun, I made a wonky bowl.",
        ]);
        // No definite reference: a reason of its own, told here.
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
