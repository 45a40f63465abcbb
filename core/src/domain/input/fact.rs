//! The body of `POST /api/facts` (remember a fact) and of a correction, checked into a
//! [`FactInput`] or a [`FieldError`] naming the field.

use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::read::{MAX_FACT_CHARS, text, unit};
use super::{FieldError, from_value, parse_user_id};

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

/// The body of `POST /api/facts` (and the MCP tool `remember_fact`): free `text`, or a
/// structured slot (`category`, `key`, `value`: all three or none), or both.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"user_id": "alex", "category": "diet", "key": "coffee",
    "value": "black, no sugar", "confidence": 0.9}))]
pub struct RememberFactBody {
    /// A user of the caller's tenant.
    #[schema(
        min_length = 1,
        max_length = 128,
        pattern = r"^(?!\.\.?$)[A-Za-z0-9._@:-]+$"
    )]
    pub user_id: String,
    /// The fact in words; required without a slot, default `"<category> <key>: <value>"`.
    #[schema(
        min_length = 1,
        max_length = 2000,
        pattern = r"^[^\u0000-\u0008\u000B-\u001F\u007F-\u009F]*[^\s\u0000-\u001F\u007F-\u009F][^\u0000-\u0008\u000B-\u001F\u007F-\u009F]*$"
    )]
    pub text: Option<String>,
    #[schema(
        min_length = 1,
        max_length = 64,
        pattern = r"^[^\u0000-\u0008\u000B-\u001F\u007F-\u009F]*[^\s\u0000-\u001F\u007F-\u009F][^\u0000-\u0008\u000B-\u001F\u007F-\u009F]*$"
    )]
    pub category: Option<String>,
    /// One live value per (user, category, key).
    #[schema(
        min_length = 1,
        max_length = 128,
        pattern = r"^[^\u0000-\u0008\u000B-\u001F\u007F-\u009F]*[^\s\u0000-\u001F\u007F-\u009F][^\u0000-\u0008\u000B-\u001F\u007F-\u009F]*$"
    )]
    pub key: Option<String>,
    #[schema(
        min_length = 1,
        max_length = 2000,
        pattern = r"^[^\u0000-\u0008\u000B-\u001F\u007F-\u009F]*[^\s\u0000-\u001F\u007F-\u009F][^\u0000-\u0008\u000B-\u001F\u007F-\u009F]*$"
    )]
    pub value: Option<String>,
    /// A less confident value never replaces a more confident one.
    #[schema(minimum = 0.0, maximum = 1.0, default = 1.0)]
    pub confidence: Option<f64>,
    /// Entity keys of the user's nodes the fact is about (at most 50).
    #[serde(default)]
    #[schema(max_items = 50, inline, value_type = Vec<FactKey>)]
    pub about: Vec<String>,
    /// Keys of the user's Sources it came from (at most 50).
    #[serde(default)]
    #[schema(max_items = 50, inline, value_type = Vec<FactKey>)]
    pub source_keys: Vec<String>,
}

/// The body of `POST /api/facts/{id}/corrections` (and of the MCP tool `correct_fact`,
/// with the `fact_id`): the new fact, which belongs to the corrected fact's user. A
/// structured fact keeps its slot: its correction repeats `category` and `key` and says
/// the new `value`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"text": "Alex drinks oat flat whites now", "category": "diet",
    "key": "coffee", "value": "oat flat white"}))]
pub struct CorrectionBody {
    /// The fact in words; required without a slot, default `"<category> <key>: <value>"`.
    #[schema(
        min_length = 1,
        max_length = 2000,
        pattern = r"^[^\u0000-\u0008\u000B-\u001F\u007F-\u009F]*[^\s\u0000-\u001F\u007F-\u009F][^\u0000-\u0008\u000B-\u001F\u007F-\u009F]*$"
    )]
    pub text: Option<String>,
    #[schema(
        min_length = 1,
        max_length = 64,
        pattern = r"^[^\u0000-\u0008\u000B-\u001F\u007F-\u009F]*[^\s\u0000-\u001F\u007F-\u009F][^\u0000-\u0008\u000B-\u001F\u007F-\u009F]*$"
    )]
    pub category: Option<String>,
    #[schema(
        min_length = 1,
        max_length = 128,
        pattern = r"^[^\u0000-\u0008\u000B-\u001F\u007F-\u009F]*[^\s\u0000-\u001F\u007F-\u009F][^\u0000-\u0008\u000B-\u001F\u007F-\u009F]*$"
    )]
    pub key: Option<String>,
    #[schema(
        min_length = 1,
        max_length = 2000,
        pattern = r"^[^\u0000-\u0008\u000B-\u001F\u007F-\u009F]*[^\s\u0000-\u001F\u007F-\u009F][^\u0000-\u0008\u000B-\u001F\u007F-\u009F]*$"
    )]
    pub value: Option<String>,
    #[schema(minimum = 0.0, maximum = 1.0, default = 1.0)]
    pub confidence: Option<f64>,
    /// Entity keys of the user's nodes it is about (at most 50); default: what the
    /// corrected fact was about.
    #[serde(default)]
    #[schema(max_items = 50, inline, value_type = Vec<FactKey>)]
    pub about: Vec<String>,
    /// Keys of the user's Sources it came from (at most 50).
    #[serde(default)]
    #[schema(max_items = 50, inline, value_type = Vec<FactKey>)]
    pub source_keys: Vec<String>,
}

/// An entity key or Source key a fact refers to (the schema of the items of `about` and
/// `source_keys`).
#[derive(ToSchema)]
#[schema(
    min_length = 1,
    max_length = 256,
    pattern = r"^[^\u0000-\u0008\u000B-\u001F\u007F-\u009F]*[^\s\u0000-\u001F\u007F-\u009F][^\u0000-\u0008\u000B-\u001F\u007F-\u009F]*$"
)]
#[allow(dead_code)]
pub struct FactKey(String);

/// A fact body, whichever endpoint it came to.
struct FactBody {
    user_id: Option<String>,
    text: Option<String>,
    category: Option<String>,
    key: Option<String>,
    value: Option<String>,
    confidence: Option<f64>,
    about: Vec<String>,
    source_keys: Vec<String>,
}

impl FactInput {
    /// `POST /api/facts`: `user_id` required.
    pub fn parse_remember(body: Value) -> Result<Self, FieldError> {
        let b: RememberFactBody = from_value(body)?;
        Self::parse(FactBody {
            user_id: Some(b.user_id),
            text: b.text,
            category: b.category,
            key: b.key,
            value: b.value,
            confidence: b.confidence,
            about: b.about,
            source_keys: b.source_keys,
        })
    }

    /// `POST /api/facts/{id}/corrections`: the user is the corrected fact's.
    pub fn parse_correction(body: Value) -> Result<Self, FieldError> {
        if body.get("user_id").is_some() {
            return Err(FieldError::new(
                "user_id",
                "is not accepted: a correction belongs to the corrected fact's user",
            ));
        }
        let b: CorrectionBody = from_value(body)?;
        Self::parse(FactBody {
            user_id: None,
            text: b.text,
            category: b.category,
            key: b.key,
            value: b.value,
            confidence: b.confidence,
            about: b.about,
            source_keys: b.source_keys,
        })
    }

    fn parse(b: FactBody) -> Result<Self, FieldError> {
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

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
}
