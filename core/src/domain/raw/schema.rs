//! The shapes of `raw_content` as JSON Schema, per source type: exactly what
//! [`super::RawContent::parse`] accepts, so that the OpenAPI document calls valid what
//! the server takes and invalid what it refuses. Where the parser also takes an alias
//! (`role` for `speaker`, `username` for `user`…) the schema names the canonical key
//! and the description the aliases. One place is looser than the parser: a transcript
//! string whose first line is a JSON object is read as JSONL, and each line must then
//! be a turn; a regular expression cannot check JSON.

use serde_json::{Value, json};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};

use crate::domain::SourceType;

/// `raw_content` in the generated document: an object, described. The served document
/// replaces it with [`shape`] by `source_type`.
pub fn raw_content() -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(Some(
            "The item as captured, by `source_type`: a transcript (`conversation`, \
             `meeting`, `voice-memo`), an `email`, a `slack-thread` or a `text-note`. \
             An optional `type` must equal `source_type`. Stored verbatim.",
        ))
        .into()
}

/// A string with a character that is not white space.
fn text() -> Value {
    json!({ "type": "string", "pattern": "\\S" })
}

/// A string or a number (read as its decimal text).
fn scalar() -> Value {
    json!({ "type": ["string", "number"] })
}

/// The exact `raw_content` of `source_type`.
pub fn shape(source_type: SourceType) -> Value {
    let mut shape = match source_type {
        SourceType::Conversation | SourceType::Meeting | SourceType::VoiceMemo => transcript(),
        SourceType::Email => email(),
        SourceType::SlackThread => slack_thread(),
        SourceType::TextNote => json!({
            "title": "TextNote",
            "required": ["content"],
            "properties": {
                "title": { "type": ["string", "null"] },
                "content": text(),
            },
        }),
    };
    shape["type"] = json!("object");
    shape["properties"]["type"] = json!({
        "enum": [source_type.as_str(), null],
        "description": "Optional; equals `source_type`.",
    });
    shape
}

fn transcript() -> Value {
    let turn_text = json!({ "anyOf": [{ "type": "number" }, text()] });
    json!({
        "title": "Transcript",
        "description": "A transcript: `content` is plain text (optional `Speaker: text` \
            lines), a JSONL transcript (one `{\"speaker\", \"text\"}` object a line), or an \
            array of turns; not empty.",
        "required": ["content"],
        "properties": {
            "title": { "type": ["string", "null"] },
            "content": {
                "anyOf": [
                    text(),
                    {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "description": "One utterance. `text` is also read from \
                                `content`, `message` or `utterance`; `speaker` from `role`, \
                                `name` or `user`; `timestamp` from `start`, `time` or `ts`.",
                            "required": ["text"],
                            "properties": {
                                "speaker": { "description": "A string; other values are ignored." },
                                "text": scalar(),
                                "timestamp": { "description": "A string; other values are ignored." },
                            },
                        },
                        "contains": {
                            "type": "object",
                            "required": ["text"],
                            "properties": { "text": turn_text },
                        },
                    },
                ],
            },
        },
    })
}

fn email() -> Value {
    let addresses = json!({
        "description": "Addresses, as a list or one comma-separated string.",
        "anyOf": [
            { "type": "null" },
            { "type": "string" },
            { "type": "array", "items": { "type": "string" } },
        ],
    });
    json!({
        "title": "Email",
        "required": ["from", "body"],
        "properties": {
            "from": text(),
            "to": addresses,
            "cc": addresses,
            "subject": { "type": ["string", "null"] },
            "body": {
                "type": "string",
                "pattern": "\\S",
                "description": "The body; quoted replies are stripped when it is processed.",
            },
            "headers": {
                "description": "Header name → value (or list of values).",
                "type": ["object", "null"],
                "additionalProperties": { "type": ["string", "number", "array"] },
            },
        },
    })
}

fn slack_thread() -> Value {
    json!({
        "title": "SlackThread",
        "required": ["channel", "messages"],
        "properties": {
            "channel": text(),
            "messages": {
                "type": "array",
                "minItems": 1,
                "items": {
                    "type": "object",
                    "description": "`user` is also read from `username`, `user_name` or \
                        `author`; `ts` from `timestamp`.",
                    "required": ["user", "text"],
                    "properties": {
                        "user": scalar(),
                        "text": scalar(),
                        "ts": { "description": "A string; other values are ignored." },
                    },
                },
            },
        },
    })
}
