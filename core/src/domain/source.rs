//! Sources: the episodic memory of one ingested item.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::{Lifecycle, Sensitivity, string_enum};

/// What kind of item a Source is; decides the shape of `raw_content` and its cleanup.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SourceType {
    Conversation,
    Meeting,
    VoiceMemo,
    Email,
    SlackThread,
    TextNote,
}

string_enum!(SourceType {
    Conversation = "conversation",
    Meeting = "meeting",
    VoiceMemo = "voice-memo",
    Email = "email",
    SlackThread = "slack-thread",
    TextNote = "text-note",
});

impl SourceType {
    /// Spoken sources arrive as speech-to-text transcripts and need disfluency cleanup.
    pub fn is_transcript(self) -> bool {
        matches!(self, Self::Conversation | Self::Meeting | Self::VoiceMemo)
    }
}

/// `raw` (stored by Phase 0) → `processed` (Phase 1 done) → `extracted` (the owner's
/// extraction done); never moves back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ProcessingStatus {
    Raw,
    Processed,
    Extracted,
}

string_enum!(ProcessingStatus { Raw = "raw", Processed = "processed", Extracted = "extracted" });

/// A validated Source ready to be written (Phase 0). Built by [`super::input`].
#[derive(Debug, Clone, PartialEq)]
pub struct NewSource {
    pub entity_key: String,
    pub user_id: String,
    pub team_id: Option<String>,
    /// Users who may extract this Source for themselves; always contains the owner.
    pub participants: Vec<String>,
    pub source_type: SourceType,
    /// The posted `raw_content` object, kept verbatim (as JSON text in the stores).
    pub raw_content: serde_json::Value,
    pub provenance: Option<serde_json::Value>,
    pub context_type: Option<String>,
    pub started_at: Option<DateTime<Utc>>,
    pub ended_at: Option<DateTime<Utc>>,
    pub sensitivity: Sensitivity,
    /// The de-duplication key within the owner's Sources: `external_id`, else the
    /// `Idempotency-Key` header, else `content:<content_hash>`.
    pub idempotency_key: String,
    pub external_id: Option<String>,
    pub content_hash: String,
    pub lifecycle: Lifecycle,
}

/// The fields Phase 1 writes back into the Source.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProcessedContent {
    pub content: String,
    pub summary: String,
    pub keywords: Vec<String>,
    pub tags: Vec<String>,
    /// The summary's embedding.
    pub embedding: Vec<f32>,
    /// The content's passages with their embeddings, in order (`crate::cleanup::passages`);
    /// they replace whatever passages the Source had.
    #[serde(default)]
    pub passages: Vec<Passage>,
    /// The fingerprint of the embedder that made `embedding` and the passages' vectors
    /// (`crate::config::ModelsConfig::embedder_fingerprint`); empty names none.
    #[serde(default)]
    pub embedded_with: String,
}

/// A piece of a Source's content, embedded for retrieval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Passage {
    pub text: String,
    pub embedding: Vec<f32>,
}

/// A stored passage, as retrieval shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SourcePassage {
    pub source_key: String,
    /// Its place in the Source's content, from 0.
    pub ordinal: u32,
    pub text: String,
}

/// A Source as stored.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Source {
    pub entity_key: String,
    pub user_id: String,
    pub team_id: Option<String>,
    pub participants: Vec<String>,
    pub source_type: SourceType,
    pub raw_content: serde_json::Value,
    pub provenance: Option<serde_json::Value>,
    pub context_type: Option<String>,
    pub started_at: Option<DateTime<Utc>>,
    pub ended_at: Option<DateTime<Utc>>,
    pub sensitivity: Sensitivity,
    pub idempotency_key: String,
    pub external_id: Option<String>,
    pub content_hash: String,
    pub content: String,
    pub summary: String,
    pub keywords: Vec<String>,
    pub tags: Vec<String>,
    #[serde(skip)]
    pub embedding: Option<Vec<f32>>,
    /// The fingerprint of the embedder that made the summary's and the passages' vectors
    /// (`crate::config::ModelsConfig::embedder_fingerprint`); `None` for a raw Source and
    /// for one processed before fingerprints were recorded. Another embedder's, or none,
    /// makes the Source's index stale: `process-source` embeds it again.
    pub embedded_with: Option<String>,
    pub processing_status: ProcessingStatus,
    pub processing_started_at: Option<DateTime<Utc>>,
    pub processing_completed_at: Option<DateTime<Utc>>,
    pub extraction_started_at: Option<DateTime<Utc>>,
    pub extraction_completed_at: Option<DateTime<Utc>>,
    pub processing_error: Option<String>,
    pub lifecycle: Lifecycle,
}

impl Source {
    /// When the Source happened: `started_at`, else when it was ingested. Hierarchy
    /// counters count days on this, so back-filled history promotes correctly.
    pub fn event_time(&self) -> DateTime<Utc> {
        self.started_at.unwrap_or(self.lifecycle.created_at)
    }

    pub fn is_participant(&self, user_id: &str) -> bool {
        self.user_id == user_id || self.participants.iter().any(|p| p == user_id)
    }
}

/// The result of writing a Source that may already exist.
#[derive(Debug, Clone, PartialEq)]
pub enum SourceWrite {
    Created(Source),
    /// A Source with the same owner and idempotency key was already there.
    Existing(Source),
}

/// Just enough of a Source to re-enqueue its job.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SourceRef {
    pub entity_key: String,
    pub user_id: String,
    pub processing_status: ProcessingStatus,
}
