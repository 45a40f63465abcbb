//! The searches of one query: its three signal lists (vector, full text, graph) in a
//! scope, and the scope narrowed to the period it names, by dates or bounded by the
//! event it is anchored to.

use super::rank::{self, Candidate, Fused, Signal, SignalList};
use super::{Query, RetrievalResult, route, terms};
use crate::retrieval::Recall;
use cosmo_shared::domain::{SearchScope, Target};

/// `scope` narrowed to the period the query names: by dates, or bounded by the event
/// it is anchored to (found once a request, among the Sources in `scope`).
pub(super) async fn within(
    r: &Recall<'_>,
    scope: &SearchScope,
    q: &Query,
) -> RetrievalResult<Option<SearchScope>> {
    let Some(route) = &q.route else {
        return Ok(None);
    };
    if route.period.is_some() {
        return Ok(route.within(scope));
    }
    let (Some(anchor), Some(embedding)) = (&route.anchor, &q.anchor_embedding) else {
        return Ok(None);
    };
    let period = q
        .anchored
        .get_or_try_init(|| async {
            let n = r.retrieval.candidates_per_signal;
            // Where the question's own search finds its best Sources ...
            let among = search_sources(r, scope, q, &q.text_terms, n, ANCHOR_AMONG).await?;
            // ... the one that best matches the event's words is the event.
            let event = Query {
                embedding: embedding.clone(),
                ..Query::bare(q.threshold)
            };
            let by_event = fused_sources(r, scope, &event, &terms::terms(&anchor.event), n).await?;
            let matches: Vec<&Fused> = by_event
                .iter()
                .filter(|f| f.relevance > 0.0 && among.contains(&f.key))
                .collect();
            let Some(best) = matches.first().map(|f| f.relevance) else {
                return RetrievalResult::Ok(None);
            };
            // Later Sources speak of the event too ("since we moved in"): of those that
            // match it about as well as the best, the earliest told it.
            let mut at: Option<chrono::DateTime<chrono::Utc>> = None;
            for f in matches.iter().filter(|f| f.relevance >= ANCHOR_NEAR * best) {
                if let Some(source) = r.graph.sources.source(&f.key).await? {
                    let t = source.started_at.unwrap_or(source.lifecycle.created_at);
                    at = Some(at.map_or(t, |a| a.min(t)));
                }
            }
            let Some(at) = at else {
                return Ok(None);
            };
            Ok(Some(anchor.period(at)))
        })
        .await?;
    Ok(period.as_ref().and_then(|p| route::narrow(scope, p)))
}

/// How many of the question's best Sources the event it is anchored to is looked for
/// among: the question names whose event it is ("Maya's dog"), the anchor which one.
const ANCHOR_AMONG: usize = 10;

/// Of the Sources that match the event about as well as the best (this share of its
/// relevance), the earliest is taken as the event.
const ANCHOR_NEAR: f64 = 0.5;

/// The best `k` Sources by `q`'s embedding and `terms`, vector and full text fused.
async fn search_sources(
    r: &Recall<'_>,
    scope: &SearchScope,
    q: &Query,
    terms: &[String],
    n: usize,
    k: usize,
) -> RetrievalResult<Vec<String>> {
    Ok(fused_sources(r, scope, q, terms, n)
        .await?
        .into_iter()
        .take(k)
        .map(|f| f.key)
        .collect())
}

/// Sources by `q`'s embedding and `terms`, vector and full text fused, best first.
async fn fused_sources(
    r: &Recall<'_>,
    scope: &SearchScope,
    q: &Query,
    terms: &[String],
    n: usize,
) -> RetrievalResult<Vec<Fused>> {
    let (v, _) = vector_candidates(r, scope, Target::Source, q, n).await?;
    let t = if terms.is_empty() {
        Vec::new()
    } else {
        r.graph
            .search
            .text_search(scope, Target::Source, terms, n)
            .await?
            .into_iter()
            .map(|h| Candidate::new(h.key, h.score))
            .collect()
    };
    Ok(fuse_two(r, v, t))
}

/// The three signal lists of one query in `scope`: vector, full text, graph.
pub(super) async fn signal_lists(
    r: &Recall<'_>,
    scope: &SearchScope,
    target: Target,
    q: &Query,
    qi: usize,
    n: usize,
    in_period: bool,
) -> RetrievalResult<[SignalList; 3]> {
    let g = &r.graph;
    let (vector, vector_floor) = vector_candidates(r, scope, target, q, n).await?;
    let text = if q.text_terms.is_empty() {
        Vec::new()
    } else {
        g.search
            .text_search(scope, target, &q.text_terms, n)
            .await?
    };
    // The period pass starts from the same nodes as the whole search.
    let seeds = seed_nodes(r, scope, q, target, &vector, &text).await?;
    let graph = if seeds.is_empty() {
        Vec::new()
    } else {
        g.search.neighbours(scope, target, &seeds, n).await?
    };
    Ok([
        SignalList {
            signal: Signal::Vector,
            query: qi,
            floor: vector_floor,
            hits: vector,
            in_period,
        },
        SignalList {
            signal: Signal::Text,
            query: qi,
            floor: (text.len() < n).then_some(0.0),
            hits: text
                .into_iter()
                .map(|h| Candidate::new(h.key, h.score))
                .collect(),
            in_period,
        },
        SignalList {
            signal: Signal::Graph,
            query: qi,
            floor: (graph.len() < n).then_some(0.0),
            hits: graph
                .into_iter()
                .map(|h| Candidate {
                    via: h.via,
                    ..Candidate::new(h.key, h.score)
                })
                .collect(),
            in_period,
        },
    ])
}

/// The vector signal's candidates for one query (at most `limit`, at or over its
/// threshold) and their list's floor: the threshold when every memory over it is listed,
/// `None` when the list was cut.
async fn vector_candidates(
    r: &Recall<'_>,
    scope: &SearchScope,
    target: Target,
    q: &Query,
    limit: usize,
) -> RetrievalResult<(Vec<Candidate>, Option<f64>)> {
    if q.embedding.is_empty() {
        // Not embedded (the embedding model was unavailable): nothing matches.
        return Ok((Vec::new(), Some(q.threshold)));
    }
    let hits = r
        .graph
        .search
        .vector_search(scope, target, &q.embedding, limit)
        .await?;
    let found = hits.len();
    let kept: Vec<Candidate> = hits
        .into_iter()
        .filter(|h| h.score >= q.threshold)
        .map(|h| Candidate {
            passage: h.passage,
            ..Candidate::new(h.key, h.score)
        })
        .collect();
    let every = found < limit || kept.len() < found;
    Ok((kept, every.then_some(q.threshold)))
}

/// The query's best-matching nodes: where its graph signal starts. For nodes
/// themselves, the vector and text candidates just found; for every other kind, the
/// best `seed_nodes` nodes, searched once a request.
async fn seed_nodes(
    r: &Recall<'_>,
    scope: &SearchScope,
    q: &Query,
    target: Target,
    vector: &[Candidate],
    text: &[cosmo_shared::domain::Hit],
) -> RetrievalResult<Vec<String>> {
    let k = r.retrieval.seed_nodes;
    if k == 0 {
        return Ok(Vec::new());
    }
    if target == Target::Node {
        let text = text
            .iter()
            .map(|h| Candidate::new(h.key.clone(), h.score))
            .collect();
        return Ok(fuse_seeds(r, vector.to_vec(), text, k));
    }
    let seeds = q
        .seeds
        .get_or_try_init(|| async {
            let (v, _) = vector_candidates(r, scope, Target::Node, q, k).await?;
            let t = if q.text_terms.is_empty() {
                Vec::new()
            } else {
                r.graph
                    .search
                    .text_search(scope, Target::Node, &q.text_terms, k)
                    .await?
                    .into_iter()
                    .map(|h| Candidate::new(h.key, h.score))
                    .collect()
            };
            RetrievalResult::Ok(fuse_seeds(r, v, t, k))
        })
        .await?;
    Ok(seeds.clone())
}

/// The best `k` nodes of a vector and a text list, fused.
fn fuse_seeds(
    r: &Recall<'_>,
    vector: Vec<Candidate>,
    text: Vec<Candidate>,
    k: usize,
) -> Vec<String> {
    fuse_two(r, vector, text)
        .into_iter()
        .take(k)
        .map(|f| f.key)
        .collect()
}

/// A vector and a text list fused, best first.
fn fuse_two(r: &Recall<'_>, vector: Vec<Candidate>, text: Vec<Candidate>) -> Vec<Fused> {
    let as_list = |signal, hits: Vec<Candidate>| SignalList {
        signal,
        query: 0,
        floor: None,
        hits,
        in_period: false,
    };
    rank::fuse(
        &[as_list(Signal::Vector, vector), as_list(Signal::Text, text)],
        1,
        &rank::Weights::configured(r.retrieval),
    )
}
