//! Sources through the pipeline in-process, as a post and the workers take them: stored
//! as `POST /api/sources` stores one (the tenant and its users claimed, nothing
//! enqueued), then `process-source` and the owner's `extract-entities` run by the job
//! dispatcher. Times are the services' clock.

use cosmo_shared::domain::SourceWrite;
use cosmo_shared::domain::input::SourceInput;
use cosmo_shared::queue::JobKind;
use cosmo_shared::queue::payloads::{ExtractEntities, ProcessSource};
use cosmo_shared::services::Services;
use cosmo_workers::dispatch::Dispatcher;
use serde_json::{Value, json};

/// Stores the Source `body` describes for `tenant` (or finds the one it repeats); its
/// key.
pub async fn store(svc: &Services, tenant: &str, body: Value) -> String {
    let now = svc.clock.now();
    let input = SourceInput::parse(body).unwrap_or_else(|e| panic!("a valid body: {e:?}"));
    svc.directory.ensure_tenant(tenant, now).await.unwrap();
    let users = input.users();
    let graph_user_ids = svc
        .directory
        .claim_users(tenant, &users, now)
        .await
        .unwrap();
    let new = input
        .with_graph_user_ids(&users, &graph_user_ids)
        .into_new_source(None, now);
    match svc.graph.create_source(&new).await.unwrap() {
        SourceWrite::Created(s) | SourceWrite::Existing(s) => s.entity_key,
    }
}

/// Runs `process-source` for `key`, then `extract-entities` for `user`.
pub async fn process(svc: &Services, key: &str, user: &str) {
    run_pipeline(svc, key, user)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
}

/// [`process`], answering a failed job with its error.
pub async fn run_pipeline(svc: &Services, key: &str, user: &str) -> anyhow::Result<()> {
    let jobs = Dispatcher::new(svc.clone());
    let process = json!(ProcessSource {
        entity_key: key.to_owned()
    });
    let extract = json!(ExtractEntities {
        entity_key: key.to_owned(),
        user_id: user.to_owned()
    });
    for (kind, payload) in [
        (JobKind::ProcessSource, process),
        (JobKind::ExtractEntities, extract),
    ] {
        jobs.run(kind, &payload, None)
            .await
            .map_err(|e| anyhow::anyhow!("{kind} of {key}: {}", e.message))?;
    }
    Ok(())
}

/// [`store`], then [`process`] for the Source's owner; its key.
pub async fn ingest(svc: &Services, tenant: &str, body: Value) -> String {
    let owner = body["user_id"].as_str().expect("a user_id").to_owned();
    let key = store(svc, tenant, body).await;
    process(svc, &key, &owner).await;
    key
}
