//! Where each candidate occurs: its own statements (speaker lines), the sentences that
//! name it, and the sentences that refer to it by pronoun.

use super::people::Book;
use super::text::{self, Sentence};
use cosmo_core::domain::NodeKind;

impl Book {
    /// Finds, for every candidate, the sentences it speaks or is named in.
    pub fn scan(&mut self, sentences: &[Sentence]) {
        self.by_sentence = vec![Vec::new(); sentences.len()];
        for (i, sentence) in sentences.iter().enumerate() {
            let tokens: Vec<(String, bool)> = text::tokens(&sentence.text)
                .iter()
                .map(|t| (text::norm(t.text), t.text.starts_with(char::is_uppercase)))
                .collect();
            for (c, candidate) in self.items.iter_mut().enumerate().filter(|(_, c)| c.alive) {
                if let Some(speaker) = &sentence.speaker
                    && candidate.labels.iter().any(|l| text::same_name(l, speaker))
                {
                    candidate.own.push(i);
                }
                if let Some(pos) = candidate
                    .aliases
                    .iter()
                    .find_map(|alias| find_words(&tokens, alias))
                {
                    candidate.mentioned.push(i);
                    self.by_sentence[i].push((pos, c));
                }
            }
            self.by_sentence[i].sort_unstable();
        }
    }

    /// A sentence with no named person but "he"/"she" (or "they", for people and
    /// organisations) is about the last one named in the previous few sentences.
    pub fn attribute_pronouns(&mut self, sentences: &[Sentence]) {
        for (i, sentence) in sentences.iter().enumerate() {
            let words: Vec<String> = text::tokens(&sentence.text)
                .iter()
                .map(|t| t.text.to_lowercase())
                .collect();
            let singular = words
                .iter()
                .any(|w| matches!(w.as_str(), "he" | "she" | "him" | "her" | "his" | "hers"));
            let plural = words
                .iter()
                .any(|w| matches!(w.as_str(), "they" | "them" | "their"));
            // A sentence that names someone the pronoun could mean is about them.
            let named = self.by_sentence[i].iter().any(|&(_, c)| {
                let cand = &self.items[c];
                (cand.kind == NodeKind::Person && !cand.is_owner)
                    || (plural && cand.entity_type == Some("organization"))
            });
            if named || (!singular && !plural) {
                continue;
            }
            let window = if singular { 3 } else { 2 };
            let target = (i.saturating_sub(window)..i).rev().find_map(|j| {
                self.by_sentence[j]
                    .iter()
                    .rev()
                    .map(|&(_, c)| c)
                    .find(|&c| {
                        let cand = &self.items[c];
                        let fits = cand.kind == NodeKind::Person
                            || (!singular && cand.entity_type == Some("organization"));
                        let is_speaker = sentence
                            .speaker
                            .as_ref()
                            .is_some_and(|s| cand.labels.iter().any(|l| text::same_name(l, s)));
                        fits && !cand.is_owner && !is_speaker
                    })
            });
            if let Some(c) = target {
                self.items[c].pronouns.push(i);
            }
        }
    }
}

/// The position where `alias` occurs in `tokens`; capitalised alias words only match
/// capitalised text.
fn find_words(tokens: &[(String, bool)], alias: &[String]) -> Option<usize> {
    if alias.is_empty() || alias.len() > tokens.len() {
        return None;
    }
    let alias: Vec<(String, bool)> = alias
        .iter()
        .map(|w| (text::norm(w), w.starts_with(char::is_uppercase)))
        .collect();
    (0..=tokens.len() - alias.len()).find(|&start| {
        alias
            .iter()
            .zip(&tokens[start..])
            .all(|((word, cap), (token, token_cap))| word == token && (!cap || *token_cap))
    })
}
