//! The offline provider: every model capability done with rules and statistics, no
//! network and no randomness — the same input always gives byte-identical output.
//! It is what air-gapped installs and zero-cost back-fills run, so it aims for sensible
//! results on real text, within the limits of heuristics:
//!
//! * [`clean`] — disfluency removal for `Speaker: text` transcripts;
//! * [`describe`] (with [`tags`]) — extractive summary, keywords and tags;
//! * [`extract`] (with [`names`], [`classify`], [`cues`], [`people`], [`aliases`],
//!   [`mentions`], [`owner`], [`concepts`]) — People, typed Entities and Concepts with
//!   confidence and subpoints;
//! * [`notes`] (with [`targets`], [`relation`], [`lifetime`]) — notes and co-occurrence
//!   relationships;
//! * [`summarize`] — extractive Storyline/Macro/description summaries;
//! * [`causes`] — causal links between Sources from explicit markers;
//! * [`embed`] — feature-hashing embeddings;
//! * [`lines`], [`text`], [`lexicon`] — speaker lines, sentences, words and the
//!   built-in word lists.

use async_trait::async_trait;
use serde::Serialize;

use super::{
    AgentAction, CauseFinder, Completion, Embedder, EntityExtractor, ExtractedEntity,
    ExtractionContext, FoundCause, LlmError, LlmResult, NoteTaker, SourceFacts, SourceProcessor,
    Summarizer, SummaryTask, Usage, estimate_tokens,
};
use cosmo_core::domain::SourceType;

pub mod aliases;
pub mod causes;
pub mod classify;
pub mod clean;
pub mod concepts;
pub mod cues;
pub mod describe;
pub mod embed;
pub mod extract;
pub mod lexicon;
pub mod lifetime;
pub mod lines;
pub mod mentions;
pub mod names;
pub mod notes;
pub mod owner;
pub mod people;
pub mod relation;
pub mod summarize;
pub mod tags;
pub mod targets;
pub mod text;
pub mod wordpiece;

#[cfg(test)]
mod tests;

/// Provider name in the usage ledger.
pub const PROVIDER: &str = "offline";
/// Model name for the text tasks.
pub const TEXT_MODEL: &str = "offline-extractive-v1";
/// Model name for embeddings.
pub const EMBEDDING_MODEL: &str = "offline-static-v2";

/// The offline model; `dimensions` is the embedding size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OfflineModel {
    dimensions: usize,
}

impl OfflineModel {
    pub fn new(dimensions: usize) -> Self {
        Self { dimensions }
    }
}

fn usage(model: &str, prompt: &str, completion: &str) -> Usage {
    Usage {
        provider: PROVIDER.to_owned(),
        model: model.to_owned(),
        prompt_tokens: estimate_tokens(prompt),
        completion_tokens: estimate_tokens(completion),
    }
}

/// A completion whose token count is estimated from the input and the value as JSON.
fn done<T: Serialize>(prompt: &str, value: T) -> LlmResult<T> {
    let output = serde_json::to_string(&value).unwrap_or_default();
    Ok(Completion {
        usage: usage(TEXT_MODEL, prompt, &output),
        value,
    })
}

/// Inputs longer than this are worked on in the blocking pool: the offline model is CPU
/// work, and in the embedded default it shares the async runtime with the API, whose
/// requests must not wait behind a long transcript.
const INLINE_MAX: usize = 16 * 1024;

/// `work` on an input of `size` bytes: here if small, else on the blocking pool.
async fn cpu<T: Send + 'static>(
    size: usize,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, LlmError> {
    if size <= INLINE_MAX {
        return Ok(work());
    }
    tokio::task::spawn_blocking(work).await.map_err(|e| {
        if e.is_panic() {
            std::panic::resume_unwind(e.into_panic());
        }
        LlmError::Unavailable {
            provider: PROVIDER.to_owned(),
            message: "the offline model's task was cancelled".to_owned(),
        }
    })
}

#[async_trait]
impl SourceProcessor for OfflineModel {
    async fn clean_transcript(&self, transcript: &str) -> LlmResult<String> {
        let owned = transcript.to_owned();
        let cleaned = cpu(transcript.len(), move || clean::clean_transcript(&owned)).await?;
        Ok(Completion {
            usage: usage(TEXT_MODEL, transcript, &cleaned),
            value: cleaned,
        })
    }

    async fn describe(&self, source_type: SourceType, content: &str) -> LlmResult<SourceFacts> {
        let owned = content.to_owned();
        let facts = cpu(content.len(), move || {
            describe::describe(source_type, &owned)
        })
        .await?;
        done(content, facts)
    }
}

#[async_trait]
impl EntityExtractor for OfflineModel {
    async fn extract(
        &self,
        content: &str,
        context: &ExtractionContext,
    ) -> LlmResult<Vec<ExtractedEntity>> {
        let (owned, context) = (content.to_owned(), context.clone());
        let entities = cpu(content.len(), move || extract::extract(&owned, &context)).await?;
        done(content, entities)
    }
}

#[async_trait]
impl NoteTaker for OfflineModel {
    async fn take_notes(
        &self,
        content: &str,
        entities: &[ExtractedEntity],
        context: &ExtractionContext,
    ) -> LlmResult<Vec<AgentAction>> {
        let prompt = format!(
            "{content}\n{}",
            serde_json::to_string(entities).unwrap_or_default()
        );
        let (owned, entities, context) = (content.to_owned(), entities.to_vec(), context.clone());
        let actions = cpu(content.len(), move || {
            notes::take_notes(&owned, &entities, &context)
        })
        .await?;
        done(&prompt, actions)
    }
}

#[async_trait]
impl Summarizer for OfflineModel {
    async fn summarize(
        &self,
        task: SummaryTask,
        current: Option<&str>,
        inputs: &[String],
    ) -> LlmResult<String> {
        let prompt = format!("{}\n{}", current.unwrap_or(""), inputs.join("\n"));
        let (owned, inputs) = (current.map(str::to_owned), inputs.to_vec());
        let summary = cpu(prompt.len(), move || {
            summarize::summarize(task, owned.as_deref(), &inputs)
        })
        .await?;
        Ok(Completion {
            usage: usage(TEXT_MODEL, &prompt, &summary),
            value: summary,
        })
    }
}

#[async_trait]
impl Embedder for OfflineModel {
    fn dimensions(&self) -> usize {
        self.dimensions
    }

    async fn embed(&self, texts: &[String]) -> LlmResult<Vec<Vec<f32>>> {
        let (owned, dimensions) = (texts.to_vec(), self.dimensions);
        let size = texts.iter().map(String::len).sum();
        let vectors = cpu(size, move || {
            owned.iter().map(|t| embed::embed(t, dimensions)).collect()
        })
        .await?;
        Ok(Completion {
            usage: usage(EMBEDDING_MODEL, &texts.join("\n"), ""),
            value: vectors,
        })
    }
}

#[async_trait]
impl CauseFinder for OfflineModel {
    async fn find_causes(&self, effect: &str, earlier: &[String]) -> LlmResult<Vec<FoundCause>> {
        let size = effect.len() + earlier.iter().map(String::len).sum::<usize>();
        let (owned, context) = (effect.to_owned(), earlier.to_vec());
        let found = cpu(size, move || causes::find_causes(&owned, &context)).await?;
        done(effect, found)
    }
}
