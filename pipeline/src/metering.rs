//! Every model call a job makes goes into the usage ledger, attributed to the user and
//! the job kind, before its answer is used.

use cosmo_shared::llm::{Completion, FoundCause, SummaryTask};
use cosmo_shared::queue::JobKind;
use cosmo_shared::services::{Models, Services};
use cosmo_shared::telemetry::repeats;
use cosmo_shared::usage::Metering;

use crate::error::{JobError, JobResult};

/// The ledger entry context for one job.
#[derive(Debug, Clone, Copy)]
struct Metered<'a> {
    metering: Metering<'a>,
    kind: JobKind,
    user_id: &'a str,
}

impl Metered<'_> {
    /// Records the call's usage and hands back its answer. While the ledger's database
    /// is out of reach it tries again (0.5 s, doubling to 5 s; the job's timeout bounds
    /// the wait): failing would run the job again, and make the model call again.
    async fn record<T>(&self, completion: Completion<T>) -> JobResult<T> {
        let mut pause = std::time::Duration::from_millis(500);
        loop {
            match self
                .metering
                .record(self.kind.as_str(), self.user_id, &completion.usage)
                .await
            {
                Ok(()) => return Ok(completion.value),
                Err(e) if cosmo_shared::db::is_outage(&e) => {
                    let error = format!("{e:#}");
                    if let Some(repeated) = repeats::admit("usage ledger out of reach", &error) {
                        tracing::warn!(%error, repeated,
                            "the usage ledger is out of reach; the job waits to record its model call");
                    }
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(std::time::Duration::from_secs(5));
                }
                Err(e) => return Err(JobError::retry(format!("recording model usage: {e:#}"))),
            }
        }
    }
}

/// The model calls a job makes, each recorded in the usage ledger (through [`Metered`])
/// under the job's kind and the user it was made for, before its answer is used.
#[derive(Debug, Clone, Copy)]
pub struct ModelCalls<'a> {
    models: &'a Models,
    metering: Metering<'a>,
    kind: JobKind,
}

impl<'a> ModelCalls<'a> {
    pub fn new(models: &'a Models, metering: Metering<'a>, kind: JobKind) -> Self {
        Self {
            models,
            metering,
            kind,
        }
    }

    /// The process's models, metered through its ledger.
    pub fn of(svc: &'a Services, kind: JobKind) -> Self {
        Self::new(&svc.models, svc.metering(), kind)
    }

    /// The configured providers, one per capability: a call's [`Completion`] goes to
    /// [`Self::record`] before its answer is used.
    pub fn providers(&self) -> &'a Models {
        self.models
    }

    /// Records `completion`'s usage for `user_id` and hands back its answer.
    pub async fn record<T>(&self, user_id: &str, completion: Completion<T>) -> JobResult<T> {
        self.meter(user_id).record(completion).await
    }

    fn meter<'u>(&'u self, user_id: &'u str) -> Metered<'u> {
        Metered {
            metering: self.metering,
            kind: self.kind,
            user_id,
        }
    }

    /// A summary of `inputs` for `task`, revising `current` when there is one.
    pub async fn summarize(
        &self,
        user_id: &str,
        task: SummaryTask,
        current: Option<&str>,
        inputs: &[String],
    ) -> JobResult<String> {
        let completion = self
            .models
            .summarizer
            .summarize(task, current, inputs)
            .await?;
        self.meter(user_id).record(completion).await
    }

    /// A summary (as [`Self::summarize`]) and its embedding.
    pub async fn describe(
        &self,
        user_id: &str,
        task: SummaryTask,
        current: Option<&str>,
        inputs: &[String],
    ) -> JobResult<(String, Vec<f32>)> {
        let text = self.summarize(user_id, task, current, inputs).await?;
        let embedding = self.embed(user_id, &text).await?;
        Ok((text, embedding))
    }

    /// One embedding.
    pub async fn embed(&self, user_id: &str, text: &str) -> JobResult<Vec<f32>> {
        let completion = self.models.embedder.embed(&[text.to_owned()]).await?;
        let mut vectors = self.meter(user_id).record(completion).await?;
        Ok(vectors.pop().unwrap_or_default())
    }

    /// The causes of `effect` among `earlier`, and the name (`provider:model`) of the
    /// model that found them.
    pub async fn find_causes(
        &self,
        user_id: &str,
        effect: &str,
        earlier: &[String],
    ) -> JobResult<(String, Vec<FoundCause>)> {
        let completion = self.models.causes.find_causes(effect, earlier).await?;
        let model = format!("{}:{}", completion.usage.provider, completion.usage.model);
        Ok((model, self.meter(user_id).record(completion).await?))
    }
}
