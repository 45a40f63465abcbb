//! The context baseline: BM25 (`bm25.rs`) over single turns, each `Speaker: text` its
//! own document, over the owner's one conversation; a question's context is its turns
//! best first, as many as fit in the budget by the token estimate Cosmo's context uses
//! (`cosmo_shared::llm::estimate_tokens`, of the turns joined by newlines), nothing else
//! added. A turn sharing no word with the question (score 0) is never added, and one
//! that does not fit is skipped for the next that does.

use cosmo_shared::llm::estimate_tokens;

use super::Conversation;
use super::bm25::Bm25;

/// One conversation's turns, indexed.
#[derive(Debug, Clone)]
pub struct Turns {
    /// `Speaker: text`, session by session.
    documents: Vec<String>,
    index: Bm25,
}

/// A baseline context.
#[derive(Debug, Clone)]
pub struct Packed {
    pub text: String,
    pub tokens: u64,
}

impl Turns {
    pub fn new(c: &Conversation) -> Self {
        let documents: Vec<String> = c
            .sessions
            .iter()
            .flat_map(|s| s.turns.iter().map(|t| format!("{}: {}", t.speaker, t.text)))
            .collect();
        Self {
            index: Bm25::new(&documents),
            documents,
        }
    }

    /// The best turns for `question` that fit in `budget` tokens, best first.
    pub fn pack(&self, question: &str, budget: u64) -> Packed {
        let scores = self.index.scores(question);
        let mut chars = 0usize;
        let mut kept: Vec<&str> = Vec::new();
        for i in self.index.rank(question) {
            if scores[i] <= 0.0 {
                break;
            }
            let doc = self.documents[i].as_str();
            // Joined by a newline after the first.
            let with = chars + usize::from(!kept.is_empty()) + doc.chars().count();
            if (with as u64).div_ceil(4) <= budget {
                chars = with;
                kept.push(doc);
            }
        }
        let text = kept.join("\n");
        Packed {
            tokens: estimate_tokens(&text),
            text,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conversations::{Size, generate};

    #[test]
    fn the_best_turns_fill_the_budget_and_no_more() {
        let corpus = generate(Size::Quick);
        let c = &corpus.conversations[0];
        let turns = Turns::new(c);
        let (_, q) = corpus.questions()[0];
        for budget in [50, 800, 2000] {
            let packed = turns.pack(&q.text, budget);
            assert!(packed.tokens <= budget, "{} > {budget}", packed.tokens);
            assert_eq!(packed.tokens, estimate_tokens(&packed.text));
            // Every line is a turn of the conversation as `Speaker: text`.
            for line in packed.text.lines() {
                assert!(turns.documents.iter().any(|d| d == line), "{line}");
            }
            // Nothing left out would still have fitted.
            let rest = budget * 4 - packed.text.chars().count() as u64;
            let scores = turns.index.scores(&q.text);
            let left_out = (0..turns.documents.len())
                .filter(|&i| scores[i] > 0.0 && !packed.text.contains(&turns.documents[i]));
            for i in left_out {
                assert!(turns.documents[i].chars().count() as u64 + 1 > rest);
            }
        }
        let first = turns.pack(&q.text, 2000);
        let best = turns.index.rank(&q.text)[0];
        assert!(first.text.starts_with(&turns.documents[best]));
    }
}
