//! Storyline and Macro descriptions, node/relationship consolidation and episodic
//! insights: one plain-text call per summary. Small jobs go to the cheap model.

use async_trait::async_trait;

use super::OpenAiProvider;
use crate::{LlmResult, Summarizer, SummaryTask};

fn instructions(task: SummaryTask) -> &'static str {
    match task {
        SummaryTask::Storyline => {
            "Write a 2-3 sentence storyline summary of what has been happening, \
            from the source summaries given (oldest first). If a current summary is given, update it."
        }
        SummaryTask::Macro => {
            "Write a 2-4 sentence overview of a major theme from the storyline \
            descriptions given (in order). If a current overview is given, update it."
        }
        SummaryTask::NodeDescription => {
            "Write one sentence describing this person, concept or entity \
            from its current description and notes: who or what it is and what matters most."
        }
        SummaryTask::RelationshipDescription => {
            "Write one sentence describing this relationship, its \
            nature and key details, from its current description and notes."
        }
        SummaryTask::Insight => {
            "These memories are being archived: keep what each one said that a later \
            question could ask about, one line per memory, in order, starting with its \
            date as given ('On 8 May 2023: ...'): the specific facts, names, numbers, \
            places and dates (with relative times such as 'yesterday' resolved), not a \
            general summary."
        }
    }
}

#[async_trait]
impl Summarizer for OpenAiProvider {
    async fn summarize(
        &self,
        task: SummaryTask,
        current: Option<&str>,
        inputs: &[String],
    ) -> LlmResult<String> {
        let small = matches!(
            task,
            SummaryTask::NodeDescription | SummaryTask::RelationshipDescription
        ) && inputs.len() < 3;
        let model = if small {
            &self.cfg.cheap_summaries_model
        } else {
            &self.cfg.summaries_model
        };
        let mut user = String::new();
        if let Some(current) = current.filter(|c| !c.trim().is_empty()) {
            user.push_str(&format!("Current: {current}\n\n"));
        }
        for (i, input) in inputs.iter().enumerate() {
            user.push_str(&format!("{}. {input}\n", i + 1));
        }
        self.text(model, instructions(task), &user).await
    }
}
