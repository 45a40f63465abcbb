//! The bodies and query strings of the read-side endpoints (SPEC §5, §6): explore,
//! context, facts and lifecycle control, checked into domain values or a
//! [`FieldError`] naming the field.

use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::Value;

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

/// How much detail an explore call returns (seed 001 "Retrieval Granularity Controls").
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
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

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExploreBody {
    user_id: String,
    queries: Vec<QueryBody>,
    granularity: Option<u8>,
    limit: Option<usize>,
    #[serde(default)]
    include_archived: bool,
    #[serde(default)]
    include_content: bool,
    since: Option<String>,
    until: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct QueryBody {
    query: String,
    threshold: Option<f64>,
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
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
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ContextBody {
    user_id: String,
    message: String,
    budget_tokens: Option<u64>,
    format: Option<String>,
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
        Ok(Self {
            user_id: parse_user_id("user_id", &b.user_id)?,
            message: text("message", &b.message, MAX_QUERY_CHARS)?,
            budget_tokens: b.budget_tokens,
            format,
        })
    }
}

/// A fact as `POST /api/facts` (remember) or a correction states it.
#[derive(Debug, Clone, PartialEq)]
pub struct FactInput {
    /// Absent in a correction (the corrected fact's user).
    pub user_id: Option<String>,
    pub text: String,
    /// `(category, key, value)`, all or none.
    pub slot: Option<(String, String, String)>,
    pub confidence: f64,
    /// Entity keys of the user's nodes the fact is about.
    pub about: Vec<String>,
    /// Keys of the user's Sources it came from.
    pub source_keys: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FactBody {
    user_id: Option<String>,
    text: Option<String>,
    category: Option<String>,
    key: Option<String>,
    value: Option<String>,
    confidence: Option<f64>,
    #[serde(default)]
    about: Vec<String>,
    #[serde(default)]
    source_keys: Vec<String>,
}

impl FactInput {
    /// `POST /api/facts`: `user_id` required.
    pub fn parse_remember(body: Value) -> Result<Self, FieldError> {
        let input = Self::parse(body)?;
        if input.user_id.is_none() {
            return Err(FieldError::new("user_id", "is required"));
        }
        Ok(input)
    }

    /// `POST /api/facts/{id}/corrections`: the user is the corrected fact's.
    pub fn parse_correction(body: Value) -> Result<Self, FieldError> {
        let input = Self::parse(body)?;
        if input.user_id.is_some() {
            return Err(FieldError::new(
                "user_id",
                "is not accepted: a correction belongs to the corrected fact's user",
            ));
        }
        Ok(input)
    }

    fn parse(body: Value) -> Result<Self, FieldError> {
        let b: FactBody = from_value(body)?;
        let user_id = b
            .user_id
            .map(|u| parse_user_id("user_id", &u))
            .transpose()?;
        let slot = match (b.category, b.key, b.value) {
            (None, None, None) => None,
            (Some(c), Some(k), Some(v)) => Some((
                text("category", &c, 64)?,
                text("key", &k, 128)?,
                text("value", &v, MAX_FACT_CHARS)?,
            )),
            _ => {
                return Err(FieldError::new(
                    "category",
                    "category, key and value go together: give all three or none",
                ));
            }
        };
        let text_field = match (b.text, &slot) {
            (Some(t), _) => text("text", &t, MAX_FACT_CHARS)?,
            (None, Some((c, k, v))) => format!("{c} {k}: {v}"),
            (None, None) => return Err(FieldError::new("text", "is required")),
        };
        let confidence = unit("confidence", b.confidence.unwrap_or(1.0))?;
        for (field, keys) in [("about", &b.about), ("source_keys", &b.source_keys)] {
            if keys.len() > 50 {
                return Err(FieldError::new(field, "must hold at most 50 keys"));
            }
            for (i, k) in keys.iter().enumerate() {
                text(&format!("{field}[{i}]"), k, 256)?;
            }
        }
        Ok(Self {
            user_id,
            text: text_field,
            slot,
            confidence,
            about: b.about,
            source_keys: b.source_keys,
        })
    }
}

/// A trimmed, non-empty text of at most `max` characters.
fn text(field: &str, s: &str, max: usize) -> Result<String, FieldError> {
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

fn unit(field: &str, v: f64) -> Result<f64, FieldError> {
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

    #[test]
    fn structured_facts_need_all_three_parts() {
        let f = FactInput::parse_remember(
            json!({"user_id": "ann", "category": "diet", "key": "coffee", "value": "black"}),
        )
        .unwrap();
        assert_eq!(f.text, "diet coffee: black");
        assert_eq!(f.confidence, 1.0);
        let e = FactInput::parse_remember(json!({"user_id": "ann", "text": "x", "key": "k"}))
            .unwrap_err();
        assert_eq!(e.field, "category");
        let e = FactInput::parse_correction(json!({"user_id": "ann", "text": "x"})).unwrap_err();
        assert_eq!(e.field, "user_id");
        let e = FactInput::parse_remember(json!({"text": "x"})).unwrap_err();
        assert_eq!(e.field, "user_id");
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
