//! Parse, don't validate: the JSON bodies of the write endpoints become checked domain
//! values here, or a [`FieldError`] naming the offending field.

use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::raw::RawContent;
use super::{Lifecycle, NewSource, Sensitivity, SourceType, TtlPolicy};
use crate::ids;

pub mod fact;
mod fields;
pub mod read;
pub mod session;
mod user;

pub(crate) use self::fields::timestamp;
use self::fields::{context_type, enum_field, identifier, key_field, provenance};
pub use self::fields::{from_value, idempotency_header, parse_user_id, whole_number};
pub use self::user::{ExtractionRequestInput, ProfileInput};

/// The most users one Source may be shared with, the owner included.
pub const MAX_PARTICIPANTS: usize = 200;

/// Why an input was refused, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct FieldError {
    pub field: String,
    pub message: String,
    /// Machine-readable code; `validation_failed` unless more specific.
    pub code: &'static str,
}

impl FieldError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            message: message.into(),
            code: "validation_failed",
        }
    }

    fn with_code(mut self, code: &'static str) -> Self {
        self.code = code;
        self
    }
}

/// The body of `POST /api/sources`: one captured item of one user.
// The OpenAPI document describes this struct: its `#[schema]` limits are the checks
// `SourceInput::parse` makes.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"user_id": "alex", "source_type": "text-note",
    "started_at": "2026-11-22T09:30:00Z",
    "raw_content": {"title": "Lunch", "content": "Lunch with Sarah Chen from Acme Corp. \
Sarah Chen leads the hiring plan at Acme Corp and wants it done by March."}}))]
pub struct SourceBody {
    /// The owner: the user whose memory this is (claimed for the caller's tenant if new).
    #[serde(default)]
    #[schema(value_type = String, required = true, min_length = 1, max_length = 128,
        pattern = r"^(?!\.\.?$)[A-Za-z0-9._@:-]+$")]
    pub user_id: Value,
    #[serde(default)]
    #[schema(value_type = super::SourceType, required = true)]
    pub source_type: Value,
    /// The item as captured; its shape depends on `source_type` (see `RawContent`). Kept
    /// verbatim.
    #[schema(schema_with = super::raw::schema::raw_content, required = true)]
    pub raw_content: Option<Value>,
    #[schema(
        min_length = 1,
        max_length = 128,
        pattern = r"^(?!\.\.?$)[A-Za-z0-9._@:-]+$"
    )]
    pub team_id: Option<String>,
    /// Other users who took part; each gets their own extraction when they ask for it.
    /// At most 200 users with the owner.
    #[schema(max_items = 199, inline, value_type = Option<Vec<UserId>>)]
    pub participants: Option<Vec<String>>,
    /// Free label of the setting (`1:1`, `standup`…), 1 to 64 characters (trimmed).
    #[schema(
        min_length = 1,
        max_length = 64,
        pattern = r"^[^\u0000-\u001F\u007F-\u009F]*[^\s\u0000-\u001F\u007F-\u009F][^\u0000-\u001F\u007F-\u009F]*$"
    )]
    pub context_type: Option<String>,
    /// When it happened (RFC 3339).
    #[schema(format = DateTime)]
    pub started_at: Option<String>,
    /// When it ended (RFC 3339), not before `started_at`.
    #[schema(format = DateTime)]
    pub ended_at: Option<String>,
    /// Where it came from; any JSON object. `confidence` (0 to 1, default 1) becomes
    /// the Source's confidence.
    #[schema(value_type = Option<Object>)]
    pub provenance: Option<Value>,
    #[schema(value_type = Option<super::Sensitivity>, default = "normal")]
    pub sensitivity: Option<String>,
    #[schema(value_type = Option<super::TtlPolicy>, default = "decay")]
    pub ttl_policy: Option<String>,
    /// The item's id in the integration; re-posting it is idempotent (1 to 256
    /// printable characters).
    #[schema(
        min_length = 1,
        max_length = 256,
        pattern = r"^[^\u0000-\u001F\u007F-\u009F]+$"
    )]
    pub external_id: Option<String>,
}

/// A user id: 1 to 128 letters, digits and `. _ - @ :`, not `.` or `..` (the schema of
/// the user ids of a list).
#[derive(ToSchema)]
#[schema(
    min_length = 1,
    max_length = 128,
    pattern = r"^(?!\.\.?$)[A-Za-z0-9._@:-]+$"
)]
#[allow(dead_code)]
pub struct UserId(String);

/// A checked `POST /api/sources` body. Turned into a [`NewSource`] once the caller's
/// idempotency key and the time are known.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceInput {
    pub user_id: String,
    pub team_id: Option<String>,
    pub participants: Vec<String>,
    pub source_type: SourceType,
    pub raw_content: Value,
    pub parsed: RawContent,
    pub provenance: Option<Value>,
    pub context_type: Option<String>,
    pub started_at: Option<DateTime<Utc>>,
    pub ended_at: Option<DateTime<Utc>>,
    pub sensitivity: Sensitivity,
    pub ttl_policy: TtlPolicy,
    pub external_id: Option<String>,
    /// [`ids::content_hash`] of the item, computed once when it is parsed.
    pub content_hash: String,
}

impl SourceInput {
    pub fn parse(body: Value) -> Result<Self, FieldError> {
        let body: SourceBody = from_value(body)?;
        let user_id = match body.user_id {
            Value::String(s) => parse_user_id("user_id", &s)?,
            Value::Null => return Err(FieldError::new("user_id", "is required")),
            _ => return Err(FieldError::new("user_id", "must be a string")),
        };
        let source_type = match body.source_type {
            Value::String(s) => s.parse::<SourceType>().map_err(|e| {
                FieldError::new("source_type", e.to_string()).with_code("unknown_source_type")
            })?,
            Value::Null => return Err(FieldError::new("source_type", "is required")),
            _ => return Err(FieldError::new("source_type", "must be a string")),
        };
        let mut raw_content = body
            .raw_content
            .ok_or_else(|| FieldError::new("raw_content", "is required"))?;
        let parsed = RawContent::parse(source_type, &raw_content)?;
        if let Some(obj) = raw_content.as_object_mut() {
            obj.entry("type")
                .or_insert_with(|| Value::String(source_type.as_str().to_owned()));
        }
        let started_at = body
            .started_at
            .as_deref()
            .map(|s| timestamp("started_at", s))
            .transpose()?;
        let ended_at = body
            .ended_at
            .as_deref()
            .map(|s| timestamp("ended_at", s))
            .transpose()?;
        if let (Some(start), Some(end)) = (started_at, ended_at)
            && end < start
        {
            return Err(FieldError::new("ended_at", "must not be before started_at"));
        }
        // Counted before any per-element work: a long list is refused at the cost of
        // reading its length.
        let named = body.participants.unwrap_or_default();
        if named.len() >= MAX_PARTICIPANTS {
            return Err(FieldError::new(
                "participants",
                format!("at most {} other users", MAX_PARTICIPANTS - 1),
            ));
        }
        // The owner first, then each other user once, in the order given.
        let mut participants = vec![user_id.clone()];
        let mut seen: std::collections::HashSet<String> = [user_id.clone()].into();
        for (i, p) in named.iter().enumerate() {
            let p = parse_user_id(&format!("participants[{i}]"), p)?;
            if seen.insert(p.clone()) {
                participants.push(p);
            }
        }
        Ok(Self {
            team_id: body
                .team_id
                .as_deref()
                .map(|t| identifier("team_id", t))
                .transpose()?,
            context_type: body.context_type.as_deref().map(context_type).transpose()?,
            provenance: body.provenance.map(provenance).transpose()?,
            sensitivity: enum_field("sensitivity", body.sensitivity)?.unwrap_or_default(),
            ttl_policy: enum_field("ttl_policy", body.ttl_policy)?.unwrap_or_default(),
            external_id: body
                .external_id
                .as_deref()
                .map(|e| key_field("external_id", e))
                .transpose()?,
            content_hash: ids::content_hash(source_type, &raw_content, started_at),
            user_id,
            participants,
            source_type,
            raw_content,
            parsed,
            started_at,
            ended_at,
        })
    }

    /// All users this Source names: the owner first, then the other participants.
    pub fn users(&self) -> Vec<String> {
        let mut users = vec![self.user_id.clone()];
        users.extend(
            self.participants
                .iter()
                .filter(|p| **p != self.user_id)
                .cloned(),
        );
        users
    }

    /// The same input with its users as the graph knows them: `users` (as
    /// [`Self::users`] lists them) become `graph_user_ids`, position by position.
    pub fn with_graph_user_ids(mut self, users: &[String], graph_user_ids: &[String]) -> Self {
        let graph_id = |user: &mut String| {
            if let Some(graph) = users
                .iter()
                .position(|u| u == user)
                .and_then(|i| graph_user_ids.get(i))
            {
                user.clone_from(graph);
            }
        };
        graph_id(&mut self.user_id);
        self.participants.iter_mut().for_each(graph_id);
        self
    }

    /// The de-duplication key and the content hash. The key is `external_id`, else the
    /// `Idempotency-Key` header, else the content hash, so that re-posting the same item
    /// for the same user yields the same Source.
    fn keys(&self, idempotency_header: Option<&str>) -> (String, String) {
        let content_hash = self.content_hash.clone();
        let idempotency_key = match (&self.external_id, idempotency_header) {
            (Some(external), _) => format!("external:{external}"),
            (None, Some(header)) => format!("request:{header}"),
            (None, None) => format!("content:{content_hash}"),
        };
        (idempotency_key, content_hash)
    }

    /// The entity key this item has as a Source of `owner` (a graph user id), and its
    /// content hash: what an existing Source of that key must match to be a duplicate.
    pub fn identity_for(&self, owner: &str, idempotency_header: Option<&str>) -> (String, String) {
        let (idempotency_key, content_hash) = self.keys(idempotency_header);
        (ids::source_key(owner, &idempotency_key), content_hash)
    }

    /// Fixes the de-duplication key and the entity key (see [`Self::identity_for`]).
    pub fn into_new_source(self, idempotency_header: Option<&str>, at: DateTime<Utc>) -> NewSource {
        let (idempotency_key, content_hash) = self.keys(idempotency_header);
        let confidence = self
            .provenance
            .as_ref()
            .and_then(|p| p.get("confidence"))
            .and_then(Value::as_f64)
            .unwrap_or(1.0);
        NewSource {
            entity_key: ids::source_key(&self.user_id, &idempotency_key),
            lifecycle: Lifecycle::new(confidence, self.ttl_policy, at),
            user_id: self.user_id,
            team_id: self.team_id,
            participants: self.participants,
            source_type: self.source_type,
            raw_content: self.raw_content,
            provenance: self.provenance,
            context_type: self.context_type,
            started_at: self.started_at,
            ended_at: self.ended_at,
            sensitivity: self.sensitivity,
            idempotency_key,
            external_id: self.external_id,
            content_hash,
        }
    }
}

#[cfg(test)]
mod tests;
