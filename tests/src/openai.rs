//! An in-process HTTP server speaking the OpenAI chat-completions and embeddings
//! protocol: the only stand-in the tests use (no model API is reachable here). It
//! records every request and answers with whatever the test's responder decides, so
//! tests check what Cosmo sends and feed it valid, malformed and failing answers.

use std::sync::{Arc, Mutex};

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use serde_json::{Value, json};

/// One request as the server saw it.
#[derive(Debug, Clone)]
pub struct Seen {
    /// `chat` or `embeddings`.
    pub endpoint: &'static str,
    pub authorization: Option<String>,
    pub body: Value,
}

impl Seen {
    /// The `response_format.json_schema.name` of a structured chat request.
    pub fn schema_name(&self) -> Option<&str> {
        self.body["response_format"]["json_schema"]["name"].as_str()
    }

    pub fn has_tools(&self) -> bool {
        self.body["tools"].is_array()
    }

    pub fn system_prompt(&self) -> &str {
        self.body["messages"][0]["content"].as_str().unwrap_or("")
    }
}

pub type Responder = dyn Fn(&Seen, usize) -> (u16, Value) + Send + Sync;

#[derive(Clone)]
struct Shared {
    seen: Arc<Mutex<Vec<Seen>>>,
    respond: Arc<Responder>,
    /// How long a chat completion takes to answer (embeddings answer at once).
    chat_delay: std::time::Duration,
}

/// A running stand-in; stops with the test's runtime.
#[derive(Clone)]
pub struct StandIn {
    /// What to put in `models.openai.base_url`.
    pub base_url: String,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl StandIn {
    /// Serves on a free port; `respond(request, index)` answers request number `index`
    /// (counting all requests) with a status and a JSON body.
    pub async fn start(
        respond: impl Fn(&Seen, usize) -> (u16, Value) + Send + Sync + 'static,
    ) -> Self {
        Self::start_slow(std::time::Duration::ZERO, respond).await
    }

    /// [`StandIn::start`], answering each chat completion only after `chat_delay`, as a
    /// hosted model takes seconds (requests are served concurrently meanwhile).
    pub async fn start_slow(
        chat_delay: std::time::Duration,
        respond: impl Fn(&Seen, usize) -> (u16, Value) + Send + Sync + 'static,
    ) -> Self {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let shared = Shared {
            seen: seen.clone(),
            respond: Arc::new(respond),
            chat_delay,
        };
        let app = axum::Router::new()
            .route(
                "/v1/chat/completions",
                post(|s, h, b| answer("chat", s, h, b)),
            )
            .route(
                "/v1/embeddings",
                post(|s, h, b| answer("embeddings", s, h, b)),
            )
            .with_state(shared);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let base_url = format!("http://{}/v1", listener.local_addr().expect("addr"));
        tokio::spawn(async move { axum::serve(listener, app).await });
        Self { base_url, seen }
    }

    pub fn requests(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

async fn answer(
    endpoint: &'static str,
    State(s): State<Shared>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> (StatusCode, Json<Value>) {
    let seen = Seen {
        endpoint,
        authorization: headers
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned),
        body,
    };
    let index = {
        let mut all = s.seen.lock().unwrap();
        all.push(seen.clone());
        all.len() - 1
    };
    let (status, body) = (s.respond)(&seen, index);
    if endpoint == "chat" && !s.chat_delay.is_zero() {
        tokio::time::sleep(s.chat_delay).await;
    }
    (
        StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
        Json(body),
    )
}

fn usage(prompt: u64, completion: u64) -> Value {
    json!({ "prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion })
}

/// A chat completion whose message is `content` (JSON answers are passed as text).
pub fn chat(content: &str, prompt_tokens: u64, completion_tokens: u64) -> (u16, Value) {
    (
        200,
        json!({
            "id": "chatcmpl-standin", "object": "chat.completion", "created": 1, "model": "stand-in",
            "choices": [{ "index": 0, "finish_reason": "stop",
                          "message": { "role": "assistant", "content": content } }],
            "usage": usage(prompt_tokens, completion_tokens),
        }),
    )
}

/// A chat completion whose message calls tools: `(name, arguments)` pairs.
pub fn tool_calls(
    calls: &[(&str, Value)],
    prompt_tokens: u64,
    completion_tokens: u64,
) -> (u16, Value) {
    let calls: Vec<Value> = calls
        .iter()
        .enumerate()
        .map(|(i, (name, args))| json!({ "id": format!("call_{i}"), "type": "function",
                                         "function": { "name": name, "arguments": args.to_string() } }))
        .collect();
    (
        200,
        json!({
            "id": "chatcmpl-standin", "object": "chat.completion", "created": 1, "model": "stand-in",
            "choices": [{ "index": 0, "finish_reason": "tool_calls",
                          "message": { "role": "assistant", "content": null, "tool_calls": calls } }],
            "usage": usage(prompt_tokens, completion_tokens),
        }),
    )
}

/// Embeddings for every input of the request, `dims` long, distinct per input.
pub fn embeddings(request: &Seen, dims: usize) -> (u16, Value) {
    let inputs = request.body["input"].as_array().map_or(1, Vec::len);
    let data: Vec<Value> = (0..inputs)
        .map(|i| {
            let v: Vec<f32> = (0..dims)
                .map(|d| if d == i % dims { 1.0 } else { 0.0 })
                .collect();
            json!({ "object": "embedding", "index": i, "embedding": v })
        })
        .collect();
    (
        200,
        json!({ "object": "list", "data": data, "model": "stand-in", "usage": { "prompt_tokens": 7, "total_tokens": 7 } }),
    )
}

/// An OpenAI-style error answer.
pub fn error(status: u16, message: &str) -> (u16, Value) {
    (
        status,
        json!({ "error": { "message": message, "type": "server_error", "param": null, "code": null } }),
    )
}
