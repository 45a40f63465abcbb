//! `infer-causal-links` (nightly): looks for the causes of each Source that newly
//! joined its thread (or had a Source arrive just before it), among the
//! `maintenance.causal_window` Sources before it, with the `causes` model (the offline
//! one reads explicit markers, an OpenAI-compatible one answers in a schema). Each
//! cause found becomes a `causal` link with `maintenance.causal_confidence`, the
//! model's name and the sentence that names the cause. A Source is marked looked at in
//! the same transaction as its links, so a re-run after an interruption resumes with
//! the Sources still pending and never writes a link twice.

use chrono::{DateTime, Utc};
use cosmo_shared::config::MaintenanceConfig;
use cosmo_shared::domain::{NewCausalLink, Source};
use cosmo_shared::graph::{LinkStore, SourceStore};
use cosmo_shared::job_runs::RunReport;

use super::ModelCalls;
use crate::error::JobResult;

/// Infers for `as_of` (the links' creation time). The report: `examined`, the Sources
/// looked at; `changed`, the links written; `details.with_causes`, the Sources that got
/// at least one.
pub async fn run<G: LinkStore + SourceStore + ?Sized>(
    graph: &G,
    models: &ModelCalls<'_>,
    m: &MaintenanceConfig,
    as_of: DateTime<Utc>,
) -> JobResult<RunReport> {
    let mut report = RunReport::default();
    let mut after: Option<String> = None;
    'pages: while (report.examined as usize) < m.causal_limit {
        let room = m.causal_limit - report.examined as usize;
        let page = graph
            .causal_candidates(
                after.as_deref(),
                m.causal_window,
                m.causal_batch_size.min(room),
            )
            .await?;
        if page.is_empty() {
            break;
        }
        for candidate in page {
            after = Some(candidate.effect_key.clone());
            report.examined += 1;
            let links = causes(
                graph,
                models,
                m.causal_confidence,
                &candidate.effect_key,
                &candidate.user_id,
                &candidate.earlier,
            )
            .await?;
            let written = graph
                .save_causal(&candidate.effect_key, &links, as_of)
                .await?;
            report.changed += written as i64;
            if !links.is_empty() {
                report.add("with_causes", 1);
            }
            if report.examined as usize >= m.causal_limit {
                break 'pages;
            }
        }
    }
    Ok(report)
}

/// The causal links the model finds for one Source; none when it or every earlier
/// Source is gone.
async fn causes<G: SourceStore + ?Sized>(
    graph: &G,
    models: &ModelCalls<'_>,
    confidence: f64,
    effect_key: &str,
    user_id: &str,
    earlier_keys: &[String],
) -> JobResult<Vec<NewCausalLink>> {
    let Some(effect) = graph.source(effect_key).await? else {
        return Ok(Vec::new());
    };
    let mut keys = Vec::new();
    let mut texts = Vec::new();
    for key in earlier_keys {
        if let Some(source) = graph.source(key).await? {
            keys.push(key.clone());
            texts.push(text_of(&source));
        }
    }
    if keys.is_empty() {
        return Ok(Vec::new());
    }
    let (model, found) = models
        .find_causes(user_id, &text_of(&effect), &texts)
        .await?;
    Ok(found
        .into_iter()
        .filter_map(|f| {
            Some(NewCausalLink {
                cause_key: keys.get(f.earlier)?.clone(),
                effect_key: effect_key.to_owned(),
                confidence,
                inferred_by: model.clone(),
                evidence: f.sentence,
            })
        })
        .collect())
}

/// What the model reads of a Source: its cleaned content, else its summary.
fn text_of(source: &Source) -> String {
    if source.content.trim().is_empty() {
        source.summary.clone()
    } else {
        source.content.clone()
    }
}
