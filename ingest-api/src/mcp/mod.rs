//! Cosmo as an MCP server (Model Context Protocol): the agent-facing operations of
//! [`ops`] as tools — `explore`, `context`, `remember_fact`, `correct_fact`,
//! `confirm_fact`, `explain_fact`, `list_facts`, `weak_facts`, `entity_info`,
//! `memory_stats`, and the session buffer's
//! `append_turns`, `end_session`, `read_session` — for one tenant, the
//! one of the API key the client presented. Tool inputs are the REST bodies (their JSON schemas are the
//! OpenAPI document's), answers are the REST answers as structured content, and a
//! refusal is a tool error whose structured content is REST's error body
//! (`{"error": {"code", "message", "field"?}}`).
//!
//! Two transports: [`http`] serves streamable HTTP at `POST /mcp` on the API's port,
//! stateless (each request stands alone, so any API process can answer it) and behind
//! the same bearer key as REST; [`serve_stdio`] serves stdin/stdout (`cosmo mcp`).

use std::sync::Arc;

use cosmo_shared::domain::input::fact::RememberFactBody;
use cosmo_shared::domain::input::read::{ContextBody, ExploreBody};
use cosmo_shared::domain::input::session::{EndSessionBody, TurnsBody};
use cosmo_shared::domain::input::{FieldError, from_value};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{CallToolResult, Implementation, JsonObject, ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::ToSchema;

use crate::AppState;
use crate::error::{ApiError, ApiResult};
use crate::extract::Tenant;
use crate::ops::sessions::SessionParams;
use crate::ops::{self, FactListParams, WeakParams};

mod schema;
mod transport;

use self::schema::correction_schema;
pub use self::schema::input_schema;
pub use self::transport::{http, serve_stdio};

/// One MCP session's server: the tools, acting for `tenant`.
#[derive(Debug, Clone)]
pub struct CosmoMcp {
    app: AppState,
    tenant: Tenant,
    /// The HTTP request's id (streamable HTTP), for the jobs a tool enqueues.
    request_id: Option<String>,
    tool_router: ToolRouter<Self>,
}

/// `confirm_fact`'s input.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FactIdArgs {
    /// The fact's id.
    pub fact_id: String,
}

/// `entity_info`'s input.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EntityArgs {
    /// The entity key of a Person, Concept or Entity (from `explore` results or a
    /// fact's `about`).
    pub entity_key: String,
}

/// `memory_stats`'s input.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UserArgs {
    /// A user of the caller's tenant.
    #[schema(
        min_length = 1,
        max_length = 128,
        pattern = r"^(?!\.\.?$)[A-Za-z0-9._@:-]+$"
    )]
    pub user_id: String,
}

#[tool_router]
impl CosmoMcp {
    pub fn new(app: AppState, tenant: Tenant, request_id: Option<String>) -> Self {
        Self {
            app,
            tenant,
            request_id,
            tool_router: Self::tool_router(),
        }
    }

    /// Search a user's long-term memory.
    #[tool(
        description = "Search a user's long-term memory: hybrid retrieval (meaning, words, \
            linked people and topics) over what they said, wrote and met. granularity 1 \
            returns Sources (episodes) and people/topics with relationships, 2 Storylines, \
            3 Macros (long-running themes). Each result says why it was returned. What it \
            returns counts as recalled (it grows stronger, as on the REST API).",
        input_schema = input_schema::<ExploreBody>(),
        annotations(read_only_hint = false, destructive_hint = false, open_world_hint = false)
    )]
    async fn explore(&self, args: JsonObject) -> CallToolResult {
        let request_id = self.request_id.clone();
        answer(ops::explore(&self.app, &self.tenant, Value::Object(args), request_id).await)
    }

    /// The best memory for a message, ready for a prompt.
    #[tool(
        description = "The most useful memory about a user for a message, within a token \
            budget, rendered as markdown (default), xml or json: their profile and confirmed \
            facts first, then relevant facts, the notes that match the message (each with its \
            date and Source), people and topics, Storylines and episodes. What it returns \
            counts as recalled.",
        input_schema = input_schema::<ContextBody>(),
        annotations(read_only_hint = false, destructive_hint = false, open_world_hint = false)
    )]
    async fn context(&self, args: JsonObject) -> CallToolResult {
        let request_id = self.request_id.clone();
        answer(ops::context(&self.app, &self.tenant, Value::Object(args), request_id).await)
    }

    #[tool(
        description = "Remember a fact about a user: free text, or a structured slot \
            (category, key, value — all three) that keeps one live value per user; a less \
            confident value never replaces a more confident one. `outcome` says whether it \
            was stored, kept_existing or unchanged.",
        input_schema = input_schema::<RememberFactBody>(),
        annotations(destructive_hint = false, open_world_hint = false)
    )]
    async fn remember_fact(&self, args: JsonObject) -> CallToolResult {
        answer(ops::remember_fact(&self.app, &self.tenant, Value::Object(args)).await)
    }

    #[tool(
        description = "Correct a fact: the new fact replaces `fact_id`, which ends but stays \
            explainable. A structured fact's correction repeats its category and key with \
            the new value.",
        input_schema = correction_schema(),
        annotations(destructive_hint = false, open_world_hint = false)
    )]
    async fn correct_fact(&self, mut args: JsonObject) -> CallToolResult {
        let id = match args.remove("fact_id") {
            Some(Value::String(id)) => id,
            None | Some(Value::Null) => return refusal(FieldError::new("fact_id", "is required")),
            Some(_) => return refusal(FieldError::new("fact_id", "must be a string")),
        };
        answer(ops::correct_fact(&self.app, &self.tenant, &id, Value::Object(args)).await)
    }

    #[tool(
        description = "Confirm a fact the user agreed to: confidence 1, protected from decay.",
        input_schema = input_schema::<FactIdArgs>(),
        annotations(destructive_hint = false, idempotent_hint = true, open_world_hint = false)
    )]
    async fn confirm_fact(&self, args: JsonObject) -> CallToolResult {
        let result = async {
            let args: FactIdArgs = from_value(Value::Object(args))?;
            ops::confirm_fact(&self.app, &self.tenant, &args.fact_id).await
        };
        answer(result.await)
    }

    #[tool(
        description = "A user's facts, newest first (live ones unless include_inactive).",
        input_schema = input_schema::<FactListParams>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn list_facts(&self, args: JsonObject) -> CallToolResult {
        let result = async {
            let params: FactListParams = from_value(Value::Object(args))?;
            ops::list_facts(&self.app, &self.tenant, params).await
        };
        answer(result.await)
    }

    #[tool(
        description = "Where a fact came from: the Sources it was taken from, the facts it \
            replaced (newest first), the fact that replaced it if any, and the people and \
            topics it is about. Recalls nothing.",
        input_schema = input_schema::<FactIdArgs>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn explain_fact(&self, args: JsonObject) -> CallToolResult {
        let result = async {
            let args: FactIdArgs = from_value(Value::Object(args))?;
            ops::explain_fact(&self.app, &self.tenant, &args.fact_id).await
        };
        answer(result.await)
    }

    #[tool(
        description = "A user's weak facts: live, unconfirmed facts with a low salience or \
            confidence (below 0.2 and 0.5 unless given), weakest first, to confirm with the \
            user (confirm_fact) or correct (correct_fact) before they fade.",
        input_schema = input_schema::<WeakParams>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn weak_facts(&self, args: JsonObject) -> CallToolResult {
        let result = async {
            let params: WeakParams = from_value(Value::Object(args))?;
            ops::weak_facts(&self.app, &self.tenant, params).await
        };
        answer(result.await)
    }

    #[tool(
        description = "A Person, Concept or Entity of a user's memory: description, live \
            notes, relationships, the Sources mentioning it and the Storylines about it. \
            Counts as a recall of the entity.",
        input_schema = input_schema::<EntityArgs>(),
        annotations(read_only_hint = false, destructive_hint = false, open_world_hint = false)
    )]
    async fn entity_info(&self, args: JsonObject) -> CallToolResult {
        let result = async {
            let args: EntityArgs = from_value(Value::Object(args))?;
            ops::entity_info(&self.app, &self.tenant, &args.entity_key).await
        };
        answer(result.await)
    }

    #[tool(
        description = "A user's memory in numbers: how many Sources, people, topics, \
            entities, relationships, Storylines, Macros and facts are candidate, active, \
            core or archived; Sources by processing status; links by type; orphan nodes \
            (linked to nothing); extractions pending, in progress, done or failed; the \
            text and vectors stored; and when each maintenance job last ran. Recalls \
            nothing.",
        input_schema = input_schema::<UserArgs>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn memory_stats(&self, args: JsonObject) -> CallToolResult {
        let result = async {
            let args: UserArgs = from_value(Value::Object(args))?;
            ops::memory_stats(&self.app, &self.tenant, &args.user_id).await
        };
        answer(result.await)
    }

    #[tool(
        description = "Append turns of a live chat to a user's session (started by its \
            first append; `session_id` is yours to choose). The latest turns stay as working \
            memory, which `context` with the same `session_id` returns as 'Recent \
            conversation'; older ones are compressed into conversation Sources, each turn \
            exactly once. Appending to an ended session is refused (conflict).",
        input_schema = with_session_id(input_schema::<TurnsBody>()),
        annotations(destructive_hint = false, idempotent_hint = false, open_world_hint = false)
    )]
    async fn append_turns(&self, mut args: JsonObject) -> CallToolResult {
        let session_id = match take_session_id(&mut args) {
            Ok(id) => id,
            Err(e) => return refusal(e),
        };
        let request_id = self.request_id.clone();
        answer(
            ops::sessions::append_turns(
                &self.app,
                &self.tenant,
                &session_id,
                Value::Object(args),
                request_id,
            )
            .await,
        )
    }

    #[tool(
        description = "End a user's session: the turns still in its buffer become one last \
            conversation Source, and it takes no more turns. Ending it again changes nothing.",
        input_schema = with_session_id(input_schema::<EndSessionBody>()),
        annotations(destructive_hint = false, idempotent_hint = true, open_world_hint = false)
    )]
    async fn end_session(&self, mut args: JsonObject) -> CallToolResult {
        let session_id = match take_session_id(&mut args) {
            Ok(id) => id,
            Err(e) => return refusal(e),
        };
        let request_id = self.request_id.clone();
        answer(
            ops::sessions::end_session(
                &self.app,
                &self.tenant,
                &session_id,
                Value::Object(args),
                request_id,
            )
            .await,
        )
    }

    #[tool(
        description = "A user's session: the turns in its buffer, the Sources made of its \
            older turns, and whether it has ended.",
        input_schema = with_session_id(input_schema::<SessionParams>()),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn read_session(&self, mut args: JsonObject) -> CallToolResult {
        let result = async {
            let session_id = take_session_id(&mut args)?;
            let params: SessionParams = from_value(Value::Object(args))?;
            ops::sessions::read_session(&self.app, &self.tenant, &session_id, params).await
        };
        answer(result.await)
    }
}

/// The `session_id` argument of a session tool, taken out of its arguments (the rest is
/// the REST body).
fn take_session_id(args: &mut JsonObject) -> Result<String, FieldError> {
    match args.remove("session_id") {
        Some(Value::String(id)) => Ok(id),
        None | Some(Value::Null) => Err(FieldError::new("session_id", "is required")),
        Some(_) => Err(FieldError::new("session_id", "must be a string")),
    }
}

/// A session tool's input: the REST body plus the `session_id` of the path.
fn with_session_id(body: Arc<JsonObject>) -> Arc<JsonObject> {
    let mut schema = (*body).clone();
    if let Some(Value::Object(properties)) = schema.get_mut("properties") {
        properties.insert(
            "session_id".into(),
            json!({ "type": "string", "minLength": 1, "maxLength": 128,
                    "pattern": r"^(?!\.\.?$)[A-Za-z0-9._@:-]+$",
                    "description": "The session's id, chosen by the client." }),
        );
    }
    let required = schema.entry("required").or_insert_with(|| json!([]));
    if let Value::Array(required) = required {
        required.insert(0, json!("session_id"));
    }
    Arc::new(schema)
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for CosmoMcp {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("cosmo", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "Cosmo is the user's long-term memory. Use `context` before answering to \
                 recall what matters, `explore` to search, `entity_info` to read about a \
                 person or topic, `remember_fact` / `correct_fact` / `confirm_fact` to \
                 keep what the user states about themselves (`weak_facts` lists those worth \
                 confirming, `explain_fact` where one came from), and `memory_stats` to see \
                 how much is remembered. In a live chat, `append_turns` keeps the conversation \
                 (pass the same `session_id` to `context`) and `end_session` closes it. Every tool names the user \
                 (`user_id`) or a memory of theirs.",
            )
    }
}

/// A tool's answer: the REST answer as structured content, or REST's error body as a
/// tool error.
fn answer<T: Serialize>(result: ApiResult<T>) -> CallToolResult {
    match result.and_then(|v| serde_json::to_value(v).map_err(|e| ApiError::Internal(e.into()))) {
        Ok(value) => CallToolResult::structured(value),
        Err(e) => CallToolResult::structured_error(e.body()),
    }
}

fn refusal(e: FieldError) -> CallToolResult {
    answer::<()>(Err(e.into()))
}
