//! At most `server.max_concurrent_per_key` requests in flight per API key: one key's
//! client (a runaway agent loop, a slow uploader) cannot take every connection and
//! worker slot from the others. A request over the limit gets 429 `rate_limited` with
//! `Retry-After` at once. Requests without a key (health, metrics) are not counted;
//! the key is the presented `Authorization` value, before it is checked. And no
//! `/api/…` request runs longer than `server.request_timeout_secs` ([`deadline`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tokio::sync::Semaphore;

use crate::error::ApiError;

/// The in-flight requests of each key that has some.
#[derive(Debug)]
pub struct KeyLimits {
    per_key: usize,
    keys: Mutex<HashMap<String, Arc<Semaphore>>>,
}

impl KeyLimits {
    pub fn new(per_key: usize) -> Arc<Self> {
        Arc::new(Self {
            per_key: per_key.max(1),
            keys: Mutex::new(HashMap::new()),
        })
    }

    fn semaphore(&self, key: &str) -> Arc<Semaphore> {
        let mut keys = self.keys.lock().unwrap_or_else(|e| e.into_inner());
        keys.entry(key.to_owned())
            .or_insert_with(|| Arc::new(Semaphore::new(self.per_key)))
            .clone()
    }

    /// Forgets a key with nothing in flight (its entry is made again when needed).
    fn release(&self, key: &str) {
        let mut keys = self.keys.lock().unwrap_or_else(|e| e.into_inner());
        if keys
            .get(key)
            .is_some_and(|s| s.available_permits() == self.per_key && Arc::strong_count(s) == 1)
        {
            keys.remove(key);
        }
    }
}

pub async fn limit(State(limits): State<Arc<KeyLimits>>, request: Request, next: Next) -> Response {
    let Some(key) = request
        .headers()
        .get(axum::http::header::AUTHORIZATION)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
    else {
        return next.run(request).await;
    };
    let semaphore = limits.semaphore(&key);
    let Ok(permit) = semaphore.clone().try_acquire_owned() else {
        return ApiError::TooManyRequests(format!(
            "more than {} requests in flight with this API key; retry later",
            limits.per_key
        ))
        .into_response();
    };
    let response = next.run(request).await;
    drop(permit);
    drop(semaphore);
    limits.release(&key);
    response
}

/// Answers 503 with `Retry-After` for an `/api/…` request still unanswered after
/// `server.request_timeout_secs`: a store that hangs costs a client that long at most.
/// The handler's work is dropped there: a transaction not committed rolls back, and a
/// Source stored but not yet enqueued is queued by the reconciler.
/// Its SQLite writes wait `server.lock_wait_ms` at most for another writer's lock.
pub async fn deadline(
    State((timeout, lock_wait)): State<(Duration, Duration)>,
    request: Request,
    next: Next,
) -> Response {
    if !request.uri().path().starts_with("/api/") {
        return next.run(request).await;
    }
    let work = cosmo_shared::graph::sqlite::with_lock_wait(lock_wait, next.run(request));
    match tokio::time::timeout(timeout, work).await {
        Ok(response) => response,
        Err(_) => {
            if let Some(repeated) = cosmo_shared::telemetry::repeats::admit("request timed out", "")
            {
                tracing::warn!(
                    timeout_secs = timeout.as_secs(),
                    repeated,
                    "request timed out"
                );
            }
            ApiError::Unavailable {
                message: format!(
                    "the request did not finish within {} s (a store may be slow or out of \
                     reach); retry later",
                    timeout.as_secs()
                ),
                detail: None,
            }
            .into_response()
        }
    }
}
