//! A job's state as an operator sees it ([`JobState`]), derived from apalis' `status`:
//! the mapping in Rust, and the same mapping as SQL for the queries that filter and
//! count by state.

use serde::{Deserialize, Serialize};

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

crate::domain::string_enum!(JobState {
    Pending = "pending",
    Running = "running",
    Done = "done",
    Failed = "failed",
    Dead = "dead",
});

impl JobState {
    pub fn of(status: &str, attempts: i64, max_attempts: i64) -> Self {
        match status {
            "Queued" | "Running" => Self::Running,
            "Done" => Self::Done,
            "Killed" => Self::Dead,
            "Failed" if attempts >= max_attempts => Self::Dead,
            "Failed" => Self::Failed,
            // `Pending`, and anything apalis 1.0 never writes.
            _ => Self::Pending,
        }
    }

    /// The same mapping as a SQL condition on a jobs row (both backends' tables).
    pub(crate) fn sql_condition(self) -> &'static str {
        match self {
            Self::Pending => state_condition!(pending),
            Self::Running => state_condition!(running),
            Self::Done => state_condition!(done),
            Self::Failed => state_condition!(failed),
            Self::Dead => state_condition!(dead),
        }
    }
}

/// [`JobState::sql_condition`] as literals, for `concat!`.
macro_rules! state_condition {
    (pending) => {
        "status NOT IN ('Queued', 'Running', 'Done', 'Failed', 'Killed')"
    };
    (running) => {
        "status IN ('Queued', 'Running')"
    };
    (done) => {
        "status = 'Done'"
    };
    (failed) => {
        "(status = 'Failed' AND attempts < max_attempts)"
    };
    (dead) => {
        "(status = 'Killed' OR (status = 'Failed' AND attempts >= max_attempts))"
    };
}
pub(crate) use state_condition;

/// The mapping of [`JobState::of`] as a SQL expression, for grouping.
macro_rules! state_case {
    () => {
        "CASE WHEN status IN ('Queued', 'Running') THEN 'running'
              WHEN status = 'Done' THEN 'done'
              WHEN status = 'Killed' OR (status = 'Failed' AND attempts >= max_attempts) THEN 'dead'
              WHEN status = 'Failed' THEN 'failed'
              ELSE 'pending' END"
    };
}
pub(crate) use state_case;
