//! Language models and embeddings: one trait per capability, so each task can use its own
//! provider (e.g. offline embeddings with a hosted extractor).
//!
//! * [`SourceProcessor`] — Phase 1: transcript cleanup, then summary + keywords + tags in
//!   one structured call.
//! * [`EntityExtractor`] — Phase 2: People, Concepts, Entities with confidence and
//!   subpoints.
//! * [`NoteTaker`] — Phase 2: the note-taking agent; its tool calls come back as
//!   [`AgentAction`]s and are applied in one transaction, never half-way.
//! * [`Summarizer`] — Storyline/Macro descriptions and consolidation.
//! * [`CauseFinder`] — which earlier Sources of a thread caused what a Source tells.
//! * [`Embedder`] — vectors for Sources, nodes, Storylines, Macros.
//!
//! Every call reports its token [`Usage`] (`cosmo_shared::llm::counted` counts calls,
//! tokens and errors in the Prometheus metrics). The [`offline`] provider implements
//! all of them deterministically with no network; [`openai`] asks an OpenAI-compatible
//! server; [`minilm`] embeds with a real sentence model on the local CPU (with the
//! `minilm` feature).
//!
//! Also here, what the models read and how they are reached: [`cleanup`], the rendering
//! of raw content (transcripts, email, Slack, notes) and its passages; [`http`], every
//! outgoing HTTP client, with TLS's crypto provider installed.

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use cosmo_core::domain::{NodeKind, NoteLifetime, SourceType};

pub mod cleanup;
pub mod http;
pub mod minilm;
pub mod offline;
pub mod openai;
pub mod time;

/// Tokens one call used, for the usage ledger.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Usage {
    pub provider: String,
    pub model: String,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
}

/// A model's answer and what it cost.
#[derive(Debug, Clone, PartialEq)]
pub struct Completion<T> {
    pub value: T,
    pub usage: Usage,
}

#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    /// 429: back off and retry.
    #[error("rate limited by {provider}")]
    RateLimited { provider: String },
    #[error("{provider} timed out")]
    Timeout { provider: String },
    /// 5xx, connection refused: retry later.
    #[error("{provider} unavailable: {message}")]
    Unavailable { provider: String, message: String },
    /// Output that does not parse or does not match the schema (after retries).
    #[error("malformed output from {provider}: {message}")]
    Malformed { provider: String, message: String },
    /// The provider refused the request (4xx other than 429): retrying won't help.
    #[error("{provider} refused the request: {message}")]
    Refused { provider: String, message: String },
}

impl LlmError {
    /// Whether a later attempt may succeed.
    pub fn is_retryable(&self) -> bool {
        !matches!(self, Self::Refused { .. })
    }
}

pub type LlmResult<T> = Result<Completion<T>, LlmError>;

/// Summary, keywords and tags of a Source, from one structured call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SourceFacts {
    /// 1–2 sentences.
    pub summary: String,
    /// 5–10 searchable terms.
    pub keywords: Vec<String>,
    /// 3–5 metadata tags such as `work`, `planning`.
    pub tags: Vec<String>,
}

/// What the extractor knows besides the text.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ExtractionContext {
    pub source_type: Option<SourceType>,
    /// The owner's full name from their profile, if set.
    pub owner_name: Option<String>,
    /// Speaker names of a transcript or message authors, in order of appearance.
    pub speakers: Vec<String>,
}

/// One extracted Person, Concept or Entity, as the extractor returns it (before the
/// pipeline's confidence and subpoint filter).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExtractedEntity {
    pub kind: NodeKind,
    /// Display name as it appears ("Sarah Chen", "quarterly budget", "Acme Corp").
    pub name: String,
    /// Entities only: `organization`, `place`, `product`, `work` (a book, film, show, game
    /// or album), `pet`, `project`, `event`, `other`.
    pub entity_type: Option<String>,
    /// 0–10, as the extraction prompt asks.
    pub confidence: f64,
    /// Distinct facts about it in this Source.
    pub subpoints: Vec<String>,
}

/// A tool call of the note-taking agent. Names refer to extracted entities by their
/// display name, or to the owner by [`OWNER`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "tool", rename_all = "snake_case")]
pub enum AgentAction {
    /// `add_note_to_person` / `add_note_to_concept` / `add_note_to_entity`.
    AddNote {
        kind: NodeKind,
        name: String,
        note: String,
        lifetime: NoteLifetime,
    },
    /// `create_relationship`.
    CreateRelationship {
        from: String,
        to: String,
        relationship_type: String,
        description: String,
        attitude: String,
        proximity: f64,
        strength: f64,
        confidence: f64,
    },
    /// `add_note_to_relationship`.
    AddNoteToRelationship {
        from: String,
        to: String,
        relationship_type: String,
        note: String,
        lifetime: NoteLifetime,
    },
}

/// How the note-taking agent names the owner Person.
pub const OWNER: &str = "@owner";

/// What a summary is for, which decides its length and prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SummaryTask {
    /// 2–3 sentences from Source summaries.
    Storyline,
    /// 2–4 sentences from Storyline descriptions.
    Macro,
    /// One sentence from a description and its notes.
    NodeDescription,
    /// One sentence about a relationship from its notes.
    RelationshipDescription,
    /// An insight from a cluster of Sources (episodic → semantic consolidation).
    Insight,
}

#[async_trait]
pub trait SourceProcessor: Send + Sync + std::fmt::Debug {
    /// Removes disfluencies and turns a `Speaker: text` transcript into clean,
    /// chronological structured notes.
    async fn clean_transcript(&self, transcript: &str) -> LlmResult<String>;

    /// Summary, keywords and tags in one call.
    async fn describe(&self, source_type: SourceType, content: &str) -> LlmResult<SourceFacts>;
}

#[async_trait]
pub trait EntityExtractor: Send + Sync + std::fmt::Debug {
    async fn extract(
        &self,
        content: &str,
        context: &ExtractionContext,
    ) -> LlmResult<Vec<ExtractedEntity>>;
}

#[async_trait]
pub trait NoteTaker: Send + Sync + std::fmt::Debug {
    /// Runs the note-taking agent over the content for the kept entities.
    async fn take_notes(
        &self,
        content: &str,
        entities: &[ExtractedEntity],
        context: &ExtractionContext,
    ) -> LlmResult<Vec<AgentAction>>;
}

#[async_trait]
pub trait Summarizer: Send + Sync + std::fmt::Debug {
    /// Writes (or rewrites `current`) from `inputs`, oldest first.
    async fn summarize(
        &self,
        task: SummaryTask,
        current: Option<&str>,
        inputs: &[String],
    ) -> LlmResult<String>;
}

#[async_trait]
pub trait Embedder: Send + Sync + std::fmt::Debug {
    fn dimensions(&self) -> usize;
    async fn embed(&self, texts: &[String]) -> LlmResult<Vec<Vec<f32>>>;
}

/// An earlier Source that caused (or explains) what a later one tells.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FoundCause {
    /// Index into the earlier Sources the finder was given.
    pub earlier: usize,
    /// The sentence of the later Source that names the cause.
    pub sentence: String,
}

#[async_trait]
pub trait CauseFinder: Send + Sync + std::fmt::Debug {
    /// Which of `earlier` (the texts of the Sources just before `effect` in its thread,
    /// nearest first) caused or explain something `effect` tells, each with the
    /// sentence of `effect` that says so; none when it names no cause among them.
    async fn find_causes(&self, effect: &str, earlier: &[String]) -> LlmResult<Vec<FoundCause>>;
}

/// Rough token count (≈ 4 characters a token) for providers that do not report one.
pub fn estimate_tokens(text: &str) -> u64 {
    (text.chars().count() as u64).div_ceil(4)
}
