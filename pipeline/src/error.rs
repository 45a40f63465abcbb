//! How a job fails: retry later, or give up now.

use cosmo_shared::graph::GraphError;
use cosmo_shared::llm::LlmError;
use cosmo_shared::queue::QueueError;

/// A job's failure. Retryable failures come back after the kind's backoff until its
/// attempts run out; permanent ones are kept as failed at once.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct JobError {
    pub retryable: bool,
    pub message: String,
}

impl JobError {
    pub fn retry(message: impl Into<String>) -> Self {
        Self {
            retryable: true,
            message: message.into(),
        }
    }

    pub fn permanent(message: impl Into<String>) -> Self {
        Self {
            retryable: false,
            message: message.into(),
        }
    }
}

impl From<GraphError> for JobError {
    fn from(e: GraphError) -> Self {
        match e {
            GraphError::Conflict(_) => Self::permanent(format!("graph store: {e}")),
            _ => Self::retry(format!("graph store: {e:#}")),
        }
    }
}

impl From<LlmError> for JobError {
    fn from(e: LlmError) -> Self {
        Self {
            retryable: e.is_retryable(),
            message: format!("language model: {e}"),
        }
    }
}

impl From<QueueError> for JobError {
    fn from(e: QueueError) -> Self {
        match e {
            // The same payload fails the same way on every attempt.
            QueueError::Payload(_) => Self::permanent(format!("queue: {e}")),
            QueueError::Unavailable(_) | QueueError::Other(_) => {
                Self::retry(format!("queue: {e:#}"))
            }
        }
    }
}

pub type JobResult<T = ()> = Result<T, JobError>;
