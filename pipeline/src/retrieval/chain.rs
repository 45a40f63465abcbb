//! The why-route: from a query's best-matching Sources along their `causal` links, to
//! the Sources that caused them and those they caused.
//!
//! A question of why something happened is answered by its cause, and asked in the
//! words of either end: "Why did Paige buy another car?" matches the purchase, whose
//! cause (the old car broke down) was told sessions before, or the breakdown, whose
//! effect completes the answer. So for a query whose intent is `why`, the Sources linked
//! by cause and effect to the best matches of the fused ranking form one more list
//! (`chain`), each scored by the relevance of the match it is linked to times the
//! link's confidence. Only Sources the question's own search found are lifted: a link
//! reinforces a candidate, it never brings in one the question does not touch (so a
//! link inferred wrongly costs little). It lifts them on top of their own relevance: its weight
//! (`retrieval.chain_weight`) adds to the mean of the other signals and is not averaged
//! in, so a ranking without links is exactly what it was. And a Source the chain lifts
//! stops just below the seed it is linked to (`below_seeds`): the question asked about
//! the seed, so the seed keeps its place and its cause or effect follows it, ahead of
//! the weaker matches it passes.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::Query;
use super::intent::Intent;
use super::rank::{Candidate, Fused, Signal, SignalList};
use crate::retrieval::Recall;
use crate::retrieval::RetrievalResult;
use cosmo_shared::domain::SourceLinkKind;

/// The chain list of the first query asking why, from the best `chain_seeds` of
/// `fused` (Sources); `None` when no query asks why, or nothing is linked.
pub(crate) async fn list(
    r: &Recall<'_>,
    queries: &[Query],
    fused: &[Fused],
) -> RetrievalResult<Option<SignalList>> {
    let Some(qi) = queries.iter().position(|q| {
        q.route
            .as_ref()
            .is_some_and(|route| route.reading.intent == Intent::Why)
    }) else {
        return Ok(None);
    };
    let seeds: BTreeMap<&str, f64> = fused
        .iter()
        .filter(|f| f.relevance > 0.0)
        .take(r.retrieval.chain_seeds)
        .map(|f| (f.key.as_str(), f.relevance))
        .collect();
    if seeds.is_empty() {
        return Ok(None);
    }
    let keys: Vec<String> = seeds.keys().map(|k| (*k).to_owned()).collect();
    let links = r.graph.links.source_links(&keys).await?;
    // Only what the question's own search found is lifted: a link reinforces a
    // candidate, it does not bring in one the question does not touch.
    let found: BTreeSet<&str> = fused
        .iter()
        .filter(|f| f.relevance > 0.0)
        .map(|f| f.key.as_str())
        .collect();
    let mut linked: BTreeMap<String, Candidate> = BTreeMap::new();
    for link in links.iter().filter(|l| l.kind == SourceLinkKind::Causal) {
        for (seed, other) in [
            (&link.to_key, &link.from_key),
            (&link.from_key, &link.to_key),
        ] {
            let Some(&relevance) = seeds.get(seed.as_str()) else {
                continue;
            };
            if !found.contains(other.as_str()) {
                continue;
            }
            let c = linked
                .entry(other.clone())
                .or_insert_with(|| Candidate::new(other.clone(), 0.0));
            c.via.push(seed.clone());
            c.score = c.score.max(relevance * link.confidence);
        }
    }
    if linked.is_empty() {
        return Ok(None);
    }
    let mut hits: Vec<Candidate> = linked.into_values().collect();
    hits.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.key.cmp(&b.key)));
    Ok(Some(SignalList {
        signal: Signal::Chain,
        query: qi,
        hits,
        floor: Some(0.0),
        in_period: false,
    }))
}

/// Caps what the chain lifted: a Source listed by the chain ranks at best just below
/// the best seed it is linked to, as ranked before the chain (`unchained`), unless it
/// ranked higher on its own. Re-sorts `fused`.
pub(crate) fn below_seeds(fused: &mut [Fused], unchained: &[Fused]) {
    let before: HashMap<&str, f64> = unchained
        .iter()
        .map(|f| (f.key.as_str(), f.relevance))
        .collect();
    for f in fused.iter_mut() {
        let seeds = f
            .hits
            .iter()
            .filter(|h| h.signal == Signal::Chain)
            .flat_map(|h| &h.via)
            .filter_map(|seed| before.get(seed.as_str()).copied())
            .reduce(f64::max);
        let Some(seed) = seeds else { continue };
        let own = before.get(f.key.as_str()).copied().unwrap_or(0.0);
        // Just below the seed (a relative margin far below any real difference).
        let cap = own.max(seed * (1.0 - 1e-9));
        f.relevance = f.relevance.min(cap);
    }
    super::rank::by_relevance(fused);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retrieval::rank::{Fused, SignalHit};

    fn fused(key: &str, relevance: f64, chained_from: Option<&str>) -> Fused {
        Fused {
            key: key.into(),
            relevance,
            hits: chained_from
                .map(|seed| SignalHit {
                    signal: Signal::Chain,
                    query: 0,
                    rank: 1,
                    score: 0.7,
                    normalised: 1.0,
                    via: vec![seed.into()],
                    passage: None,
                    in_period: false,
                })
                .into_iter()
                .collect(),
        }
    }

    fn order(f: &[Fused]) -> Vec<&str> {
        f.iter().map(|f| f.key.as_str()).collect()
    }

    #[test]
    fn a_cause_lifted_by_the_chain_follows_its_seed_and_passes_weaker_matches() {
        let unchained = [
            fused("asked", 0.9, None),
            fused("other", 0.8, None),
            fused("weak", 0.5, None),
            fused("cause", 0.3, None),
        ];
        // The chain's bonus put the cause above everything.
        let mut after = vec![
            fused("cause", 0.3 + 0.24, Some("asked")),
            fused("asked", 0.9, None),
            fused("other", 0.8, None),
            fused("weak", 0.5, None),
        ];
        after[0].relevance = 1.2;
        below_seeds(&mut after, &unchained);
        assert_eq!(order(&after), ["asked", "cause", "other", "weak"]);
        // The seed and what the chain did not list keep their relevance.
        assert_eq!(after[0].relevance, 0.9);
        assert_eq!(after[2].relevance, 0.8);
        assert!(after[1].relevance < 0.9 && after[1].relevance > 0.8);
    }

    #[test]
    fn a_lift_smaller_than_the_gap_to_the_seed_is_kept_as_it_is() {
        let unchained = [fused("asked", 0.9, None), fused("cause", 0.3, None)];
        let mut after = vec![
            fused("asked", 0.9, None),
            fused("cause", 0.5, Some("asked")),
        ];
        below_seeds(&mut after, &unchained);
        assert_eq!(order(&after), ["asked", "cause"]);
        assert_eq!(after[1].relevance, 0.5);
    }
}
