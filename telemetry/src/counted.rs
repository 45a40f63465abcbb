//! [`Counted`]: a model of any provider, with every call counted in the Prometheus
//! metrics (calls, duration, tokens, errors by provider and task). `Models` wraps each
//! provider it builds, so a call is counted whatever makes it — a job, a read-side
//! query embedding, a maintenance run.

use std::sync::Arc;
use std::time::Instant;

use async_trait::async_trait;

use cosmo_core::domain::SourceType;
use cosmo_models::{
    AgentAction, CauseFinder, Embedder, EntityExtractor, ExtractedEntity, ExtractionContext,
    FoundCause, LlmResult, NoteTaker, SourceFacts, SourceProcessor, Summarizer, SummaryTask,
};

/// `inner`, counted as `provider` (`offline`, `openai`, `local`) doing `task`
/// (`processing`, `extraction`, `notes`, `summaries`, `causes`, `embeddings`).
#[derive(Debug)]
pub struct Counted<M: ?Sized> {
    inner: Arc<M>,
    provider: &'static str,
    task: &'static str,
}

impl<M: ?Sized> Counted<M> {
    pub fn new(inner: Arc<M>, provider: &'static str, task: &'static str) -> Arc<Self> {
        Arc::new(Self {
            inner,
            provider,
            task,
        })
    }

    /// Runs one call and records it.
    async fn call<T>(&self, call: impl Future<Output = LlmResult<T>>) -> LlmResult<T> {
        let start = Instant::now();
        let result = call.await;
        let outcome = result.as_ref().map(|c| &c.usage);
        crate::metrics::model_call(self.provider, self.task, start.elapsed(), outcome);
        result
    }
}

#[async_trait]
impl SourceProcessor for Counted<dyn SourceProcessor> {
    async fn clean_transcript(&self, transcript: &str) -> LlmResult<String> {
        self.call(self.inner.clean_transcript(transcript)).await
    }

    async fn describe(&self, source_type: SourceType, content: &str) -> LlmResult<SourceFacts> {
        self.call(self.inner.describe(source_type, content)).await
    }
}

#[async_trait]
impl EntityExtractor for Counted<dyn EntityExtractor> {
    async fn extract(
        &self,
        content: &str,
        context: &ExtractionContext,
    ) -> LlmResult<Vec<ExtractedEntity>> {
        self.call(self.inner.extract(content, context)).await
    }
}

#[async_trait]
impl NoteTaker for Counted<dyn NoteTaker> {
    async fn take_notes(
        &self,
        content: &str,
        entities: &[ExtractedEntity],
        context: &ExtractionContext,
    ) -> LlmResult<Vec<AgentAction>> {
        self.call(self.inner.take_notes(content, entities, context))
            .await
    }
}

#[async_trait]
impl Summarizer for Counted<dyn Summarizer> {
    async fn summarize(
        &self,
        task: SummaryTask,
        current: Option<&str>,
        inputs: &[String],
    ) -> LlmResult<String> {
        self.call(self.inner.summarize(task, current, inputs)).await
    }
}

#[async_trait]
impl CauseFinder for Counted<dyn CauseFinder> {
    async fn find_causes(&self, effect: &str, earlier: &[String]) -> LlmResult<Vec<FoundCause>> {
        self.call(self.inner.find_causes(effect, earlier)).await
    }
}

#[async_trait]
impl Embedder for Counted<dyn Embedder> {
    fn dimensions(&self) -> usize {
        self.inner.dimensions()
    }

    async fn embed(&self, texts: &[String]) -> LlmResult<Vec<Vec<f32>>> {
        self.call(self.inner.embed(texts)).await
    }
}
