//! What returning a memory does: the access update (counts, salience, state), atomic
//! per kind, and a participant's lazy extraction of the team Sources they were shown.

use std::collections::{BTreeMap, HashMap};

use super::RetrievalResult;
use crate::retrieval::Recall;
use cosmo_shared::domain::{ExtractionStatus, LifecycleChange, LifecycleEvent, MemoryKind, Source};

/// Applies the access update to returned memories (counts, salience boost, spacing
/// effect, state), atomically per kind, and returns their new lifecycles by key.
pub async fn record_access(
    recall: impl Into<Recall<'_>>,
    kind: MemoryKind,
    keys: &[String],
) -> RetrievalResult<HashMap<String, cosmo_shared::domain::Lifecycle>> {
    let r = &recall.into();
    if keys.is_empty() {
        return Ok(HashMap::new());
    }
    let now = r.clock.now();
    let params = *r.lifecycle_params;
    let update = move |m: &cosmo_shared::domain::MemoryLifecycle| {
        let d = cosmo_shared::lifecycle::on_access(&m.lifecycle, now, &params);
        Some(LifecycleChange {
            kind: m.kind,
            key: m.key.clone(),
            event: d
                .transition
                .map(|t| LifecycleEvent::system(m, t.to, t.reason, now)),
            lifecycle: d.lifecycle,
        })
    };
    let changes = r
        .graph
        .lifecycle
        .update_lifecycles(kind, keys, &update)
        .await?;
    Ok(changes.into_iter().map(|c| (c.key, c.lifecycle)).collect())
}

/// Starts `user_id`'s lazy extraction of the team Sources they were just shown.
pub(crate) async fn extract_for_participant(
    r: &Recall<'_>,
    user_id: &str,
    sources: &[&Source],
    request_id: Option<String>,
) {
    for s in sources.iter().filter(|s| s.user_id != user_id) {
        let done = matches!(
            r.intake.extractions.extraction(&s.entity_key, user_id).await,
            Ok(Some(record)) if record.status == ExtractionStatus::Extracted
        );
        if done {
            continue;
        }
        if let Err(e) =
            crate::request_extraction(r.intake, &s.entity_key, user_id, request_id.clone()).await
        {
            tracing::warn!(entity_key = %s.entity_key, user_id, error = %e,
                "could not start a participant's lazy extraction");
        }
    }
}

/// Groups keys by kind (for callers that collect results of several kinds).
pub fn by_kind(items: &[(MemoryKind, String)]) -> BTreeMap<MemoryKind, Vec<String>> {
    let mut out: BTreeMap<MemoryKind, Vec<String>> = BTreeMap::new();
    for (k, key) in items {
        out.entry(*k).or_default().push(key.clone());
    }
    out
}
