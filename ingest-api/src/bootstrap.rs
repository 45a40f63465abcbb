//! The first API key, an admin key. With `auth.bootstrap_key` set, that key is registered
//! (hashed) for `auth.bootstrap_tenant`; otherwise, when no key exists at all, the embedded server
//! creates one and prints it once.

use cosmo_shared::services::Services;

/// What happened at start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Bootstrap {
    /// The configured key is registered.
    Configured,
    /// A new key was created; show it to the operator once.
    Created(String),
    /// Keys already exist; nothing to do.
    Existing,
}

pub async fn ensure_api_key(svc: &Services, create_if_none: bool) -> anyhow::Result<Bootstrap> {
    let auth = &svc.config.auth;
    let now = svc.clock.now();
    if let Some(key) = &auth.bootstrap_key {
        svc.directory
            .add_api_key(
                &auth.bootstrap_tenant,
                key,
                "bootstrap (configured)",
                true,
                now,
            )
            .await?;
        return Ok(Bootstrap::Configured);
    }
    if !create_if_none || !svc.directory.api_keys().await?.is_empty() {
        return Ok(Bootstrap::Existing);
    }
    let (key, _) = svc
        .directory
        .create_api_key(&auth.bootstrap_tenant, "bootstrap", true, now)
        .await?;
    Ok(Bootstrap::Created(key))
}
