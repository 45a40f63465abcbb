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
//! in, so a ranking without links is exactly what it was.

use std::collections::{BTreeMap, BTreeSet};

use super::Query;
use super::intent::Intent;
use super::rank::{Candidate, Fused, Signal, SignalList};
use crate::retrieval::RetrievalResult;
use cosmo_shared::domain::SourceLinkKind;
use cosmo_shared::services::Services;

/// The chain list of the first query asking why, from the best `chain_seeds` of
/// `fused` (Sources); `None` when no query asks why, or nothing is linked.
pub(crate) async fn list(
    svc: &Services,
    queries: &[Query],
    fused: &[Fused],
) -> RetrievalResult<Option<SignalList>> {
    let Some(qi) = queries.iter().position(|q| {
        q.route
            .as_ref()
            .is_some_and(|r| r.reading.intent == Intent::Why)
    }) else {
        return Ok(None);
    };
    let seeds: BTreeMap<&str, f64> = fused
        .iter()
        .filter(|f| f.relevance > 0.0)
        .take(svc.config.retrieval.chain_seeds)
        .map(|f| (f.key.as_str(), f.relevance))
        .collect();
    if seeds.is_empty() {
        return Ok(None);
    }
    let keys: Vec<String> = seeds.keys().map(|k| (*k).to_owned()).collect();
    let links = svc.graph.source_links(&keys).await?;
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
