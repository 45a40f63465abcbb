//! The bodies and query strings of the read-side endpoints: explore, context and
//! lifecycle control (facts in `fact.rs`), checked into domain values or a
//! [`FieldError`] naming the field.
//! The `…Body` structs are the bodies as posted: the parsers deserialise them, and the
//! OpenAPI document and the MCP tools describe them (their `#[schema]` limits are the
//! checks the parsers make).

use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::{FieldError, from_value, parse_user_id, timestamp};

/// Most queries in one explore call.
pub const MAX_QUERIES: usize = 10;
/// Most results per list.
pub const MAX_LIMIT: usize = 100;
/// Longest query or message, in characters.
pub const MAX_QUERY_CHARS: usize = 4000;
/// Largest context budget, in tokens.
pub const MAX_BUDGET_TOKENS: u64 = 16_000;
/// Longest fact text, in characters.
pub const MAX_FACT_CHARS: usize = 2000;

/// How much detail an explore call returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, ToSchema)]
pub enum Granularity {
    /// Sources and semantic nodes with their relationships.
    Micro = 1,
    /// Storylines with their Sources' metadata.
    Meso = 2,
    /// Macros with their Storylines' metadata.
    Macro = 3,
}

#[derive(Debug, Clone, PartialEq)]
pub struct QueryInput {
    pub query: String,
    /// Cosine similarity below which the vector signal ignores a candidate; the
    /// configured default when absent.
    pub threshold: Option<f64>,
}

/// A checked `POST /api/explore` body.
#[derive(Debug, Clone, PartialEq)]
pub struct ExploreInput {
    pub user_id: String,
    pub queries: Vec<QueryInput>,
    pub granularity: Granularity,
    pub limit: usize,
    pub include_archived: bool,
    /// Return each Source's processed content too (granularity 1).
    pub include_content: bool,
    pub since: Option<DateTime<Utc>>,
    pub until: Option<DateTime<Utc>>,
}

/// The body of `POST /api/explore` (and the MCP tool `explore`).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"user_id": "alex", "queries": [{"query": "hiring plan at Acme Corp"}],
    "granularity": 1, "limit": 5}))]
pub struct ExploreBody {
    /// A user of the caller's tenant.
    #[schema(
        min_length = 1,
        max_length = 128,
        pattern = r"^(?!\.\.?$)[A-Za-z0-9._@:-]+$"
    )]
    pub user_id: String,
    /// One to ten queries; their results are fused into one ranking.
    #[schema(min_items = 1, max_items = 10)]
    pub queries: Vec<QueryBody>,
    /// 1: Sources and semantic nodes; 2: Storylines; 3: Macros.
    #[serde(default, deserialize_with = "super::whole_number")]
    #[schema(minimum = 1, maximum = 3, default = 1)]
    pub granularity: Option<u8>,
    /// Results per list.
    #[serde(default, deserialize_with = "super::whole_number")]
    #[schema(minimum = 1, maximum = 100, default = 10)]
    pub limit: Option<usize>,
    /// Also return archived memories.
    #[serde(default)]
    pub include_archived: bool,
    /// Also return each Source's processed content (granularity 1).
    #[serde(default)]
    pub include_content: bool,
    /// Only memories of events at or after this time (RFC 3339).
    #[schema(format = DateTime)]
    pub since: Option<String>,
    /// Only memories of events before this time (RFC 3339); after `since`.
    #[schema(format = DateTime)]
    pub until: Option<String>,
}

/// One query of an explore call.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct QueryBody {
    /// What to look for, in words (trimmed; 1 to 4000 characters).
    #[schema(
        min_length = 1,
        max_length = 4000,
        pattern = r"^[^\u0000-\u0008\u000B-\u001F\u007F-\u009F]*[^\s\u0000-\u001F\u007F-\u009F][^\u0000-\u0008\u000B-\u001F\u007F-\u009F]*$"
    )]
    pub query: String,
    /// Cosine similarity below which the vector signal ignores a candidate; default
    /// `retrieval.vector_threshold`.
    #[schema(minimum = 0.0, maximum = 1.0)]
    pub threshold: Option<f64>,
}

impl ExploreInput {
    pub fn parse(body: Value) -> Result<Self, FieldError> {
        let b: ExploreBody = from_value(body)?;
        if b.queries.is_empty() || b.queries.len() > MAX_QUERIES {
            return Err(FieldError::new(
                "queries",
                format!("must hold 1 to {MAX_QUERIES} queries"),
            ));
        }
        let queries = b
            .queries
            .into_iter()
            .enumerate()
            .map(|(i, q)| {
                Ok(QueryInput {
                    query: text(&format!("queries[{i}].query"), &q.query, MAX_QUERY_CHARS)?,
                    threshold: q
                        .threshold
                        .map(|t| unit(&format!("queries[{i}].threshold"), t))
                        .transpose()?,
                })
            })
            .collect::<Result<_, FieldError>>()?;
        let granularity = match b.granularity.unwrap_or(1) {
            1 => Granularity::Micro,
            2 => Granularity::Meso,
            3 => Granularity::Macro,
            _ => return Err(FieldError::new("granularity", "must be 1, 2 or 3")),
        };
        let (since, until) = range(b.since, b.until)?;
        Ok(Self {
            user_id: parse_user_id("user_id", &b.user_id)?,
            queries,
            granularity,
            limit: limit("limit", b.limit, 10)?,
            include_archived: b.include_archived,
            include_content: b.include_content,
            since,
            until,
        })
    }
}

/// How `POST /api/context` renders memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ContextFormat {
    Markdown,
    Xml,
    Json,
}

/// A checked `POST /api/context` body.
#[derive(Debug, Clone, PartialEq)]
pub struct ContextInput {
    pub user_id: String,
    pub message: String,
    /// Token budget; the configured default when absent.
    pub budget_tokens: Option<u64>,
    pub format: ContextFormat,
    pub since: Option<DateTime<Utc>>,
    pub until: Option<DateTime<Utc>>,
    /// A live session of the user's: its latest turns are added as "Recent
    /// conversation".
    pub session_id: Option<String>,
}

/// The body of `POST /api/context` (and the MCP tool `context`).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"user_id": "alex",
    "message": "What did Sarah want done by March?", "budget_tokens": 800}))]
pub struct ContextBody {
    /// A user of the caller's tenant.
    #[schema(
        min_length = 1,
        max_length = 128,
        pattern = r"^(?!\.\.?$)[A-Za-z0-9._@:-]+$"
    )]
    pub user_id: String,
    /// The message the memory is for (trimmed; 1 to 4000 characters).
    #[schema(
        min_length = 1,
        max_length = 4000,
        pattern = r"^[^\u0000-\u0008\u000B-\u001F\u007F-\u009F]*[^\s\u0000-\u001F\u007F-\u009F][^\u0000-\u0008\u000B-\u001F\u007F-\u009F]*$"
    )]
    pub message: String,
    /// Token budget of the rendered context; default `retrieval.context_budget_tokens`.
    #[serde(default, deserialize_with = "super::whole_number")]
    #[schema(minimum = 1, maximum = 16000)]
    pub budget_tokens: Option<u64>,
    /// How to render it.
    #[schema(value_type = Option<ContextFormat>, default = "markdown")]
    pub format: Option<String>,
    /// Only memories of events at or after this time (RFC 3339).
    #[schema(format = DateTime)]
    pub since: Option<String>,
    /// Only memories of events before this time (RFC 3339); after `since`.
    #[schema(format = DateTime)]
    pub until: Option<String>,
    /// A session of the user's (`POST /api/sessions/{session_id}/turns`): its latest
    /// turns still in the buffer (at most `sessions.keep_turns`) are added as "Recent
    /// conversation". A session with no turns adds nothing.
    #[schema(
        min_length = 1,
        max_length = 128,
        pattern = r"^(?!\.\.?$)[A-Za-z0-9._@:-]+$"
    )]
    pub session_id: Option<String>,
}

impl ContextInput {
    pub fn parse(body: Value) -> Result<Self, FieldError> {
        let b: ContextBody = from_value(body)?;
        let format = match b.format.as_deref().unwrap_or("markdown") {
            "markdown" => ContextFormat::Markdown,
            "xml" => ContextFormat::Xml,
            "json" => ContextFormat::Json,
            _ => {
                return Err(FieldError::new("format", "must be markdown, xml or json"));
            }
        };
        if let Some(t) = b.budget_tokens
            && !(1..=MAX_BUDGET_TOKENS).contains(&t)
        {
            return Err(FieldError::new(
                "budget_tokens",
                format!("must be from 1 to {MAX_BUDGET_TOKENS}"),
            ));
        }
        let (since, until) = range(b.since, b.until)?;
        Ok(Self {
            user_id: parse_user_id("user_id", &b.user_id)?,
            message: text("message", &b.message, MAX_QUERY_CHARS)?,
            budget_tokens: b.budget_tokens,
            format,
            since,
            until,
            session_id: b
                .session_id
                .as_deref()
                .map(|s| super::session::parse_session_id("session_id", s))
                .transpose()?,
        })
    }
}

/// A trimmed, non-empty text of at most `max` characters.
pub(super) fn text(field: &str, s: &str, max: usize) -> Result<String, FieldError> {
    let t = s.trim();
    if t.is_empty() {
        return Err(FieldError::new(field, "must not be empty"));
    }
    if t.chars().count() > max || t.chars().any(|c| c.is_control() && c != '\n' && c != '\t') {
        return Err(FieldError::new(
            field,
            format!("must be at most {max} printable characters"),
        ));
    }
    Ok(t.to_owned())
}

pub(super) fn unit(field: &str, v: f64) -> Result<f64, FieldError> {
    if (0.0..=1.0).contains(&v) {
        Ok(v)
    } else {
        Err(FieldError::new(field, "must be a number from 0 to 1"))
    }
}

/// A list size: 1 to [`MAX_LIMIT`], `default` when absent.
pub fn limit(field: &str, v: Option<usize>, default: usize) -> Result<usize, FieldError> {
    match v {
        None => Ok(default),
        Some(n) if (1..=MAX_LIMIT).contains(&n) => Ok(n),
        Some(_) => Err(FieldError::new(
            field,
            format!("must be from 1 to {MAX_LIMIT}"),
        )),
    }
}

/// An optional `[since, until)`.
pub type TimeRange = (Option<DateTime<Utc>>, Option<DateTime<Utc>>);

/// An optional `[since, until)` time range.
pub fn range(since: Option<String>, until: Option<String>) -> Result<TimeRange, FieldError> {
    let since = since
        .as_deref()
        .map(|s| timestamp("since", s))
        .transpose()?;
    let until = until
        .as_deref()
        .map(|s| timestamp("until", s))
        .transpose()?;
    if let (Some(s), Some(u)) = (since, until)
        && s >= u
    {
        return Err(FieldError::new("until", "must be after since"));
    }
    Ok((since, until))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn explore_defaults_and_field_errors() {
        let ok = ExploreInput::parse(json!({"user_id": "ann", "queries": [{"query": " job "}]}))
            .unwrap();
        assert_eq!(ok.granularity, Granularity::Micro);
        assert_eq!(ok.limit, 10);
        assert_eq!(ok.queries[0].query, "job");
        let field = |body| ExploreInput::parse(body).unwrap_err().field;
        assert_eq!(field(json!({"user_id": "ann", "queries": []})), "queries");
        assert_eq!(
            field(json!({"user_id": "ann", "queries": [{"query": "x", "threshold": 2}]})),
            "queries[0].threshold"
        );
        assert_eq!(
            field(json!({"user_id": "ann", "queries": [{"query": "x"}], "granularity": 4})),
            "granularity"
        );
        assert_eq!(
            field(json!({"user_id": "ann", "queries": [{"query": "x"}], "limit": 0})),
            "limit"
        );
        assert_eq!(
            field(json!({"user_id": "ann", "queries": [{"query": "x"}],
                "since": "2026-11-02T00:00:00Z", "until": "2026-11-01T00:00:00Z"})),
            "until"
        );
        assert_eq!(field(json!({"queries": [{"query": "x"}]})), "user_id");
        assert_eq!(
            field(json!({"user_id": "ann", "queries": [{"query": "x"}], "mode": "fast"})),
            "mode"
        );
    }

    /// JSON Schema's `integer` is any number without a fraction: what the OpenAPI
    /// document calls an integer, the server takes.
    #[test]
    fn whole_numbers_may_be_written_with_a_fraction_of_zero() {
        let explore = |extra: Value| {
            let mut body = json!({"user_id": "ann", "queries": [{"query": "x"}]});
            body.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            ExploreInput::parse(body)
        };
        let ok = explore(json!({"limit": 7.0, "granularity": 2.0})).unwrap();
        assert_eq!((ok.limit, ok.granularity), (7, Granularity::Meso));
        for bad in [
            json!({"limit": 7.5}),
            json!({"limit": -3.0}),
            json!({"granularity": 300}),
            json!({"limit": "7"}),
        ] {
            let field = bad.as_object().unwrap().keys().next().unwrap().clone();
            assert_eq!(explore(bad).unwrap_err().field, field);
        }
        let context =
            ContextInput::parse(json!({"user_id": "ann", "message": "hi", "budget_tokens": 800.0}))
                .unwrap();
        assert_eq!(context.budget_tokens, Some(800));
    }

    #[test]
    fn context_checks_format_and_budget() {
        let c = ContextInput::parse(json!({"user_id": "ann", "message": "hi"})).unwrap();
        assert_eq!(c.format, ContextFormat::Markdown);
        let e = ContextInput::parse(json!({"user_id": "ann", "message": "hi", "format": "yaml"}))
            .unwrap_err();
        assert_eq!(e.field, "format");
        let e = ContextInput::parse(json!({"user_id": "ann", "message": "hi", "budget_tokens": 0}))
            .unwrap_err();
        assert_eq!(e.field, "budget_tokens");
    }
}
