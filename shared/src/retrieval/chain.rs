//! The why- and when-routes: from a query's best-matching Sources along their `causal`
//! links to the Sources that caused them.
//!
//! A question of why something happened is about its cause; a question of when is
//! about the Source that told it first, which a later Source referring back to it
//! ("after the whole vet drama …") is linked to as its cause. So for a query whose
//! intent is `why` or `when`, the Sources that caused the best matches of the fused
//! ranking form one more list (`chain`), each scored by the relevance of the match it
//! explains times the link's confidence. It lifts them on top of their own relevance:
//! its weight (`retrieval.chain_weight`) adds to the mean of the other signals and is
//! not averaged in, so a ranking without chains is exactly what it was.

use std::collections::BTreeMap;

use super::Query;
use super::intent::Intent;
use super::rank::{Candidate, Fused, Signal, SignalList};
use crate::domain::SourceLinkKind;
use crate::retrieval::RetrievalResult;
use crate::services::Services;

/// The chain list of the first query asking why or when, from the best `seeds` of
/// `fused` (Sources); `None` when no query asks so, or nothing is linked.
pub(crate) async fn list(
    svc: &Services,
    queries: &[Query],
    fused: &[Fused],
) -> RetrievalResult<Option<SignalList>> {
    let Some(qi) = queries.iter().position(|q| {
        q.route
            .as_ref()
            .is_some_and(|r| matches!(r.reading.intent, Intent::Why | Intent::When))
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
    let mut causes: BTreeMap<String, Candidate> = BTreeMap::new();
    for link in links.iter().filter(|l| l.kind == SourceLinkKind::Causal) {
        let Some(&relevance) = seeds.get(link.to_key.as_str()) else {
            continue;
        };
        let score = relevance * link.confidence;
        let c = causes
            .entry(link.from_key.clone())
            .or_insert_with(|| Candidate::new(link.from_key.clone(), 0.0));
        c.via.push(link.to_key.clone());
        c.score = c.score.max(score);
    }
    if causes.is_empty() {
        return Ok(None);
    }
    let mut hits: Vec<Candidate> = causes.into_values().collect();
    hits.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.key.cmp(&b.key)));
    Ok(Some(SignalList {
        signal: Signal::Chain,
        query: qi,
        hits,
        floor: Some(0.0),
        in_period: false,
    }))
}
