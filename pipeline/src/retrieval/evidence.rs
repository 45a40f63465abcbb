//! The evidence a returned Source carries: the passage of its content that best matches
//! the queries, so an agent sees what was said, not only a summary.
//!
//! A passage is chosen the way the Source was found: the passage the vector signal
//! scored it by counts with the Source's normalised vector score, and each passage's
//! share of the queries' words (matched on their stems, as the full-text index does; a
//! verb of a question asked in the past also by the past forms searched for it,
//! `tense.rs`) counts with its normalised text score. Ties go to the earlier passage.

use std::collections::HashMap;

use super::rank::{Signal, SignalHit};
use super::{PassageView, Query, RetrievalResult, tense};
use crate::retrieval::Recall;
use cosmo_shared::domain::SourcePassage;

/// The best passage of each of these Sources (keys with their explanation), by key;
/// Sources without passages are left out. One store call.
pub(crate) async fn passages_of(
    r: &Recall<'_>,
    found: &[(&str, &[SignalHit])],
    queries: &[Query],
) -> RetrievalResult<HashMap<String, PassageView>> {
    if found.is_empty() {
        return Ok(HashMap::new());
    }
    let keys: Vec<String> = found.iter().map(|(k, _)| (*k).to_owned()).collect();
    let mut by_source: HashMap<String, Vec<SourcePassage>> = HashMap::new();
    for p in r.graph.views.passages(&keys).await? {
        by_source.entry(p.source_key.clone()).or_default().push(p);
    }
    let terms: Vec<Vec<String>> = queries.iter().flat_map(word_groups).collect();
    Ok(found
        .iter()
        .filter_map(|(key, hits)| {
            let best = best(by_source.get(*key)?, hits, &terms)?;
            Some((
                (*key).to_owned(),
                PassageView {
                    ordinal: best.ordinal,
                    text: best.text.clone(),
                },
            ))
        })
        .collect())
}

/// A query's words, each with the past forms searched for it, stemmed.
pub(crate) fn word_groups(q: &Query) -> impl Iterator<Item = Vec<String>> + '_ {
    q.terms.iter().map(|t| {
        let mut group = vec![stem(t)];
        group.extend(
            tense::past_of(t)
                .iter()
                .filter(|f| q.text_terms.iter().any(|s| s == *f))
                .map(|f| stem(f)),
        );
        group
    })
}

/// The passage to show for a Source found by `hits`, given the queries' word groups.
fn best<'a>(
    passages: &'a [SourcePassage],
    hits: &[SignalHit],
    terms: &[Vec<String>],
) -> Option<&'a SourcePassage> {
    let strongest = |signal: Signal| {
        hits.iter()
            .filter(|h| h.signal == signal)
            .max_by(|a, b| a.normalised.total_cmp(&b.normalised))
    };
    let vector = strongest(Signal::Vector);
    // A text match with nothing left after normalisation still says the words are there.
    let text_weight = strongest(Signal::Text).map_or(0.0, |h| h.normalised.max(0.1));
    let vector_weight = vector.map_or(0.0, |h| h.normalised.max(0.1));
    let vector_passage = vector.and_then(|h| h.passage);
    let score = |p: &SourcePassage| {
        let mut s = text_weight * coverage(&p.text, terms);
        if vector_passage == Some(p.ordinal) {
            s += vector_weight;
        }
        s
    };
    let mut best: Option<(&SourcePassage, f64)> = None;
    for p in passages {
        let s = score(p);
        if best.is_none_or(|(_, b)| s > b) {
            best = Some((p, s));
        }
    }
    best.map(|(p, _)| p)
}

/// The share of `terms` (groups of stemmed forms of a word) with a form among the
/// text's words.
fn coverage(text: &str, terms: &[Vec<String>]) -> f64 {
    if terms.is_empty() {
        return 0.0;
    }
    let words: Vec<String> = text
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .map(|w| stem(&w.to_lowercase()))
        .collect();
    let found = terms
        .iter()
        .filter(|forms| forms.iter().any(|f| words.contains(f)))
        .count();
    found as f64 / terms.len() as f64
}

/// A crude English stem: enough to match "adopted" with "adopt" and "dogs" with "dog".
pub(crate) fn stem(word: &str) -> String {
    let w = word.trim_matches('\'').to_lowercase();
    for suffix in ["ing", "ed", "es", "s", "ly"] {
        if let Some(base) = w.strip_suffix(suffix)
            && base.chars().count() >= 3
        {
            return base.to_owned();
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    fn passage(ordinal: u32, text: &str) -> SourcePassage {
        SourcePassage {
            source_key: "s".into(),
            ordinal,
            text: text.into(),
        }
    }

    fn hit(signal: Signal, normalised: f64, passage: Option<u32>) -> SignalHit {
        SignalHit {
            signal,
            query: 0,
            rank: 1,
            score: 1.0,
            normalised,
            via: Vec::new(),
            passage,
            in_period: false,
        }
    }

    fn terms(t: &[&str]) -> Vec<Vec<String>> {
        t.iter().map(|t| vec![stem(t)]).collect()
    }

    #[test]
    fn the_passage_with_the_queries_words_is_shown_for_a_text_match() {
        let ps = [
            passage(0, "Maya: Hi! How was your week?"),
            passage(1, "Maya: We adopted a rescue dog named Biscuit."),
            passage(2, "Maya: The dogs at the shelter were sweet."),
        ];
        let best = best(
            &ps,
            &[hit(Signal::Text, 1.0, None)],
            &terms(&["adopt", "dog"]),
        );
        assert_eq!(best.unwrap().ordinal, 1);
    }

    #[test]
    fn the_vector_passage_is_shown_for_a_vector_match() {
        let ps = [passage(0, "dog dog dog"), passage(1, "We took in a puppy.")];
        let hits = [
            hit(Signal::Vector, 1.0, Some(1)),
            hit(Signal::Text, 0.2, None),
        ];
        assert_eq!(best(&ps, &hits, &terms(&["dog"])).unwrap().ordinal, 1);
        // Without a signal that points anywhere: the first passage.
        assert_eq!(best(&ps, &[], &terms(&["cat"])).unwrap().ordinal, 0);
        assert!(best(&[], &hits, &terms(&["dog"])).is_none());
    }

    #[test]
    fn stems_match_inflections() {
        assert_eq!(stem("adopted"), stem("adopt"));
        assert_eq!(stem("Dogs"), "dog");
        assert_eq!(
            coverage("We ADOPTED two dogs.", &terms(&["adopt", "dog", "cat"])),
            2.0 / 3.0
        );
    }

    #[test]
    fn a_past_form_searched_for_a_verb_counts_as_the_verb() {
        let flew = vec![stem("fly"), stem("flew"), stem("flown")];
        assert_eq!(
            coverage("We flew to Lisbon in May.", &[flew, vec![stem("lisbon")]]),
            1.0
        );
    }
}
