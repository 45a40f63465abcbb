//! Causal links (`infer-causal-links`): which earlier Sources of a thread caused what a
//! later one tells, as one structured answer.

use async_trait::async_trait;
use serde::Deserialize;
use serde_json::json;

use super::OpenAiProvider;
use crate::offline::text::truncate;
use crate::{CauseFinder, Completion, FoundCause, LlmResult};

const FIND_CAUSES: &str = "You link a person's memories by cause and effect. You get the \
memories that came just before one memory, numbered from 1 (1 is the nearest), and the memory \
itself. List each earlier memory that caused, or gives the reason for, something the memory \
tells: a decision, an event, a change. For each, give its number and copy the sentence of the \
memory that shows the link. Only list a memory when the link is plain from the text; mere \
sharing of a topic is not a cause. Answer with an empty list when there is none.";

/// How much of each memory the prompt carries.
const MAX_CHARS: usize = 3000;

#[derive(Debug, Deserialize)]
struct Answer {
    causes: Vec<Cause>,
}

#[derive(Debug, Deserialize)]
struct Cause {
    earlier: i64,
    sentence: String,
}

fn schema() -> serde_json::Value {
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["causes"],
        "properties": {
            "causes": {
                "type": "array",
                "items": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["earlier", "sentence"],
                    "properties": {
                        "earlier": { "type": "integer" },
                        "sentence": { "type": "string" },
                    },
                },
            },
        },
    })
}

#[async_trait]
impl CauseFinder for OpenAiProvider {
    async fn find_causes(&self, effect: &str, earlier: &[String]) -> LlmResult<Vec<FoundCause>> {
        if earlier.is_empty() {
            return Ok(Completion {
                value: Vec::new(),
                usage: Default::default(),
            });
        }
        let mut user = String::new();
        for (i, text) in earlier.iter().enumerate() {
            user.push_str(&format!(
                "Earlier memory {}:\n{}\n\n",
                i + 1,
                truncate(text, MAX_CHARS)
            ));
        }
        user.push_str(&format!("The memory:\n{}", truncate(effect, MAX_CHARS)));
        let n = earlier.len() as i64;
        let answer: Completion<Answer> = self
            .structured(
                &self.cfg.causes_model,
                FIND_CAUSES,
                &user,
                ("causes", schema()),
                |a: &Answer| match a.causes.iter().find(|c| !(1..=n).contains(&c.earlier)) {
                    Some(c) => Err(format!("earlier memory {} of 1-{n}", c.earlier)),
                    None => Ok(()),
                },
            )
            .await?;
        let mut found: Vec<FoundCause> = Vec::new();
        for c in answer.value.causes {
            let earlier = (c.earlier - 1) as usize;
            if !found.iter().any(|f| f.earlier == earlier) {
                found.push(FoundCause {
                    earlier,
                    sentence: c.sentence.trim().to_owned(),
                });
            }
        }
        Ok(Completion {
            value: found,
            usage: answer.usage,
        })
    }
}
