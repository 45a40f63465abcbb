//! A job's status as the queue (apalis) stores it ([`JobStatus`]) and its state as an
//! operator sees it ([`JobState`]), and the mapping between them. The same mapping as
//! SQL, for the queries that filter and count by state, is the queue's.

use serde::{Deserialize, Serialize};

use crate::domain::{OrUnknown, string_enum};
use crate::jobs::JobKind;

/// apalis' `status` column: the values apalis 1.0 writes (`apalis_core::task::Status`).
/// Rows are read as [`OrUnknown<JobStatus>`]: a status apalis 1.0 never writes is kept
/// as it is stored, and counts as pending ([`JobState::of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum JobStatus {
    Pending,
    /// Fetched and locked by a worker, about to run.
    Queued,
    Running,
    Done,
    /// An attempt failed; it runs again if attempts remain.
    Failed,
    /// Failed for good (no retry).
    Killed,
}

string_enum!(JobStatus {
    Pending = "Pending",
    Queued = "Queued",
    Running = "Running",
    Done = "Done",
    Failed = "Failed",
    Killed = "Killed",
});

/// A job's state as an operator thinks of it, derived from apalis' `status` and the
/// attempts (the mapping is in `docs/queue.md#job-states`):
///
/// | state | apalis |
/// |---|---|
/// | `pending` | `Pending` (due now, or scheduled for a later `run_at`) |
/// | `running` | `Queued` or `Running` (locked by a worker) |
/// | `done` | `Done` |
/// | `failed` | `Failed` with attempts left: it runs again after its backoff |
/// | `dead` | `Killed`, or `Failed` with no attempts left: failed for good |
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum JobState {
    Pending,
    Running,
    Done,
    Failed,
    Dead,
}

string_enum!(JobState {
    Pending = "pending",
    Running = "running",
    Done = "done",
    Failed = "failed",
    Dead = "dead",
});

impl JobState {
    pub fn of(status: &OrUnknown<JobStatus>, attempts: i64, max_attempts: i64) -> Self {
        match status {
            OrUnknown::Known(JobStatus::Pending) => Self::Pending,
            OrUnknown::Known(JobStatus::Queued | JobStatus::Running) => Self::Running,
            OrUnknown::Known(JobStatus::Done) => Self::Done,
            OrUnknown::Known(JobStatus::Killed) => Self::Dead,
            OrUnknown::Known(JobStatus::Failed) if attempts >= max_attempts => Self::Dead,
            OrUnknown::Known(JobStatus::Failed) => Self::Failed,
            // A status apalis 1.0 never writes counts as pending, as in the SQL below
            // (`docs/queue.md#job-states`).
            OrUnknown::Unknown(_) => Self::Pending,
        }
    }
}

/// How many jobs of a kind are in a state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StateCount {
    pub kind: OrUnknown<JobKind>,
    pub state: JobState,
    pub count: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_status_has_its_state_and_an_unknown_one_counts_as_pending() {
        let of =
            |status: &str, attempts| JobState::of(&OrUnknown::read(status.into()), attempts, 3);
        assert_eq!(of("Pending", 0), JobState::Pending);
        assert_eq!(of("Queued", 1), JobState::Running);
        assert_eq!(of("Running", 1), JobState::Running);
        assert_eq!(of("Done", 1), JobState::Done);
        assert_eq!(of("Failed", 2), JobState::Failed);
        assert_eq!(of("Failed", 3), JobState::Dead);
        assert_eq!(of("Killed", 1), JobState::Dead);
        assert_eq!(of("Paused", 0), JobState::Pending);
    }
}
