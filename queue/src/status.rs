//! [`JobState`]'s mapping from apalis' status as SQL, for the queries that filter and
//! count by state (the same mapping as [`JobState::of`], on both backends' tables).

use cosmo_core::jobs::JobState;

/// [`sql_condition`] as literals, for `concat!`.
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

/// The condition on a jobs row that it is in `state`.
pub(crate) fn sql_condition(state: JobState) -> &'static str {
    match state {
        JobState::Pending => state_condition!(pending),
        JobState::Running => state_condition!(running),
        JobState::Done => state_condition!(done),
        JobState::Failed => state_condition!(failed),
        JobState::Dead => state_condition!(dead),
    }
}
