//! The offline provider: every model capability done with rules and statistics, no
//! network and no randomness — the same input always gives byte-identical output.
//! It is what air-gapped installs and zero-cost back-fills run, so it aims for sensible
//! results on real text, within the limits of heuristics:
//!
//! * [`clean`] — disfluency removal for `Speaker: text` transcripts;
//! * [`describe`] (with [`tags`]) — extractive summary, keywords and tags;
//! * [`extract`] (with [`names`], [`people`], [`aliases`], [`mentions`], [`owner`],
//!   [`concepts`]) — People, Entities and Concepts with confidence and subpoints;
//! * [`notes`] (with [`targets`], [`relation`], [`lifetime`]) — notes and co-occurrence
//!   relationships;
//! * [`summarize`] — extractive Storyline/Macro/description summaries;
//! * [`embed`] — feature-hashing embeddings;
//! * [`lines`], [`text`], [`lexicon`] — speaker lines, sentences, words and the
//!   built-in word lists.

use async_trait::async_trait;
use serde::Serialize;

use super::{
    AgentAction, Completion, Embedder, EntityExtractor, ExtractedEntity, ExtractionContext,
    LlmResult, NoteTaker, SourceFacts, SourceProcessor, Summarizer, SummaryTask, Usage,
    estimate_tokens,
};
use crate::domain::SourceType;

pub mod aliases;
pub mod clean;
pub mod concepts;
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

#[async_trait]
impl SourceProcessor for OfflineModel {
    async fn clean_transcript(&self, transcript: &str) -> LlmResult<String> {
        let cleaned = clean::clean_transcript(transcript);
        Ok(Completion {
            usage: usage(TEXT_MODEL, transcript, &cleaned),
            value: cleaned,
        })
    }

    async fn describe(&self, source_type: SourceType, content: &str) -> LlmResult<SourceFacts> {
        done(content, describe::describe(source_type, content))
    }
}

#[async_trait]
impl EntityExtractor for OfflineModel {
    async fn extract(
        &self,
        content: &str,
        context: &ExtractionContext,
    ) -> LlmResult<Vec<ExtractedEntity>> {
        done(content, extract::extract(content, context))
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
        done(&prompt, notes::take_notes(content, entities, context))
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
        let summary = summarize::summarize(task, current, inputs);
        let prompt = format!("{}\n{}", current.unwrap_or(""), inputs.join("\n"));
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
        let vectors = texts
            .iter()
            .map(|t| embed::embed(t, self.dimensions))
            .collect();
        Ok(Completion {
            usage: usage(EMBEDDING_MODEL, &texts.join("\n"), ""),
            value: vectors,
        })
    }
}
