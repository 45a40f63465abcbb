//! `POST /api/explore`: hybrid retrieval at one of three granularities, each result with
//! why it was returned; the access update of what is returned; a participant's lazy
//! extraction of the team Sources shown to them.

use std::collections::HashMap;

use super::rank::SignalHit;
use super::views::{
    Exploration, NESTED, NoteView, PassageView, Ranked, RelationshipView, SourceView, macro_view,
    node_view, storyline_view,
};
use super::{
    Loaded, RetrievalResult, Why, embed_queries, evidence, extract_for_participant, key_of, notes,
    rank_target, record_access,
};
use crate::retrieval::Recall;
use cosmo_shared::domain::input::read::{ExploreInput, Granularity};
use cosmo_shared::domain::{MemoryKind, SearchScope, Source, Target};
use cosmo_shared::llm::time::ground;

/// `POST /api/explore`.
pub async fn explore(
    recall: impl Into<Recall<'_>>,
    input: &ExploreInput,
    request_id: Option<String>,
) -> RetrievalResult<Exploration> {
    let r = &recall.into();
    let scope = SearchScope {
        user_id: input.user_id.clone(),
        include_archived: input.include_archived,
        since: input.since,
        until: input.until,
    };
    let default = r.retrieval.default_threshold;
    let embedded = embed_queries(
        r,
        &input.user_id,
        "explore",
        input
            .queries
            .iter()
            .map(|q| (q.query.clone(), q.threshold.unwrap_or(default)))
            .collect(),
    )
    .await?;
    let queries = embedded.queries;
    let mut out = Exploration {
        granularity: input.granularity as u8,
        degraded: embedded.degraded,
        routing: Vec::new(),
        sources: None,
        nodes: None,
        notes: None,
        facts: None,
        storylines: None,
        macros: None,
    };
    match input.granularity {
        Granularity::Micro => {
            // Archived Sources the queries match are answered by their insights.
            let (sources, through_archived) =
                super::archived::rank_sources(r, &scope, &queries, input.limit).await?;
            let nodes = rank_target(r, &scope, Target::Node, &queries, input.limit).await?;
            let facts = rank_target(r, &scope, Target::Fact, &queries, input.limit).await?;
            let shown: Vec<&Source> = sources
                .iter()
                .filter_map(|(_, _, l)| match l {
                    Loaded::Source(s) => Some(&**s),
                    _ => None,
                })
                .collect();
            extract_for_participant(r, &input.user_id, &shown, request_id).await;
            let found: Vec<(&str, &[SignalHit])> = sources
                .iter()
                .map(|(_, why, l)| match l {
                    Loaded::Source(s) => (s.entity_key.as_str(), why.signals.as_slice()),
                    _ => ("", &[][..]),
                })
                .collect();
            let mut passages = evidence::passages_of(r, &found, &queries).await?;
            let source_access = access_of(r, MemoryKind::Source, &sources).await?;
            let node_access = access_of(r, MemoryKind::Node, &nodes).await?;
            let fact_access = access_of(r, MemoryKind::Fact, &facts).await?;
            let mut views = Vec::new();
            for (score, why, item) in sources {
                if let Loaded::Source(s) = item {
                    let l = source_access.get(&s.entity_key).unwrap_or(&s.lifecycle);
                    views.push(Ranked {
                        score,
                        why,
                        item: SourceView {
                            state: l.state,
                            salience: l.salience,
                            event_time: s.event_time(),
                            // Relative times grounded against when it was said.
                            passage: passages.remove(&s.entity_key).map(|p| PassageView {
                                text: ground(&p.text, s.event_time()),
                                ..p
                            }),
                            content: input.include_content.then(|| s.content.clone()),
                            entity_key: s.entity_key,
                            user_id: s.user_id,
                            source_type: s.source_type,
                            context_type: s.context_type,
                            summary: s.summary,
                            keywords: s.keywords,
                            tags: s.tags,
                        },
                    });
                }
            }
            let node_relevance = notes::node_relevance(&nodes);
            let mut node_views = Vec::new();
            // The relationships shown with the nodes are returned memories too.
            let mut shown_relationships: Vec<String> = Vec::new();
            for (score, why, item) in nodes {
                if let Loaded::Node(n) = item {
                    let l = node_access.get(&n.entity_key).unwrap_or(&n.lifecycle);
                    let relationships = r
                        .graph
                        .views
                        .relationships_of(
                            &input.user_id,
                            std::slice::from_ref(&n.entity_key),
                            NESTED,
                        )
                        .await?
                        .into_iter()
                        // Archived relationships are left out unless asked for, like
                        // every other archived memory.
                        .filter(|rel| {
                            input.include_archived
                                || rel.lifecycle.state
                                    != cosmo_shared::domain::MemoryState::Archived
                        })
                        .map(RelationshipView::from)
                        .collect::<Vec<_>>();
                    for rel in &relationships {
                        if !shown_relationships.contains(&rel.rel_key) {
                            shown_relationships.push(rel.rel_key.clone());
                        }
                    }
                    node_views.push(Ranked {
                        score,
                        why,
                        item: node_view(&n, l, relationships),
                    });
                }
            }
            record_access(r, MemoryKind::Relationship, &shown_relationships).await?;
            out.facts = Some(
                facts
                    .into_iter()
                    .filter_map(|(score, why, item)| match item {
                        Loaded::Fact(mut f) => {
                            if let Some(l) = fact_access.get(&f.fact_id) {
                                f.lifecycle = l.clone();
                            }
                            Some(Ranked {
                                score,
                                why,
                                item: *f,
                            })
                        }
                        _ => None,
                    })
                    .collect(),
            );
            out.sources = Some(views);
            out.nodes = Some(node_views);
            out.notes =
                Some(explored_notes(r, &scope, input, &node_relevance, through_archived).await?);
        }
        Granularity::Meso => {
            let ranked = rank_target(r, &scope, Target::Storyline, &queries, input.limit).await?;
            let access = access_of(r, MemoryKind::Storyline, &ranked).await?;
            let mut views = Vec::new();
            for (score, why, item) in ranked {
                if let Loaded::Storyline(s) = item {
                    let l = access
                        .get(&s.storyline_id)
                        .cloned()
                        .unwrap_or(s.lifecycle.clone());
                    views.push(Ranked {
                        score,
                        why,
                        item: storyline_view(r, *s, &l).await?,
                    });
                }
            }
            out.storylines = Some(views);
        }
        Granularity::Macro => {
            let ranked = rank_target(r, &scope, Target::Macro, &queries, input.limit).await?;
            let access = access_of(r, MemoryKind::Macro, &ranked).await?;
            let mut views = Vec::new();
            for (score, why, item) in ranked {
                if let Loaded::Macro(m) = item {
                    let l = access
                        .get(&m.macro_id)
                        .cloned()
                        .unwrap_or(m.lifecycle.clone());
                    views.push(Ranked {
                        score,
                        why,
                        item: macro_view(r, *m, &l).await?,
                    });
                }
            }
            out.macros = Some(views);
        }
    }
    // After ranking: a period an anchoring event bounds is resolved by the search.
    out.routing = super::route::routes(&queries);
    Ok(out)
}

/// The notes matching the queries, with each insight's Sources, and the insights that
/// stand for the archived Sources the queries match (`through_archived`), best first.
async fn explored_notes(
    r: &Recall<'_>,
    scope: &SearchScope,
    input: &ExploreInput,
    node_relevance: &HashMap<String, f64>,
    through_archived: Vec<notes::RankedNote>,
) -> RetrievalResult<Vec<NoteView>> {
    let texts: Vec<&str> = input.queries.iter().map(|q| q.query.as_str()).collect();
    let mut all =
        notes::rank_notes_among(r, scope, &texts, node_relevance, input.limit * 4).await?;
    all.extend(through_archived);
    all.sort_by(|a, b| b.score.total_cmp(&a.score));
    // A sentence noted from several Sources (or on several nodes) is shown once, where
    // it ranks best.
    let mut seen = std::collections::HashSet::new();
    let ranked: Vec<notes::RankedNote> = all
        .into_iter()
        .filter(|ranked| seen.insert(ranked.note.text.trim().to_lowercase()))
        .take(input.limit)
        .collect();
    let derived: Vec<String> = ranked
        .iter()
        .flat_map(|ranked| ranked.note.derived_from.iter().cloned())
        .collect();
    let metas = if derived.is_empty() {
        Vec::new()
    } else {
        r.graph.views.source_metas(&derived).await?
    };
    Ok(ranked
        .into_iter()
        .map(|ranked| {
            let n = ranked.note;
            NoteView {
                score: ranked.score,
                derived_from: metas
                    .iter()
                    .filter(|m| n.derived_from.contains(&m.entity_key))
                    .cloned()
                    .collect(),
                text: if n.is_insight() {
                    n.text.clone()
                } else {
                    ground(&n.text, n.said_at)
                },
                note_id: n.note_id,
                owner_kind: n.owner_kind,
                owner_key: n.owner_key,
                owner: n.owner,
                date_added: n.date_added,
                said_at: n.said_at,
                source_id: n.source_id,
            }
        })
        .collect())
}

async fn access_of(
    r: &Recall<'_>,
    kind: MemoryKind,
    ranked: &[(f64, Why, Loaded)],
) -> RetrievalResult<HashMap<String, cosmo_shared::domain::Lifecycle>> {
    let keys: Vec<String> = ranked.iter().map(|(_, _, l)| key_of(l)).collect();
    record_access(r, kind, &keys).await
}
