//! The bodies of the session buffer's endpoints (`POST /api/sessions/{session_id}/turns`
//! and `…/end`), checked into domain values or a [`FieldError`] naming the field. As in
//! [`super::read`], the `…Body` structs are what the OpenAPI document and the MCP tools
//! describe, and their `#[schema]` limits are the checks the parsers make.

use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::{FieldError, from_value, identifier, parse_user_id, timestamp};

/// Most turns one append may carry.
pub const MAX_TURNS_PER_APPEND: usize = 100;
/// Longest turn text, in characters.
pub const MAX_TURN_CHARS: usize = 16_000;
/// Longest speaker label, in characters.
pub const MAX_SPEAKER_CHARS: usize = 64;

/// The body of `POST /api/sessions/{session_id}/turns` (and the MCP tool
/// `append_turns`).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"user_id": "alex", "turns": [
    {"speaker": "user", "text": "Sarah Chen wants the hiring plan done by March.",
     "timestamp": "2026-11-22T09:30:00Z"},
    {"speaker": "assistant", "text": "Noted: the hiring plan is due in March."}]}))]
pub struct TurnsBody {
    /// The user whose session it is (claimed for the caller's tenant if new).
    #[schema(
        min_length = 1,
        max_length = 128,
        pattern = r"^(?!\.\.?$)[A-Za-z0-9._@:-]+$"
    )]
    pub user_id: String,
    /// The turns, in the order they were said: 1 to 100.
    #[schema(min_items = 1, max_items = 100)]
    pub turns: Vec<TurnBody>,
}

/// One turn of a conversation.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TurnBody {
    /// Who said it (`user`, `assistant`, a name…): 1 to 64 characters (trimmed).
    #[schema(
        min_length = 1,
        max_length = 64,
        pattern = r"^[^\u0000-\u001F\u007F-\u009F]*[^\s\u0000-\u001F\u007F-\u009F][^\u0000-\u001F\u007F-\u009F]*$"
    )]
    pub speaker: String,
    /// What was said (trimmed; 1 to 16000 characters; line breaks and tabs allowed).
    #[schema(
        min_length = 1,
        max_length = 16000,
        pattern = r"^[^\u0000-\u0008\u000B-\u001F\u007F-\u009F]*[^\s\u0000-\u001F\u007F-\u009F][^\u0000-\u0008\u000B-\u001F\u007F-\u009F]*$"
    )]
    pub text: String,
    /// When it was said (RFC 3339); when the turn is received if absent.
    #[schema(format = DateTime)]
    pub timestamp: Option<String>,
}

/// The body of `POST /api/sessions/{session_id}/end` (and the MCP tool `end_session`).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"user_id": "alex"}))]
pub struct EndSessionBody {
    /// The user whose session it is.
    #[schema(
        min_length = 1,
        max_length = 128,
        pattern = r"^(?!\.\.?$)[A-Za-z0-9._@:-]+$"
    )]
    pub user_id: String,
}

/// A checked turn.
#[derive(Debug, Clone, PartialEq)]
pub struct NewTurn {
    pub speaker: String,
    pub text: String,
    /// When it was said, if the client said.
    pub at: Option<DateTime<Utc>>,
}

/// A checked append.
#[derive(Debug, Clone, PartialEq)]
pub struct AppendInput {
    pub user_id: String,
    pub turns: Vec<NewTurn>,
}

impl AppendInput {
    pub fn parse(body: Value) -> Result<Self, FieldError> {
        // The list's length is checked before its turns are read one by one.
        if let Some(turns) = body.get("turns").and_then(Value::as_array)
            && turns.len() > MAX_TURNS_PER_APPEND
        {
            return Err(FieldError::new(
                "turns",
                format!("at most {MAX_TURNS_PER_APPEND} turns per request"),
            ));
        }
        let b: TurnsBody = from_value(body)?;
        if b.turns.is_empty() {
            return Err(FieldError::new("turns", "must contain at least one turn"));
        }
        let turns = b
            .turns
            .into_iter()
            .enumerate()
            .map(|(i, t)| {
                Ok(NewTurn {
                    speaker: one_line(&format!("turns[{i}].speaker"), &t.speaker)?,
                    text: turn_text(&format!("turns[{i}].text"), &t.text)?,
                    at: t
                        .timestamp
                        .as_deref()
                        .map(|s| timestamp(&format!("turns[{i}].timestamp"), s))
                        .transpose()?,
                })
            })
            .collect::<Result<_, FieldError>>()?;
        Ok(Self {
            user_id: parse_user_id("user_id", &b.user_id)?,
            turns,
        })
    }
}

/// The user of `POST /api/sessions/{session_id}/end`.
pub fn parse_end(body: Value) -> Result<String, FieldError> {
    let b: EndSessionBody = from_value(body)?;
    parse_user_id("user_id", &b.user_id)
}

/// Session ids, like user ids: 1–128 characters of letters, digits and `. _ - @ :`.
pub fn parse_session_id(field: &str, s: &str) -> Result<String, FieldError> {
    identifier(field, s)
}

/// A speaker: trimmed, 1 to [`MAX_SPEAKER_CHARS`] characters, no control characters.
fn one_line(field: &str, s: &str) -> Result<String, FieldError> {
    let t = s.trim();
    if t.is_empty() {
        return Err(FieldError::new(field, "must not be empty"));
    }
    if t.chars().count() > MAX_SPEAKER_CHARS || t.chars().any(char::is_control) {
        return Err(FieldError::new(
            field,
            format!("must be at most {MAX_SPEAKER_CHARS} printable characters on one line"),
        ));
    }
    Ok(t.to_owned())
}

/// A turn's text: trimmed, 1 to [`MAX_TURN_CHARS`] characters, no control characters
/// but line breaks and tabs.
fn turn_text(field: &str, s: &str) -> Result<String, FieldError> {
    let t = s.trim();
    if t.is_empty() {
        return Err(FieldError::new(field, "must not be empty"));
    }
    if t.chars().count() > MAX_TURN_CHARS
        || t.chars().any(|c| c.is_control() && c != '\n' && c != '\t')
    {
        return Err(FieldError::new(
            field,
            format!("must be at most {MAX_TURN_CHARS} printable characters"),
        ));
    }
    Ok(t.to_owned())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn turns_are_checked_one_by_one_and_named() {
        let ok = AppendInput::parse(json!({"user_id": "ann", "turns": [
            {"speaker": " user ", "text": " hi \n there ", "timestamp": "2026-01-02T03:04:05Z"},
            {"speaker": "assistant", "text": "hello"}]}))
        .unwrap();
        assert_eq!(ok.turns[0].speaker, "user");
        assert_eq!(ok.turns[0].text, "hi \n there");
        assert!(ok.turns[0].at.is_some() && ok.turns[1].at.is_none());
        let field = |body: Value| AppendInput::parse(body).unwrap_err().field;
        assert_eq!(field(json!({"user_id": "ann", "turns": []})), "turns");
        assert_eq!(
            field(json!({"user_id": "ann", "turns": [{"speaker": "u", "text": "  "}]})),
            "turns[0].text"
        );
        assert_eq!(
            field(
                json!({"user_id": "ann", "turns": [{"speaker": "u", "text": "a"},
                {"speaker": "u", "text": "x".repeat(MAX_TURN_CHARS + 1)}]})
            ),
            "turns[1].text"
        );
        assert_eq!(
            field(json!({"user_id": "ann", "turns": [{"speaker": "a\u{7}b", "text": "a"}]})),
            "turns[0].speaker"
        );
        assert_eq!(
            field(
                json!({"user_id": "ann", "turns": [{"speaker": "u", "text": "a", "timestamp": "May"}]})
            ),
            "turns[0].timestamp"
        );
        let many: Vec<Value> = (0..=MAX_TURNS_PER_APPEND)
            .map(|_| json!({"speaker": "u", "text": "a"}))
            .collect();
        assert_eq!(field(json!({"user_id": "ann", "turns": many})), "turns");
        assert_eq!(
            field(json!({"turns": [{"speaker": "u", "text": "a"}]})),
            "user_id"
        );
        assert_eq!(
            field(json!({"user_id": "a/b", "turns": [{"speaker": "u", "text": "a"}]})),
            "user_id"
        );
    }
}
