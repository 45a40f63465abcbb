//! Jobs as the rest of Cosmo names them, with no queue behind them: the kinds and their
//! policies ([`kinds`]), each kind's payload ([`payloads`]: [`Job`] ties a payload type
//! to its kind) and [`NewJob`], what is handed to a queue to enqueue.

use chrono::{DateTime, Utc};
use serde::Serialize;

pub mod kinds;
pub mod payloads;
pub mod status;

pub use kinds::{JobKind, JobSettings, JobsConfig};
pub use payloads::Job;
pub use status::{JobState, JobStatus, StateCount};

/// A job to enqueue.
#[derive(Debug, Clone, PartialEq)]
pub struct NewJob {
    pub kind: JobKind,
    /// The payload as JSON, or why it could not be made JSON: a queue's `enqueue`
    /// returns that error and enqueues nothing. Kept rather than returned so that
    /// building a job stays infallible (as `reqwest` keeps a body's error until `send`).
    payload: Result<serde_json::Value, PayloadError>,
    /// Unique per kind, forever: a second job with the same key is not created.
    pub idempotency_key: Option<String>,
    /// Not before this time (now if unset).
    pub run_at: Option<DateTime<Utc>>,
    /// The API request that caused this job, carried into the worker's logs.
    pub request_id: Option<String>,
}

impl NewJob {
    /// A job of `J`'s kind carrying `payload`.
    pub fn of<J: Job>(payload: &J) -> Self {
        Self::with_payload(J::KIND, to_json(J::KIND, payload))
    }

    /// A job whose payload is JSON already, so there is nothing to serialise and nothing
    /// to lose. It is not checked against `kind`: this is for payloads that are not a
    /// kind's type on purpose (tests of malformed payloads); typed payloads go through
    /// [`NewJob::of`].
    pub fn new(kind: JobKind, payload: serde_json::Value) -> Self {
        Self::with_payload(kind, Ok(payload))
    }

    pub(crate) fn with_payload(
        kind: JobKind,
        payload: Result<serde_json::Value, PayloadError>,
    ) -> Self {
        Self {
            kind,
            payload,
            idempotency_key: None,
            run_at: None,
            request_id: None,
        }
    }

    /// The payload as JSON, or why it could not be made JSON.
    pub fn payload(&self) -> Result<&serde_json::Value, &PayloadError> {
        self.payload.as_ref()
    }

    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.idempotency_key = Some(key.into());
        self
    }

    pub fn request_id(mut self, request_id: Option<String>) -> Self {
        self.request_id = request_id;
        self
    }

    pub fn run_at(mut self, at: DateTime<Utc>) -> Self {
        self.run_at = Some(at);
        self
    }
}

/// `payload` as JSON, for a job of `kind`.
pub(crate) fn to_json(
    kind: JobKind,
    payload: &impl Serialize,
) -> Result<serde_json::Value, PayloadError> {
    serde_json::to_value(payload).map_err(|e| PayloadError::NotJson {
        kind,
        message: e.to_string(),
    })
}

/// Why a [`NewJob`] has no payload to enqueue: a mistake in the code that built it, so
/// retrying does not help.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PayloadError {
    #[error("the payload of a {kind} job does not serialise to JSON: {message}")]
    NotJson { kind: JobKind, message: String },
    /// A payload shared by several kinds, given a kind that does not carry it.
    #[error("{kind} jobs do not carry a {payload} payload")]
    WrongKind {
        kind: JobKind,
        payload: &'static str,
    },
}
