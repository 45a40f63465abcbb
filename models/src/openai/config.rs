//! `[models.openai]`: the OpenAI-compatible server and a model per task.

use serde::{Deserialize, Serialize};

/// `[models.openai]`: the endpoint and a model per task.
#[derive(Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OpenAiConfig {
    /// e.g. `https://api.openai.com/v1`, Azure OpenAI's
    /// `https://<resource>.openai.azure.com/openai/v1`, a vLLM/Ollama/llama.cpp server's `/v1`.
    pub base_url: String,
    /// Secret: never logged.
    pub api_key: String,
    pub processing_model: String,
    pub extraction_model: String,
    pub notes_model: String,
    pub summaries_model: String,
    /// Used for consolidations with fewer than three notes: little to merge, so a
    /// cheaper model does.
    pub cheap_summaries_model: String,
    pub causes_model: String,
    pub embedding_model: String,
    /// Per request.
    pub timeout_secs: u64,
    /// Extra attempts when the answer does not parse or does not match its schema.
    pub malformed_retries: u32,
    /// Attempts on 429/5xx/timeouts within one job attempt, with exponential backoff;
    /// the job's own retries take over after that.
    pub transport_retries: u32,
    /// Most rounds of tool calls the note-taking agent may take.
    pub max_agent_rounds: u32,
}

impl Default for OpenAiConfig {
    fn default() -> Self {
        Self {
            base_url: "https://api.openai.com/v1".into(),
            api_key: String::new(),
            processing_model: "gpt-5-nano".into(),
            extraction_model: "gpt-4.1-mini".into(),
            notes_model: "gpt-4.1-mini".into(),
            summaries_model: "gpt-4.1-mini".into(),
            cheap_summaries_model: "gpt-4.1-nano".into(),
            causes_model: "gpt-4.1-mini".into(),
            embedding_model: "text-embedding-3-small".into(),
            timeout_secs: 120,
            malformed_retries: 2,
            transport_retries: 4,
            max_agent_rounds: 6,
        }
    }
}

impl std::fmt::Debug for OpenAiConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenAiConfig")
            .field("base_url", &self.base_url)
            .field("api_key", &if self.api_key.is_empty() { "" } else { "***" })
            .field("processing_model", &self.processing_model)
            .field("extraction_model", &self.extraction_model)
            .field("notes_model", &self.notes_model)
            .field("summaries_model", &self.summaries_model)
            .field("cheap_summaries_model", &self.cheap_summaries_model)
            .field("embedding_model", &self.embedding_model)
            .field("timeout_secs", &self.timeout_secs)
            .field("malformed_retries", &self.malformed_retries)
            .field("transport_retries", &self.transport_retries)
            .field("max_agent_rounds", &self.max_agent_rounds)
            .finish()
    }
}
