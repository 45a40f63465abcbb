//! Typed views of `raw_content`, one shape per source type (docs/api.md, "`raw_content`
//! by source type"):
//! conversation/meeting/voice-memo transcripts, emails, Slack threads, text notes.
//! The stores keep the posted JSON verbatim; this is how code reads it.

use serde_json::{Map, Value};

use super::SourceType;
use super::input::FieldError;

#[derive(Debug, Clone, PartialEq)]
pub enum RawContent {
    Transcript(Transcript),
    Email(Email),
    Slack(SlackThread),
    Text(TextNote),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Transcript {
    pub title: Option<String>,
    pub turns: Vec<Turn>,
}

/// One utterance. A plain-text transcript without speakers has `speaker: None`.
#[derive(Debug, Clone, PartialEq)]
pub struct Turn {
    pub speaker: Option<String>,
    pub text: String,
    pub timestamp: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Email {
    pub from: String,
    pub to: Vec<String>,
    pub cc: Vec<String>,
    pub subject: String,
    pub body: String,
    pub headers: Vec<(String, String)>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SlackThread {
    pub channel: String,
    pub messages: Vec<SlackMessage>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SlackMessage {
    pub user: String,
    pub text: String,
    pub ts: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TextNote {
    pub title: Option<String>,
    pub content: String,
}

impl RawContent {
    /// Reads `raw_content` for `source_type`, naming the offending field on error.
    pub fn parse(source_type: SourceType, raw: &Value) -> Result<Self, FieldError> {
        let obj = raw
            .as_object()
            .ok_or_else(|| FieldError::new("raw_content", "must be a JSON object"))?;
        if let Some(t) = obj.get("type").filter(|t| !t.is_null())
            && t.as_str() != Some(source_type.as_str())
        {
            return Err(FieldError::new(
                "raw_content.type",
                format!("must be \"{source_type}\" to match source_type"),
            ));
        }
        match source_type {
            SourceType::Conversation | SourceType::Meeting | SourceType::VoiceMemo => {
                transcript(obj, source_type).map(Self::Transcript)
            }
            SourceType::Email => email(obj).map(Self::Email),
            SourceType::SlackThread => slack(obj).map(Self::Slack),
            SourceType::TextNote => Ok(Self::Text(TextNote {
                title: opt_str(obj, "title")?,
                content: req_text(obj, "content")?,
            })),
        }
    }
}

fn transcript(obj: &Map<String, Value>, source_type: SourceType) -> Result<Transcript, FieldError> {
    let title = opt_str(obj, "title")?;
    let turns = match obj.get("content") {
        None | Some(Value::Null) => return Err(missing("content")),
        Some(Value::String(s)) => transcript_text(s)?,
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, item)| turn(item, &format!("raw_content.content[{i}]")))
            .collect::<Result<Vec<_>, _>>()?,
        Some(_) => {
            return Err(FieldError::new(
                "raw_content.content",
                "must be a JSONL transcript string or an array of {speaker, text} objects",
            ));
        }
    };
    if turns.iter().all(|t| t.text.trim().is_empty()) {
        let what = if source_type == SourceType::VoiceMemo {
            "voice memo"
        } else {
            "transcript"
        };
        return Err(FieldError::new(
            "raw_content.content",
            format!("the {what} is empty"),
        ));
    }
    Ok(Transcript { title, turns })
}

/// A JSONL transcript (one `{"speaker", "text"}` object per line), or, when the first
/// line is not a JSON object, plain text with optional `Speaker: text` lines. Errors name
/// the line as posted (blank lines count).
fn transcript_text(s: &str) -> Result<Vec<Turn>, FieldError> {
    let lines: Vec<(usize, &str)> = s
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .collect();
    let is_jsonl = lines
        .first()
        .is_some_and(|(_, l)| serde_json::from_str::<Value>(l).is_ok_and(|v| v.is_object()));
    if is_jsonl {
        return lines
            .iter()
            .map(|(i, line)| {
                let field = format!("raw_content.content (line {})", i + 1);
                let value: Value = serde_json::from_str(line)
                    .map_err(|e| FieldError::new(&field, format!("is not valid JSON: {e}")))?;
                turn(&value, &field)
            })
            .collect();
    }
    Ok(lines.iter().map(|(_, line)| plain_turn(line)).collect())
}

fn plain_turn(line: &str) -> Turn {
    if let Some((speaker, text)) = line.split_once(':') {
        let speaker = speaker.trim();
        // "Call Bob at 3:30" and "See https://x" are not speakers.
        let looks_like_name = !speaker.is_empty()
            && speaker.len() <= 40
            && speaker.split_whitespace().count() <= 4
            && speaker.chars().next().is_some_and(char::is_uppercase)
            && speaker
                .chars()
                .all(|c| c.is_alphabetic() || " .'-".contains(c))
            && !text.trim().is_empty()
            && !text.starts_with("//");
        if looks_like_name {
            return Turn {
                speaker: Some(speaker.to_owned()),
                text: text.trim().to_owned(),
                timestamp: None,
            };
        }
    }
    Turn {
        speaker: None,
        text: line.trim().to_owned(),
        timestamp: None,
    }
}

fn turn(value: &Value, field: &str) -> Result<Turn, FieldError> {
    let obj = value
        .as_object()
        .ok_or_else(|| FieldError::new(field, "must be an object with `speaker` and `text`"))?;
    let pick = |keys: &[&str]| {
        keys.iter()
            .find_map(|k| obj.get(*k).and_then(scalar_string))
    };
    let text = pick(&["text", "content", "message", "utterance"])
        .ok_or_else(|| FieldError::new(field, "needs a `text` string"))?;
    Ok(Turn {
        speaker: pick(&["speaker", "role", "name", "user"]).filter(|s| !s.trim().is_empty()),
        text,
        timestamp: pick(&["timestamp", "start", "time", "ts"]),
    })
}

fn email(obj: &Map<String, Value>) -> Result<Email, FieldError> {
    let headers = match obj.get("headers") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Object(map)) => map
            .iter()
            .map(|(k, v)| {
                let value = match v {
                    Value::Array(items) => items
                        .iter()
                        .filter_map(scalar_string)
                        .collect::<Vec<_>>()
                        .join(", "),
                    other => scalar_string(other).ok_or_else(|| {
                        FieldError::new(format!("raw_content.headers.{k}"), "must be a string")
                    })?,
                };
                Ok((k.clone(), value))
            })
            .collect::<Result<_, FieldError>>()?,
        Some(_) => return Err(FieldError::new("raw_content.headers", "must be an object")),
    };
    Ok(Email {
        from: req_text(obj, "from")?,
        to: str_list(obj, "to")?,
        cc: str_list(obj, "cc")?,
        subject: opt_str(obj, "subject")?.unwrap_or_default(),
        body: req_text(obj, "body")?,
        headers,
    })
}

fn slack(obj: &Map<String, Value>) -> Result<SlackThread, FieldError> {
    let channel = req_text(obj, "channel")?;
    let items = match obj.get("messages") {
        Some(Value::Array(items)) if !items.is_empty() => items,
        Some(Value::Array(_)) => {
            return Err(FieldError::new("raw_content.messages", "must not be empty"));
        }
        None | Some(Value::Null) => return Err(missing("messages")),
        Some(_) => return Err(FieldError::new("raw_content.messages", "must be an array")),
    };
    let messages = items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let field = format!("raw_content.messages[{i}]");
            let m = item.as_object().ok_or_else(|| {
                FieldError::new(&field, "must be an object with `user` and `text`")
            })?;
            let get = |keys: &[&str]| keys.iter().find_map(|k| m.get(*k).and_then(scalar_string));
            Ok(SlackMessage {
                user: get(&["user", "username", "user_name", "author"])
                    .ok_or_else(|| FieldError::new(format!("{field}.user"), "is required"))?,
                text: get(&["text"])
                    .ok_or_else(|| FieldError::new(format!("{field}.text"), "is required"))?,
                ts: get(&["ts", "timestamp"]),
            })
        })
        .collect::<Result<Vec<_>, FieldError>>()?;
    Ok(SlackThread { channel, messages })
}

fn missing(key: &str) -> FieldError {
    FieldError::new(format!("raw_content.{key}"), "is required")
}

fn req_text(obj: &Map<String, Value>, key: &str) -> Result<String, FieldError> {
    match obj.get(key) {
        Some(Value::String(s)) if !s.trim().is_empty() => Ok(s.clone()),
        Some(Value::String(_)) => Err(FieldError::new(
            format!("raw_content.{key}"),
            "must not be empty",
        )),
        None | Some(Value::Null) => Err(missing(key)),
        Some(_) => Err(FieldError::new(
            format!("raw_content.{key}"),
            "must be a string",
        )),
    }
}

fn opt_str(obj: &Map<String, Value>, key: &str) -> Result<Option<String>, FieldError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone()).filter(|s| !s.trim().is_empty())),
        Some(_) => Err(FieldError::new(
            format!("raw_content.{key}"),
            "must be a string",
        )),
    }
}

fn str_list(obj: &Map<String, Value>, key: &str) -> Result<Vec<String>, FieldError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::String(s)) => Ok(s
            .split(',')
            .map(|p| p.trim().to_owned())
            .filter(|p| !p.is_empty())
            .collect()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| {
                v.as_str().map(str::to_owned).ok_or_else(|| {
                    FieldError::new(format!("raw_content.{key}"), "must be a list of strings")
                })
            })
            .collect(),
        Some(_) => Err(FieldError::new(
            format!("raw_content.{key}"),
            "must be a string or a list of strings",
        )),
    }
}

fn scalar_string(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

pub mod schema;
mod times;

#[cfg(test)]
mod tests;
