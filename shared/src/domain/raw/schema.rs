//! The shapes of `raw_content` for the OpenAPI document: what [`super::RawContent::parse`]
//! reads, per source type. Documentation only: the parser reads the JSON itself (it also
//! takes a few aliases, e.g. `role` for `speaker`), and every other key is kept verbatim.

use serde::Serialize;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{AnyOfBuilder, Schema};
use utoipa::{PartialSchema, ToSchema};

/// `raw_content` of `POST /api/sources`: one of the shapes below, by `source_type`.
pub fn raw_content() -> RefOr<Schema> {
    AnyOfBuilder::new()
        .item(Transcript::schema())
        .item(Email::schema())
        .item(SlackThread::schema())
        .item(TextNote::schema())
        .description(Some(
            "The item as captured, by `source_type`: a transcript (`conversation`, \
             `meeting`, `voice-memo`), an `email`, a `slack-thread` or a `text-note`. \
             An optional `type` must equal `source_type`. Stored verbatim.",
        ))
        .into()
}

/// `conversation`, `meeting` and `voice-memo`: a transcript. `content` is a JSONL
/// transcript (one `{"speaker", "text"}` object a line), plain text (optional
/// `Speaker: text` lines), or an array of turns; not empty.
#[derive(Serialize, ToSchema)]
#[schema(title = "Transcript")]
pub struct Transcript {
    pub title: Option<String>,
    #[schema(inline)]
    pub content: TranscriptContent,
}

#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum TranscriptContent {
    Text(String),
    Turns(#[schema(inline)] Vec<Turn>),
}

/// One utterance.
#[derive(Serialize, ToSchema)]
pub struct Turn {
    /// Also `role`, `name` or `user`.
    pub speaker: Option<String>,
    /// Also `content`, `message` or `utterance`.
    pub text: String,
    /// Also `start`, `time` or `ts`.
    pub timestamp: Option<String>,
}

/// `email`.
#[derive(Serialize, ToSchema)]
#[schema(title = "Email")]
pub struct Email {
    #[schema(min_length = 1)]
    pub from: String,
    /// Addresses, as a list or one comma-separated string.
    #[schema(value_type = Option<Vec<String>>)]
    pub to: Option<Vec<String>>,
    #[schema(value_type = Option<Vec<String>>)]
    pub cc: Option<Vec<String>>,
    pub subject: Option<String>,
    /// The body; quoted replies are stripped when it is processed.
    #[schema(min_length = 1)]
    pub body: String,
    /// Header name → value (or list of values).
    #[schema(value_type = Option<Object>)]
    pub headers: Option<serde_json::Value>,
}

/// `slack-thread`.
#[derive(Serialize, ToSchema)]
#[schema(title = "SlackThread")]
pub struct SlackThread {
    #[schema(min_length = 1)]
    pub channel: String,
    #[schema(inline, min_items = 1)]
    pub messages: Vec<SlackMessage>,
}

#[derive(Serialize, ToSchema)]
pub struct SlackMessage {
    /// Also `username`, `user_name` or `author`.
    pub user: String,
    pub text: String,
    /// Also `timestamp`.
    pub ts: Option<String>,
}

/// `text-note`.
#[derive(Serialize, ToSchema)]
#[schema(title = "TextNote")]
pub struct TextNote {
    pub title: Option<String>,
    #[schema(min_length = 1)]
    pub content: String,
}
