//! Storylines and Macros: promotion of recurring anchors, and refresh of the ones new
//! Sources or Storylines made dirty.

use chrono::{DateTime, Duration, Utc};
use cosmo_shared::config::MaintenanceConfig;
use cosmo_shared::domain::{NewMacro, NewStoryline};
use cosmo_shared::graph::{HierarchyStore, StorylineRules, StorylineStore};
use cosmo_shared::ids;
use cosmo_shared::job_runs::RunReport;
use cosmo_shared::llm::SummaryTask;

use super::ModelCalls;
use crate::error::JobResult;

/// An anchor with enough Sources not yet in one of its Storylines gets a Storyline
/// with them: a 2–3 sentence description from their summaries, and its embedding.
pub async fn promote_storylines<G: HierarchyStore + StorylineStore + ?Sized>(
    graph: &G,
    models: &ModelCalls<'_>,
    m: &MaintenanceConfig,
    as_of: DateTime<Utc>,
) -> JobResult<RunReport> {
    let rules = StorylineRules {
        min_sources: m.storyline_min_sources,
        min_days: m.storyline_min_days,
        first_before: as_of - Duration::days(m.storyline_min_age_days),
    };
    let mut report = RunReport::default();
    for c in graph
        .storyline_promotion_candidates(&rules, m.storyline_limit)
        .await?
    {
        report.examined += 1;
        let summaries: Vec<String> = c.sources.iter().map(|s| s.summary.clone()).collect();
        let (description, embedding) = models
            .describe(&c.user_id, SummaryTask::Storyline, None, &summaries)
            .await?;
        let first = &c.sources[0].entity_key;
        graph
            .create_storyline(&NewStoryline {
                storyline_id: ids::storyline_id(&c.anchor_key, first),
                user_id: c.user_id.clone(),
                anchor_key: c.anchor_key.clone(),
                description,
                embedding: Some(embedding),
                source_keys: c.sources.iter().map(|s| s.entity_key.clone()).collect(),
                at: as_of,
            })
            .await?;
        report.changed += 1;
        tracing::info!(anchor = %c.anchor_name, user_id = %c.user_id, sources = c.sources.len(), "storyline promoted");
    }
    Ok(report)
}

/// Dirty Storylines (new Sources joined) are re-summarised from their latest Sources.
pub async fn refresh_storylines<G: HierarchyStore + ?Sized>(
    graph: &G,
    models: &ModelCalls<'_>,
    m: &MaintenanceConfig,
    as_of: DateTime<Utc>,
) -> JobResult<RunReport> {
    let since = as_of - Duration::days(m.storyline_window_days);
    let mut report = RunReport::default();
    for st in graph.dirty_storylines(since, m.storyline_limit).await? {
        report.examined += 1;
        let briefs = graph
            .storyline_briefs(&st.storyline_id, m.storyline_refresh_sources)
            .await?;
        let summaries: Vec<String> = briefs.into_iter().map(|b| b.summary).collect();
        let current = Some(st.description.as_str()).filter(|d| !d.is_empty());
        let (description, embedding) = models
            .describe(&st.user_id, SummaryTask::Storyline, current, &summaries)
            .await?;
        graph
            .refresh_storyline(&st.storyline_id, &description, Some(&embedding), as_of)
            .await?;
        report.changed += 1;
    }
    Ok(report)
}

/// An anchor with two or more active Storylines, first mentioned long enough ago, gets
/// a Macro grouping them: a 2–4 sentence overview from their descriptions.
pub async fn promote_macros<G: HierarchyStore + StorylineStore + ?Sized>(
    graph: &G,
    models: &ModelCalls<'_>,
    m: &MaintenanceConfig,
    as_of: DateTime<Utc>,
) -> JobResult<RunReport> {
    let first_before = as_of - Duration::days(m.macro_min_age_days);
    let mut report = RunReport::default();
    for c in graph
        .macro_promotion_candidates(first_before, m.macro_limit)
        .await?
    {
        report.examined += 1;
        let descriptions: Vec<String> =
            c.storylines.iter().map(|s| s.description.clone()).collect();
        let (description, embedding) = models
            .describe(&c.user_id, SummaryTask::Macro, None, &descriptions)
            .await?;
        graph
            .create_macro(&NewMacro {
                macro_id: ids::macro_id(&c.anchor_key),
                user_id: c.user_id.clone(),
                anchor_key: c.anchor_key.clone(),
                description,
                embedding: Some(embedding),
                storyline_ids: c
                    .storylines
                    .iter()
                    .map(|s| s.storyline_id.clone())
                    .collect(),
                at: as_of,
            })
            .await?;
        report.changed += 1;
        tracing::info!(anchor = %c.anchor_name, user_id = %c.user_id, storylines = c.storylines.len(), "macro promoted");
    }
    Ok(report)
}

/// Dirty Macros are re-summarised from all their Storylines' descriptions, in order.
pub async fn refresh_macros<G: HierarchyStore + ?Sized>(
    graph: &G,
    models: &ModelCalls<'_>,
    m: &MaintenanceConfig,
    as_of: DateTime<Utc>,
) -> JobResult<RunReport> {
    let mut report = RunReport::default();
    for mac in graph.dirty_macros(m.macro_limit).await? {
        report.examined += 1;
        let storylines = graph.macro_storylines(&mac.macro_id).await?;
        let descriptions: Vec<String> = storylines.into_iter().map(|s| s.description).collect();
        let current = Some(mac.description.as_str()).filter(|d| !d.is_empty());
        let (description, embedding) = models
            .describe(&mac.user_id, SummaryTask::Macro, current, &descriptions)
            .await?;
        graph
            .refresh_macro(&mac.macro_id, &description, Some(&embedding), as_of)
            .await?;
        report.changed += 1;
    }
    Ok(report)
}
