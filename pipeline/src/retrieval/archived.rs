//! Archived Sources are out of default retrieval, but what they said is not lost: the
//! insight consolidation wrote in their place stands for them. A default search ranks
//! the archived Sources with the rest ([`rank_sources`]) and returns, instead of each
//! archived one the queries match, the insights derived from it, scored by how well its
//! Source matched. So an archived Source is found through its insight by its own words
//! and passages, as well as it was found before it was archived, and the insight comes
//! with its `derived_from` Sources. Archived Sources are never returned, nor recalled:
//! reading them does not restore them.

use super::notes::RankedNote;
use super::{Loaded, Query, RetrievalResult, Why, rank_target};
use crate::retrieval::Recall;
use cosmo_shared::domain::{MemoryState, SearchScope, Target};

/// Sources ranked for the queries, best first (at most `limit`), and the insights that
/// stand for the archived Sources they match, best first. With `include_archived` the
/// archived Sources are returned as Sources and no insight stands in.
pub(crate) async fn rank_sources(
    r: &Recall<'_>,
    scope: &SearchScope,
    queries: &[Query],
    limit: usize,
) -> RetrievalResult<(Vec<(f64, Why, Loaded)>, Vec<RankedNote>)> {
    if scope.include_archived {
        let sources = rank_target(r, scope, Target::Source, queries, limit).await?;
        return Ok((sources, Vec::new()));
    }
    let wide = SearchScope {
        include_archived: true,
        ..scope.clone()
    };
    let ranked = rank_target(r, &wide, Target::Source, queries, 2 * limit).await?;
    let best = ranked.iter().map(|(s, _, _)| *s).fold(0.0, f64::max);
    let (mut sources, mut archived) = (Vec::new(), Vec::new());
    for (score, why, item) in ranked {
        match &item {
            Loaded::Source(s) if s.lifecycle.state == MemoryState::Archived => {
                archived.push((s.entity_key.clone(), score));
            }
            _ if sources.len() < limit => sources.push((score, why, item)),
            _ => {}
        }
    }
    if archived.is_empty() {
        return Ok((sources, Vec::new()));
    }
    let keys: Vec<String> = archived.iter().map(|(k, _)| k.clone()).collect();
    let found = r
        .graph
        .notes
        .insights_of(&scope.user_id, &keys, r.clock.now())
        .await?;
    let mut insights: Vec<RankedNote> = found
        .into_iter()
        .map(|note| {
            let matched = archived
                .iter()
                .filter(|(k, _)| note.derived_from.contains(k))
                .map(|(_, s)| *s)
                .fold(0.0, f64::max);
            let relevance = if best > 0.0 { matched / best } else { 0.0 };
            RankedNote {
                score: 1.0 + relevance,
                text: 0.0,
                owner: relevance,
                note,
            }
        })
        .collect();
    insights.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| a.note.owner_key.cmp(&b.note.owner_key))
            .then_with(|| a.note.note_id.cmp(&b.note.note_id))
    });
    insights.truncate(limit);
    Ok((sources, insights))
}
