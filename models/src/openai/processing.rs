//! Phase 1: transcript cleanup, then summary + keywords + tags in one call.

use async_trait::async_trait;
use serde_json::json;

use super::OpenAiProvider;
use crate::{LlmResult, SourceFacts, SourceProcessor};
use cosmo_core::domain::SourceType;

const CLEAN_TRANSCRIPT: &str = "You turn speech-to-text transcripts into clean, chronological \
structured notes. Keep every speaker's attribution as `Speaker: text` lines, in order. Remove \
disfluencies (um, uh, false starts, repeated words, filler phrases), fix punctuation and \
capitalisation, and keep all facts, names, numbers, dates and decisions. Do not add anything. \
Answer with the notes only.";

const DESCRIBE: &str = "You describe one item of a person's memory (a conversation, meeting, \
voice memo, email, Slack thread or note). Return: `summary`: 1-2 sentences saying what it is \
about and what matters in it; `keywords`: 5-10 key searchable terms (topics, names, things), \
lower case unless a proper name; `tags`: 3-5 short metadata tags about context, tone or domain \
(e.g. work, personal, planning, health, travel).";

fn describe_schema() -> serde_json::Value {
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["summary", "keywords", "tags"],
        "properties": {
            "summary": { "type": "string" },
            "keywords": { "type": "array", "items": { "type": "string" } },
            "tags": { "type": "array", "items": { "type": "string" } },
        },
    })
}

/// What the schema cannot say: a real summary and sensible counts.
fn check_facts(f: &SourceFacts) -> Result<(), String> {
    if f.summary.trim().is_empty() {
        return Err("empty summary".into());
    }
    if !(1..=15).contains(&f.keywords.len()) {
        return Err(format!("{} keywords, expected 5-10", f.keywords.len()));
    }
    if !(1..=8).contains(&f.tags.len()) {
        return Err(format!("{} tags, expected 3-5", f.tags.len()));
    }
    Ok(())
}

#[async_trait]
impl SourceProcessor for OpenAiProvider {
    async fn clean_transcript(&self, transcript: &str) -> LlmResult<String> {
        let user = format!("Convert this transcript to structured notes:\n\n{transcript}");
        self.text(&self.cfg.processing_model, CLEAN_TRANSCRIPT, &user)
            .await
    }

    async fn describe(&self, source_type: SourceType, content: &str) -> LlmResult<SourceFacts> {
        let user = format!("Source type: {source_type}\n\n{content}");
        let mut answer = self
            .structured(
                &self.cfg.processing_model,
                DESCRIBE,
                &user,
                ("source_facts", describe_schema()),
                check_facts,
            )
            .await?;
        let facts = &mut answer.value;
        facts.summary = facts.summary.trim().to_owned();
        facts.keywords.retain(|k| !k.trim().is_empty());
        facts.keywords.truncate(10);
        facts.tags.retain(|t| !t.trim().is_empty());
        facts.tags.truncate(5);
        Ok(answer)
    }
}
