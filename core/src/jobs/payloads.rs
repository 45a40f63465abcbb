//! The payload of each job kind, and the idempotency key each is enqueued with.
//!
//! [`Job`] ties a payload type to its kind, so a job is built from its payload alone
//! ([`NewJob::of`]). [`Periodic`] is the one payload every periodic kind shares; it is
//! paired with its kind when the job is built, and a kind that is not periodic is
//! refused there.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::{JobKind, NewJob, PayloadError, to_json};

/// A payload of exactly one kind of job: what [`NewJob::of`] enqueues as
/// [`Job::KIND`], and what a worker of that kind reads back.
pub trait Job: Serialize + DeserializeOwned {
    const KIND: JobKind;
}

/// Phase 1 for one Source. One job per Source while it is kept (key: the entity key).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProcessSource {
    pub entity_key: String,
}

impl Job for ProcessSource {
    const KIND: JobKind = JobKind::ProcessSource;
}

impl ProcessSource {
    pub fn job(entity_key: &str) -> NewJob {
        NewJob::of(&Self {
            entity_key: entity_key.to_owned(),
        })
        .key(entity_key)
    }
}

/// Phase 2 for one (Source, user). One job per pair while it is kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExtractEntities {
    pub entity_key: String,
    pub user_id: String,
}

impl Job for ExtractEntities {
    const KIND: JobKind = JobKind::ExtractEntities;
}

impl ExtractEntities {
    pub fn job(entity_key: &str, user_id: &str) -> NewJob {
        NewJob::of(&Self {
            entity_key: entity_key.to_owned(),
            user_id: user_id.to_owned(),
        })
        .key(Self::key(entity_key, user_id))
    }

    pub fn key(entity_key: &str, user_id: &str) -> String {
        format!("{entity_key}:{user_id}")
    }
}

/// A periodic job's run: for one scheduler slot (key: kind + slot time) or on demand.
/// `as_of` is the job's "now"; absent, the clock's. The payload of every kind for which
/// [`JobKind::is_periodic`] holds.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Periodic {
    #[serde(default, alias = "slot")]
    pub as_of: Option<chrono::DateTime<chrono::Utc>>,
}

impl Periodic {
    /// The job of a scheduler slot.
    pub fn slot(kind: JobKind, slot: chrono::DateTime<chrono::Utc>) -> NewJob {
        Self { as_of: Some(slot) }
            .job(kind)
            .key(format!("{kind}@{}", slot.to_rfc3339()))
    }

    /// A run asked for by an operator: a fresh key, so it always runs.
    pub fn manual(kind: JobKind, as_of: Option<chrono::DateTime<chrono::Utc>>) -> NewJob {
        Self { as_of }
            .job(kind)
            .key(format!("{kind}@manual:{}", ulid::Ulid::generate()))
    }

    /// This payload as a job of `kind`; a kind that is not periodic is refused when the
    /// job is enqueued ([`PayloadError::WrongKind`]).
    fn job(&self, kind: JobKind) -> NewJob {
        let payload = if kind.is_periodic() {
            to_json(kind, self)
        } else {
            Err(PayloadError::WrongKind {
                kind,
                payload: "periodic",
            })
        };
        NewJob::with_payload(kind, payload)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_are_enqueued_as_their_kind() {
        let job = ExtractEntities::job("src-1", "bob");
        assert_eq!(job.kind, JobKind::ExtractEntities);
        assert_eq!(
            job.payload(),
            Ok(&serde_json::json!({"entity_key": "src-1", "user_id": "bob"}))
        );
        assert_eq!(ProcessSource::job("src-1").kind, JobKind::ProcessSource);
    }

    #[test]
    fn a_periodic_payload_is_refused_for_a_pipeline_kind() {
        let decay = Periodic::manual(JobKind::Decay, None);
        assert_eq!(decay.payload(), Ok(&serde_json::json!({"as_of": null})));
        let wrong = Periodic::manual(JobKind::ProcessSource, None);
        assert_eq!(
            wrong.payload(),
            Err(&PayloadError::WrongKind {
                kind: JobKind::ProcessSource,
                payload: "periodic"
            })
        );
    }

    #[test]
    fn a_payload_that_is_not_json_is_kept_as_its_error() {
        #[derive(Serialize, Deserialize)]
        struct Keyed(std::collections::BTreeMap<(u8, u8), u8>);
        impl Job for Keyed {
            const KIND: JobKind = JobKind::Reconcile;
        }
        let job = NewJob::of(&Keyed([((1, 2), 3)].into()));
        assert!(
            matches!(
                job.payload(),
                Err(PayloadError::NotJson {
                    kind: JobKind::Reconcile,
                    ..
                })
            ),
            "{job:?}"
        );
    }
}
