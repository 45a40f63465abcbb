//! The payload of each job kind, and the idempotency key each is enqueued with.

use serde::{Deserialize, Serialize};

use super::{JobKind, NewJob};

/// Phase 1 for one Source. One job per Source, ever (key: the entity key).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProcessSource {
    pub entity_key: String,
}

impl ProcessSource {
    pub fn job(entity_key: &str) -> NewJob {
        NewJob::new(
            JobKind::ProcessSource,
            Self {
                entity_key: entity_key.to_owned(),
            },
        )
        .key(entity_key)
    }
}

/// Phase 2 for one (Source, user). One job per pair, ever.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExtractEntities {
    pub entity_key: String,
    pub user_id: String,
}

impl ExtractEntities {
    pub fn job(entity_key: &str, user_id: &str) -> NewJob {
        NewJob::new(
            JobKind::ExtractEntities,
            Self {
                entity_key: entity_key.to_owned(),
                user_id: user_id.to_owned(),
            },
        )
        .key(Self::key(entity_key, user_id))
    }

    pub fn key(entity_key: &str, user_id: &str) -> String {
        format!("{entity_key}:{user_id}")
    }
}

/// A periodic job's run: for one scheduler slot (key: kind + slot time) or on demand.
/// `as_of` is the job's "now"; absent, the clock's.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Periodic {
    #[serde(default, alias = "slot")]
    pub as_of: Option<chrono::DateTime<chrono::Utc>>,
}

impl Periodic {
    /// The job of a scheduler slot.
    pub fn slot(kind: JobKind, slot: chrono::DateTime<chrono::Utc>) -> NewJob {
        NewJob::new(kind, Self { as_of: Some(slot) }).key(format!("{kind}@{}", slot.to_rfc3339()))
    }

    /// A run asked for by an operator: a fresh key, so it always runs.
    pub fn manual(kind: JobKind, as_of: Option<chrono::DateTime<chrono::Utc>>) -> NewJob {
        NewJob::new(kind, Self { as_of }).key(format!("{kind}@manual:{}", ulid::Ulid::generate()))
    }
}
