//! Phase 1 facts without a model: an extractive 1–2 sentence summary, 5–10 keywords
//! and 3–5 tags.

use std::collections::HashMap;

use super::tags::tags;
use super::text::{self, Sentence};
use crate::SourceFacts;
use cosmo_core::domain::SourceType;

const MAX_SUMMARY_SENTENCE: usize = 300;

pub fn describe(source_type: SourceType, content: &str) -> SourceFacts {
    let sentences = text::sentences(content, &[]);
    SourceFacts {
        summary: summary(&sentences, content),
        keywords: keywords(&sentences),
        tags: tags(source_type, &sentences),
    }
}

/// The one or two best sentences of the body, in their original order.
fn summary(sentences: &[Sentence], content: &str) -> String {
    let body: Vec<&Sentence> = sentences.iter().filter(|s| s.header.is_none()).collect();
    let pool: Vec<&Sentence> = if body.is_empty() {
        sentences.iter().collect()
    } else {
        body
    };
    if pool.is_empty() {
        return text::truncate(
            &content.split_whitespace().collect::<Vec<_>>().join(" "),
            MAX_SUMMARY_SENTENCE,
        );
    }
    let words: Vec<Vec<String>> = pool
        .iter()
        .map(|s| dedup(text::content_words(&s.text)))
        .collect();
    let scores = score_sentences(&pool, &words);
    let mut ranked: Vec<usize> = (0..pool.len()).collect();
    ranked.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
    let mut chosen = vec![ranked[0]];
    if let Some(&second) = ranked.get(1) {
        let distinct = overlap(&words[ranked[0]], &words[second]) < 0.6;
        if pool.len() >= 3 && distinct && scores[second] >= 0.5 * scores[ranked[0]] {
            chosen.push(second);
        }
    }
    chosen.sort_unstable();
    chosen
        .iter()
        .map(|&i| text::truncate(&pool[i].attributed(), MAX_SUMMARY_SENTENCE))
        .collect::<Vec<_>>()
        .join(" ")
}

/// TF-IDF-like centrality of each sentence's distinct content words, normalised for
/// length, with a bonus for coming early and a penalty for fragments and questions.
fn score_sentences(pool: &[&Sentence], words: &[Vec<String>]) -> Vec<f64> {
    let mut tf: HashMap<&str, f64> = HashMap::new();
    for w in words.iter().flatten() {
        *tf.entry(w.as_str()).or_default() += 1.0;
    }
    let n = pool.len() as f64;
    pool.iter()
        .zip(words)
        .enumerate()
        .map(|(i, (sentence, ws))| {
            let sum: f64 = ws
                .iter()
                .map(|w| tf[w.as_str()] * (1.0 + n / tf[w.as_str()]).ln())
                .sum();
            let mut score = sum / (ws.len().max(3) as f64).sqrt();
            score *= 1.0 + 0.25 / (1.0 + i as f64);
            let token_count = text::tokens(&sentence.text).len();
            if token_count < 4 {
                score *= 0.3;
            }
            if sentence.text.ends_with('?') {
                score *= 0.75;
            }
            score
        })
        .collect()
}

/// Share of the smaller set that the two word lists have in common.
pub fn overlap(a: &[String], b: &[String]) -> f64 {
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let common = a.iter().filter(|w| b.contains(w)).count();
    common as f64 / a.len().min(b.len()) as f64
}

fn dedup(words: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    for w in words {
        if !out.contains(&w) {
            out.push(w);
        }
    }
    out
}

/// Unigrams and recurring bigrams of content words, by frequency then first position.
fn keywords(sentences: &[Sentence]) -> Vec<String> {
    let mut counts: HashMap<String, (usize, usize)> = HashMap::new();
    let mut position = 0;
    for sentence in sentences {
        let masked = text::mask_urls(&sentence.text);
        let tokens = text::tokens(&masked);
        let normed: Vec<String> = tokens.iter().map(|t| text::norm(t.text)).collect();
        for (i, word) in normed.iter().enumerate() {
            position += 1;
            if !text::is_content_word(word) || word.chars().all(|c| c.is_ascii_digit()) {
                continue;
            }
            counts.entry(word.clone()).or_insert((0, position)).0 += 1;
            if let Some(next) = normed.get(i + 1)
                && text::is_content_word(next)
                && text::adjacent(&masked, &tokens[i], &tokens[i + 1])
            {
                counts
                    .entry(format!("{word} {next}"))
                    .or_insert((0, position))
                    .0 += 1;
            }
        }
    }
    // For each word, the count of the most frequent kept bigram holding it.
    let mut in_bigram: HashMap<&str, usize> = HashMap::new();
    for (term, (count, _)) in counts
        .iter()
        .filter(|(k, (c, _))| k.contains(' ') && *c >= 2)
    {
        for word in term.split(' ') {
            let best = in_bigram.entry(word).or_default();
            *best = (*best).max(*count);
        }
    }
    let mut terms: Vec<(&String, usize, usize)> = counts
        .iter()
        .filter(|(term, (count, _))| {
            if term.contains(' ') {
                return *count >= 2;
            }
            // A unigram only ever seen inside a kept bigram adds nothing.
            in_bigram.get(term.as_str()).is_none_or(|c| c < count)
        })
        .map(|(term, (count, first))| (term, *count, *first))
        .collect();
    terms.sort_by(|a, b| b.1.cmp(&a.1).then(a.2.cmp(&b.2)).then(a.0.cmp(b.0)));
    let frequent = terms.iter().filter(|t| t.1 >= 2).count();
    terms
        .into_iter()
        .take(frequent.clamp(5, 10))
        .map(|t| t.0.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const EMAIL: &str = "From: Dana Lee <dana@acme.com>\nTo: alex@example.com\n\
        Subject: Vendor contract renewal\n\n\
        Hi Alex,\n\nThe vendor contract renewal is due on Friday and legal has approved the new \
        pricing. \
        The new pricing cuts our hosting costs by twelve percent. \
        Finance still needs to sign the contract before the deadline. \
        Can you review the contract terms today? I attached the pricing sheet.";

    #[test]
    fn summaries_are_one_or_two_real_sentences() {
        let facts = describe(SourceType::Email, EMAIL);
        let count = text::split_sentences(&facts.summary).len();
        assert!((1..=2).contains(&count), "{}", facts.summary);
        assert!(facts.summary.contains("contract"), "{}", facts.summary);
        assert!(
            EMAIL.contains(
                facts
                    .summary
                    .split(". ")
                    .next()
                    .unwrap()
                    .trim_end_matches('.')
            )
        );
    }

    #[test]
    fn keywords_are_recurring_content_terms() {
        let facts = describe(SourceType::Email, EMAIL);
        assert!(
            (5..=10).contains(&facts.keywords.len()),
            "{:?}",
            facts.keywords
        );
        assert!(
            facts.keywords.contains(&"contract".to_owned()),
            "{:?}",
            facts.keywords
        );
        assert!(
            facts.keywords.contains(&"pricing".to_owned()),
            "{:?}",
            facts.keywords
        );
        assert!(
            facts.keywords.contains(&"contract renewal".to_owned()),
            "{:?}",
            facts.keywords
        );
        assert!(
            facts
                .keywords
                .iter()
                .all(|k| k == &k.to_lowercase() && !text::is_stopword(k))
        );
        assert!(
            !facts
                .keywords
                .iter()
                .any(|k| k.contains('@') || k == "dana")
        );
    }

    #[test]
    fn tags_come_from_cues_and_the_source_type() {
        let facts = describe(SourceType::Email, EMAIL);
        assert!((3..=5).contains(&facts.tags.len()), "{:?}", facts.tags);
        assert!(facts.tags.contains(&"email".to_owned()));
        assert!(
            facts.tags.contains(&"sales".to_owned()) || facts.tags.contains(&"legal".to_owned()),
            "{:?}",
            facts.tags
        );
        let tiny = describe(SourceType::TextNote, "Zebra.");
        assert_eq!(tiny.tags, vec!["text-note", "notes", "personal"]);
        assert_eq!(tiny.summary, "Zebra.");
        assert_eq!(tiny.keywords, vec!["zebra"]);
    }
}
