//! The OpenAI-compatible provider (`async-openai`): any endpoint that speaks the OpenAI
//! chat-completions and embeddings protocol (OpenAI, Azure OpenAI's v1 API, vLLM, Ollama, llama.cpp).
//!
//! * Requests go through a tower stack: a per-request timeout and `async-openai`'s
//!   retry layer, which backs off on 429, 5xx and connection errors.
//! * Structured answers use JSON-schema response formats; an answer that does not parse
//!   or breaks the schema is asked for again (`malformed_retries`), then reported as
//!   [`LlmError::Malformed`]. Nothing is written until every answer of a job is in.
//! * Requests are built as JSON and answers read into small structs of our own (the
//!   `byot` API), so providers with slightly different answers still work.
//!
//! Each task's prompt sits next to the type of answer it expects: [`processing`],
//! [`extraction`], [`notes`], [`summaries`]; vectors in [`embeddings`].

use std::time::Duration;

use async_openai::Client;
use async_openai::config::OpenAIConfig;
use async_openai::error::OpenAIError;
use async_openai::middleware::ReqwestService;
use async_openai::middleware::retry::OpenAIRetryLayer;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::{Completion, LlmError, LlmResult, Usage};

pub use config::OpenAiConfig;

mod causes;
mod config;
mod embeddings;
mod extraction;
mod notes;
mod processing;
mod summaries;

const PROVIDER: &str = "openai";

/// The OpenAI-compatible provider; implements every model trait.
#[derive(Clone)]
pub struct OpenAiProvider {
    client: Client<OpenAIConfig>,
    cfg: OpenAiConfig,
    dimensions: usize,
}

impl std::fmt::Debug for OpenAiProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenAiProvider")
            .field("cfg", &self.cfg)
            .field("dimensions", &self.dimensions)
            .finish()
    }
}

impl OpenAiProvider {
    pub fn new(cfg: &OpenAiConfig, dimensions: usize) -> anyhow::Result<Self> {
        let http = crate::http::client_builder().build()?;
        let service = tower::ServiceBuilder::new()
            .timeout(Duration::from_secs(cfg.timeout_secs))
            .layer(OpenAIRetryLayer::new(cfg.transport_retries as usize))
            .service(ReqwestService::new(http.clone()));
        let config = OpenAIConfig::new()
            .with_api_base(cfg.base_url.trim_end_matches('/'))
            .with_api_key(&cfg.api_key);
        // `build`, not `with_config`: that one makes a reqwest client of its own.
        let client = Client::build(http, config).with_http_service(service);
        Ok(Self {
            client,
            cfg: cfg.clone(),
            dimensions,
        })
    }

    /// One chat completion; `body` is the request without `model`.
    async fn chat(&self, model: &str, mut body: Value) -> Result<ChatResponse, LlmError> {
        body["model"] = json!(model);
        self.client
            .chat()
            .create_byot::<Value, ChatResponse>(body)
            .await
            .map_err(map_error)
    }

    /// A plain-text answer to `system` + `user`.
    async fn text(&self, model: &str, system: &str, user: &str) -> LlmResult<String> {
        let mut usage = usage(model);
        for _ in 0..=self.cfg.malformed_retries {
            let answer = self
                .chat(model, json!({ "messages": messages(system, user) }))
                .await?;
            answer.add_usage(&mut usage);
            match answer.first_content() {
                Some(text) if !text.trim().is_empty() => {
                    return Ok(Completion {
                        value: text.trim().to_owned(),
                        usage,
                    });
                }
                _ => tracing::warn!(model, "empty answer; asking again"),
            }
        }
        Err(malformed(model, "the answer was empty"))
    }

    /// A structured answer matching `schema`, checked by `check`; asked for again while it
    /// does not parse or fails the check.
    async fn structured<T: DeserializeOwned>(
        &self,
        model: &str,
        system: &str,
        user: &str,
        (name, schema): (&str, Value),
        check: impl Fn(&T) -> Result<(), String>,
    ) -> LlmResult<T> {
        let body = json!({
            "messages": messages(system, user),
            "response_format": {
                "type": "json_schema",
                "json_schema": { "name": name, "schema": schema, "strict": true },
            },
        });
        let mut usage = usage(model);
        let mut last_problem = String::new();
        for attempt in 0..=self.cfg.malformed_retries {
            let answer = self.chat(model, body.clone()).await?;
            answer.add_usage(&mut usage);
            if let Some(refusal) = answer.refusal() {
                return Err(LlmError::Refused {
                    provider: PROVIDER.into(),
                    message: refusal,
                });
            }
            let parsed = answer
                .first_content()
                .ok_or_else(|| "no content".to_owned())
                .and_then(|c| {
                    serde_json::from_str::<T>(&c)
                        .map_err(|e| format!("does not match the schema: {e}"))
                })
                .and_then(|v| check(&v).map(|()| v));
            match parsed {
                Ok(value) => return Ok(Completion { value, usage }),
                Err(problem) => {
                    tracing::warn!(model, attempt, %problem, "malformed structured answer");
                    last_problem = problem;
                }
            }
        }
        Err(malformed(model, &last_problem))
    }
}

fn messages(system: &str, user: &str) -> Value {
    json!([{ "role": "system", "content": system }, { "role": "user", "content": user }])
}

fn usage(model: &str) -> Usage {
    Usage {
        provider: PROVIDER.into(),
        model: model.into(),
        prompt_tokens: 0,
        completion_tokens: 0,
    }
}

fn malformed(model: &str, problem: &str) -> LlmError {
    LlmError::Malformed {
        provider: PROVIDER.into(),
        message: format!("{model}: {problem}"),
    }
}

/// Maps transport and API errors to what a job can do about them.
fn map_error(e: OpenAIError) -> LlmError {
    let provider = PROVIDER.to_owned();
    match e {
        OpenAIError::ApiError(api) => {
            let status = api.status_code.as_u16();
            let message = api.api_error.to_string();
            match status {
                429 => LlmError::RateLimited { provider },
                408 => LlmError::Timeout { provider },
                // A wrong key or model is fixed by an operator; the job waits for that.
                401 | 403 | 404 => LlmError::Unavailable {
                    provider,
                    message: format!("{status} {message} (check models.openai settings)"),
                },
                s if s >= 500 => LlmError::Unavailable {
                    provider,
                    message: format!("{status} {message}"),
                },
                _ => LlmError::Refused {
                    provider,
                    message: format!("{status} {message}"),
                },
            }
        }
        OpenAIError::Reqwest(e) if e.is_timeout() => LlmError::Timeout { provider },
        OpenAIError::Reqwest(e) => LlmError::Unavailable {
            provider,
            message: e.to_string(),
        },
        OpenAIError::Boxed(e) if e.is::<tower::timeout::error::Elapsed>() => {
            LlmError::Timeout { provider }
        }
        OpenAIError::Boxed(e) => LlmError::Unavailable {
            provider,
            message: e.to_string(),
        },
        OpenAIError::JSONDeserialize(e, _) => LlmError::Malformed {
            provider,
            message: e.to_string(),
        },
        other => LlmError::Unavailable {
            provider,
            message: other.to_string(),
        },
    }
}

/// The parts of a chat completion Cosmo reads.
#[derive(Debug, Deserialize)]
struct ChatResponse {
    #[serde(default)]
    choices: Vec<Choice>,
    #[serde(default)]
    usage: Option<TokenUsage>,
}

#[derive(Debug, Deserialize)]
struct Choice {
    message: ChoiceMessage,
}

#[derive(Debug, Default, Deserialize)]
struct ChoiceMessage {
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    refusal: Option<String>,
    #[serde(default)]
    tool_calls: Option<Vec<ToolCall>>,
}

#[derive(Debug, Clone, Deserialize)]
struct ToolCall {
    id: String,
    function: FunctionCall,
}

#[derive(Debug, Clone, Deserialize)]
struct FunctionCall {
    name: String,
    #[serde(default)]
    arguments: String,
}

#[derive(Debug, Default, Deserialize)]
struct TokenUsage {
    #[serde(default)]
    prompt_tokens: u64,
    #[serde(default)]
    completion_tokens: u64,
}

impl ChatResponse {
    fn message(&self) -> Option<&ChoiceMessage> {
        self.choices.first().map(|c| &c.message)
    }

    fn first_content(&self) -> Option<String> {
        self.message().and_then(|m| m.content.clone())
    }

    fn refusal(&self) -> Option<String> {
        self.message()
            .and_then(|m| m.refusal.clone())
            .filter(|r| !r.is_empty())
    }

    fn add_usage(&self, usage: &mut Usage) {
        if let Some(u) = &self.usage {
            usage.prompt_tokens += u.prompt_tokens;
            usage.completion_tokens += u.completion_tokens;
        }
    }
}
