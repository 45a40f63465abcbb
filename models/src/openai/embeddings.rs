//! Embeddings of the configured dimension (`text-embedding-3-*` models are asked for it;
//! other models must produce it natively).

use async_trait::async_trait;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{OpenAiProvider, PROVIDER, map_error, usage};
use crate::{Completion, Embedder, LlmError, LlmResult};

#[derive(Debug, Deserialize)]
struct EmbeddingResponse {
    data: Vec<EmbeddingData>,
    #[serde(default)]
    usage: Option<EmbeddingUsage>,
}

#[derive(Debug, Deserialize)]
struct EmbeddingData {
    #[serde(default)]
    index: usize,
    embedding: Vec<f32>,
}

#[derive(Debug, Default, Deserialize)]
struct EmbeddingUsage {
    #[serde(default)]
    prompt_tokens: u64,
}

#[async_trait]
impl Embedder for OpenAiProvider {
    fn dimensions(&self) -> usize {
        self.dimensions
    }

    async fn embed(&self, texts: &[String]) -> LlmResult<Vec<Vec<f32>>> {
        let model = &self.cfg.embedding_model;
        let mut body = json!({ "model": model, "input": texts, "encoding_format": "float" });
        if model.starts_with("text-embedding-3") {
            body["dimensions"] = json!(self.dimensions);
        }
        let answer: EmbeddingResponse = self
            .client
            .embeddings()
            .create_byot::<Value, EmbeddingResponse>(body)
            .await
            .map_err(map_error)?;
        let mut data = answer.data;
        data.sort_by_key(|d| d.index);
        let bad = |message: String| LlmError::Malformed {
            provider: PROVIDER.into(),
            message,
        };
        if data.len() != texts.len() {
            return Err(bad(format!(
                "{} embeddings for {} texts",
                data.len(),
                texts.len()
            )));
        }
        if let Some(d) = data.iter().find(|d| d.embedding.len() != self.dimensions) {
            return Err(LlmError::Refused {
                provider: PROVIDER.into(),
                message: format!(
                    "{model} returned {} dimensions; models.embedding_dimensions is {}",
                    d.embedding.len(),
                    self.dimensions
                ),
            });
        }
        let mut u = usage(model);
        u.prompt_tokens = answer.usage.unwrap_or_default().prompt_tokens;
        Ok(Completion {
            value: data.into_iter().map(|d| d.embedding).collect(),
            usage: u,
        })
    }
}
