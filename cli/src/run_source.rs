//! `cosmo run-job process-source --source <key>` and `cosmo run-job extract-entities
//! --source <key> --user <user>`: one Source's processing, or one user's extraction of
//! it, run now in this process as a worker runs it, and what it left printed as JSON.
//!
//! The job is the queued one, run once more: it resumes what is unfinished and leaves
//! what is done as it is (a processed Source is re-indexed only when another embedder
//! made its index; an extraction already done is not repeated). A failed extraction
//! is put back to pending first, as a user asking for it again would.

use anyhow::{Context, anyhow, bail, ensure};
use cosmo_shared::domain::Source;
use cosmo_shared::queue::JobKind;
use cosmo_shared::queue::payloads::{ExtractEntities, ProcessSource};
use cosmo_shared::services::Services;
use cosmo_workers::dispatch::Dispatcher;
use serde_json::{Value, json};

/// Runs `kind` (`process-source` or `extract-entities`) for the Source `key` and, for an
/// extraction, the user the graph knows as `user`; returns what to print.
pub async fn run(
    svc: Services,
    kind: JobKind,
    key: &str,
    user: Option<&str>,
) -> anyhow::Result<Value> {
    let source = svc
        .graph
        .source(key)
        .await?
        .ok_or_else(|| anyhow!("no Source has the key {key}"))?;
    let payload = match (kind, user) {
        (JobKind::ProcessSource, None) => json!(ProcessSource {
            entity_key: key.to_owned()
        }),
        (JobKind::ProcessSource, Some(_)) => {
            bail!("--user is for extract-entities: process-source runs for the whole Source")
        }
        (JobKind::ExtractEntities, Some(user)) => {
            ensure!(
                source.is_participant(user),
                "{user} is not a participant of Source {key} (its participants: {})",
                participants(&source)
            );
            svc.graph
                .request_extraction(key, user, svc.clock.now())
                .await?;
            json!(ExtractEntities {
                entity_key: key.to_owned(),
                user_id: user.to_owned()
            })
        }
        (JobKind::ExtractEntities, None) => bail!(
            "extract-entities needs --user: whose extraction of the Source (one of {})",
            participants(&source)
        ),
        (other, _) => bail!("{other} does not run for one Source"),
    };
    Dispatcher::new(svc.clone())
        .run(kind, &payload, None)
        .await
        .map_err(|e| anyhow!("{kind} of {key} failed: {}", e.message))?;
    // A user was given exactly when the job was an extraction (the others are refused).
    let erased = "the Source was erased while it ran";
    Ok(match user {
        None => {
            let source = svc.graph.source(key).await?.context(erased)?;
            json!({
                "entity_key": source.entity_key,
                "processing_status": source.processing_status,
                "processing_error": source.processing_error,
            })
        }
        Some(user) => {
            serde_json::to_value(svc.graph.extraction(key, user).await?.context(erased)?)?
        }
    })
}

/// The Source's owner and participants, each once.
fn participants(source: &Source) -> String {
    let mut users: Vec<&str> = vec![source.user_id.as_str()];
    for p in &source.participants {
        if !users.contains(&p.as_str()) {
            users.push(p);
        }
    }
    users.join(", ")
}
