//! A generated corpus of long two-person chats with questions about them, a BM25
//! baseline, and the harness that ingests the chats into Cosmo and scores what `explore`
//! finds: the `cosmo-bench retrieval` benchmark (`tests/bench/retrieval.rs`).
//!
//! **What it generates.** Conversations between two friends (distinct first and last
//! names; many speakers overall), each a series of dated sessions days to weeks apart in
//! 2023–2024, every session a casual chat of 12–30 turns and roughly 1,500–4,000
//! characters: greetings with each other's names, small talk, reactions ("that's
//! awesome!"), questions back, follow-ups about earlier sessions ("how's Biscuit
//! doing?"), goodbyes, the odd typo or all-lower-case line. Into each session go 2–4
//! *events* of either speaker (adopting a rescue dog, starting pottery classes, a trip
//! to Lisbon with a sister, a promotion, a son's broken arm …), drawn from a library of
//! about a hundred event templates (`templates/`) with slots (pets, relatives, places,
//! brands, books, bands …) and several phrasings each. Most events belong to *arcs*:
//! the dog is adopted in one session, swallows a sock in another, starts training in a
//! third, so "dog" alone does not identify a session.
//!
//! **The questions** (about 6–8 per session) each name the speaker they are about and
//! carry their evidence sessions and a category:
//! * *single-hop*: a fact of one session, asked in other words than the chat used
//!   ("a scruffy rescue pup called Biscuit" → "What is the name of Maya's dog?"); some
//!   share a distinctive word with the evidence, many share almost none. About one in
//!   six asks why something happened, for a reason the chat states ("ate half a sock
//!   and we ended up at the emergency vet" → "Why did Maya have to rush her pet for
//!   urgent care in the middle of the night?");
//! * *temporal*: when something happened; the evidence is the session it happened in;
//! * *multi-hop*: two to four sessions, either the same kind of event across arcs
//!   ("What pets does Maya have?") or two steps of one arc ("What happened with Maya's
//!   dog after the adoption?", or why: "Why did Maya sign Biscuit up for obedience
//!   training?" when the sock was told sessions before);
//! * *open*: how a recurring theme went, with every session of the arc as evidence;
//! * *dated*: what went on with a theme in a named month ("In May 2023, what did Maya
//!   tell Leo about the dog?"), every session of the arc in that month as evidence: the
//!   month, not the event, singles them out.
//!
//! Each question also carries its evidence *turns*: for every step of an event it is
//! about, the turn holding the `say` line and the two of its first chat exchange, what
//! any question about the step may ask about (`cosmo-bench context` looks for them in
//! what context returns). With [`Options::relative_times`], some events are told with a
//! relative time ("yesterday", "last Friday", `relative.rs`) and their temporal
//! questions expect the date it refers to.
//!
//! **Why this shape.** It mirrors long-conversation memory benchmarks (LoCoMo-like: ~10
//! conversations of ~27 sessions of ~3,000 characters, ~2,000 questions scored by the
//! recall of evidence sessions) without copying any of them: both names are in every
//! session, filler is shared by all sessions, themes recur, and questions paraphrase,
//! so neither a speaker's name nor a topic word finds the session on its own. Everything
//! is generated from a fixed seed ([`generate`]): the same size always yields the same
//! corpus.

use chrono::{DateTime, Utc};
use serde_json::json;

pub mod bm25;
mod chat;
pub mod context;
pub mod figures;
mod generate;
mod plan;
pub mod presence;
mod questions;
mod relative;
pub mod run;
mod score;
pub mod store;
mod templates;
#[cfg(test)]
mod tests;
pub mod turns;
mod vocab;

pub use generate::{generate, generate_with};
pub use score::{CategoryScores, Scores};

/// How big a corpus to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Size {
    /// 3 conversations × 20 sessions, a few hundred questions: a smoke run (CI).
    Quick,
    /// 12 conversations × 20–30 sessions, about 2,000 questions.
    Full,
}

impl Size {
    pub fn name(self) -> &'static str {
        match self {
            Self::Quick => "quick",
            Self::Full => "full",
        }
    }
}

/// What a corpus plants besides its events; the default plants nothing more.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Some events are told with a relative time ("yesterday", "two days ago", "last
    /// Friday", "last week", "this morning" …), and the temporal questions about them
    /// expect the date it refers to, resolved against the session's date.
    pub relative_times: bool,
}

/// The generated corpus: conversations with their sessions and questions.
#[derive(Debug, Clone)]
pub struct Corpus {
    pub size: Size,
    pub options: Options,
    pub conversations: Vec<Conversation>,
}

impl Corpus {
    /// Every question with its conversation, in the generated order: conversation by
    /// conversation, each as its sessions unfold (by the last evidence session).
    pub fn questions(&self) -> Vec<(&Conversation, &Question)> {
        self.conversations
            .iter()
            .flat_map(|c| c.questions.iter().map(move |q| (c, q)))
            .collect()
    }

    pub fn sessions(&self) -> usize {
        self.conversations.iter().map(|c| c.sessions.len()).sum()
    }

    /// The latest session date of the corpus.
    pub fn last_session_at(&self) -> DateTime<Utc> {
        self.conversations
            .iter()
            .flat_map(|c| c.sessions.iter().map(|s| s.started_at))
            .max()
            .unwrap_or_default()
    }
}

/// One side of a conversation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Speaker {
    pub first: String,
    pub last: String,
    pub female: bool,
}

impl Speaker {
    pub fn full_name(&self) -> String {
        format!("{} {}", self.first, self.last)
    }

    /// The Cosmo user id: the full name, lower case, words joined by `-`.
    pub fn user_id(&self) -> String {
        self.full_name().to_lowercase().replace(' ', "-")
    }
}

/// Two friends' chats over months.
#[derive(Debug, Clone)]
pub struct Conversation {
    pub index: usize,
    /// The owner of the memory: every session is posted for this speaker.
    pub a: Speaker,
    pub b: Speaker,
    pub sessions: Vec<Session>,
    pub questions: Vec<Question>,
}

/// One dated chat.
#[derive(Debug, Clone)]
pub struct Session {
    pub index: usize,
    pub started_at: DateTime<Utc>,
    pub turns: Vec<Turn>,
    /// The planted events, one line each (for error analysis).
    pub events: Vec<String>,
}

impl Session {
    /// The transcript as Cosmo's `conversation` raw content: JSONL of `{speaker, text}`.
    pub fn jsonl(&self) -> String {
        self.turns
            .iter()
            .map(|t| json!({ "speaker": t.speaker, "text": t.text }).to_string())
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The transcript as plain text, `Speaker Name: text` per turn.
    pub fn text(&self) -> String {
        self.turns
            .iter()
            .map(|t| format!("{}: {}", t.speaker, t.text))
            .collect::<Vec<_>>()
            .join("\n")
    }

    pub fn chars(&self) -> usize {
        self.turns.iter().map(|t| t.text.chars().count()).sum()
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Turn {
    /// The speaker's full name.
    pub speaker: String,
    pub text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    SingleHop,
    Temporal,
    MultiHop,
    Open,
    /// Names a month and asks what went on then ("In May 2023, what did Maya tell Leo
    /// about the dog?"): the evidence is every session of the arc in that month.
    Dated,
}

impl Category {
    pub const ALL: [Category; 5] = [
        Category::SingleHop,
        Category::Temporal,
        Category::MultiHop,
        Category::Open,
        Category::Dated,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Self::SingleHop => "single-hop",
            Self::Temporal => "temporal",
            Self::MultiHop => "multi-hop",
            Self::Open => "open",
            Self::Dated => "dated",
        }
    }
}

/// What a question asks for, read from its first word: the intents `explore` routes by.
/// "When…" asks for a time, "Why…" for a reason, "Who…"/"Whose…"/"Whom…" for a person,
/// and every other wording ("What…", "Which…", "Where…", "How…") for a thing or a
/// fact. Read from the wording alone, independently of Cosmo's own classifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Asked {
    When,
    Why,
    Who,
    What,
}

impl Asked {
    pub const ALL: [Asked; 4] = [Asked::When, Asked::Why, Asked::Who, Asked::What];

    pub fn of(question: &str) -> Self {
        let first = question
            .split(|c: char| !c.is_alphanumeric())
            .find(|w| !w.is_empty())
            .unwrap_or_default()
            .to_lowercase();
        match first.as_str() {
            "when" => Self::When,
            "why" => Self::Why,
            "who" | "whose" | "whom" => Self::Who,
            _ => Self::What,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::When => "when",
            Self::Why => "why",
            Self::Who => "who",
            Self::What => "what",
        }
    }
}

/// A question about one speaker of one conversation.
#[derive(Debug, Clone)]
pub struct Question {
    pub text: String,
    /// The expected answer (for reading the dump; nothing scores it).
    pub answer: String,
    pub category: Category,
    /// Indexes of the sessions that hold the answer, ascending.
    pub evidence: Vec<usize>,
    /// The turns that hold it, as (session, index into the session's `turns`),
    /// ascending: for each step of an event the question is about, the turn with its
    /// `say` line and those of its first chat exchange (the ask and the answer).
    pub evidence_turns: Vec<(usize, usize)>,
}
