//! Full-text ranking apart from any store: how a memory's text becomes words, and how
//! BM25 scores a query over one user's memories. The SQLite store ranks its in-memory
//! postings (`sqlite/search/texts.rs`) with these functions; a store that ranks the
//! same way must use them too (the Neo4j store still ranks with Lucene's own scoring
//! over its full-text indexes).
//!
//! **Words.** Runs of letters and digits, lower-cased, accents removed, stemmed (Porter's
//! English stemmer, Snowball's second version): "pricing" and "priced" both find
//! "price". A query word that is more than one word here ("e-mail", "o'brien") matches
//! the memories holding all of its parts, with the least frequency among them.
//!
//! **Score.** Okapi BM25 with k1 = 1.2, b = 0.75 and Lucene's always-positive idf,
//! `ln(1 + (N − n + 0.5) / (n + 0.5))`, over the user's memories of the kind alone
//! (every state and time; the scope filters the answer, not the statistics); a word's
//! frequency in a memory is weighted by column (a Source's summary 2, content 1,
//! keywords 1.5; a node's name 3, description 1; a fact's text 1, value 2), a memory's
//! length is its number of words. Scores are single precision, summed in query order.

use std::collections::HashMap;
use std::sync::LazyLock;

use rust_stemmers::{Algorithm, Stemmer};

use crate::domain::Target;

pub(crate) const K1: f64 = 1.2;
pub(crate) const B: f64 = 0.75;

/// The weight of each searched column (`c0`–`c2`) of a kind of memory.
pub(crate) fn column_weights(target: Target) -> [f32; 3] {
    match target {
        Target::Source => [2.0, 1.0, 1.5],
        Target::Node => [3.0, 1.0, 0.0],
        Target::Storyline | Target::Macro => [1.0, 0.0, 0.0],
        Target::Fact => [1.0, 2.0, 0.0],
    }
}

static STEMMER: LazyLock<Stemmer> = LazyLock::new(|| Stemmer::create(Algorithm::English));

/// The words of `text`, as searched: lower-cased, accents removed, stemmed.
pub(crate) fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let lower = w.to_lowercase();
            let folded = if lower.is_ascii() {
                lower
            } else {
                use unicode_normalization::UnicodeNormalization;
                lower
                    .nfd()
                    .filter(|c| !unicode_normalization::char::is_combining_mark(*c))
                    .collect()
            };
            stem(folded)
        })
}

thread_local! {
    /// Stems already found on this thread: a user's memories repeat a few thousand
    /// words, and stemming is most of the cost of loading their text.
    static STEMS: std::cell::RefCell<HashMap<String, String>> =
        std::cell::RefCell::new(HashMap::new());
}

fn stem(word: String) -> String {
    STEMS.with(|stems| {
        let mut stems = stems.borrow_mut();
        if let Some(stem) = stems.get(&word) {
            return stem.clone();
        }
        let stem = STEMMER.stem(&word).into_owned();
        if stems.len() >= 100_000 {
            stems.clear();
        }
        stems.insert(word, stem.clone());
        stem
    })
}

/// A memory's searched text as words: its length and each word's column-weighted
/// frequency, sorted by word.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Analyzed {
    pub len: u32,
    pub words: Vec<(String, f32)>,
}

/// The words of a memory of `target` whose searched columns hold `columns`.
pub(crate) fn analyze(target: Target, columns: [&str; 3]) -> Analyzed {
    let mut counts: HashMap<String, f32> = HashMap::new();
    let mut len = 0u32;
    for (text, weight) in columns.into_iter().zip(column_weights(target)) {
        for word in words(text) {
            len += 1;
            *counts.entry(word).or_default() += weight;
        }
    }
    let mut words: Vec<(String, f32)> = counts.into_iter().filter(|(_, f)| *f > 0.0).collect();
    words.sort_by(|a, b| a.0.cmp(&b.0));
    Analyzed { len, words }
}

/// A query's words: each term's parts (one part for a plain word).
pub(crate) fn query_words(terms: &[String]) -> Vec<Vec<String>> {
    terms.iter().map(|t| words(t).collect()).collect()
}

/// The length part of BM25's denominator for a memory of `len` words.
pub(crate) fn norm(len: u32, avg_len: f64) -> f32 {
    (K1 * (1.0 - B + B * f64::from(len) / avg_len)) as f32
}

/// The weight of a word held by `df` of `n` memories.
pub(crate) fn idf(n: f64, df: f64) -> f32 {
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln() as f32
}

/// What one word of weighted frequency `f` adds to a memory's score.
pub(crate) fn term_score(idf: f32, f: f32, norm: f32) -> f32 {
    idf * f * (K1 + 1.0) as f32 / (f + norm)
}

/// The average length of `n` memories of `total_len` words together (at least 1).
pub(crate) fn avg_len(n: f64, total_len: u64) -> f64 {
    (total_len as f64 / n).max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_folded_and_stemmed() {
        let w: Vec<String> = words("Pricing, PRICED café-Owners' naïve").collect();
        assert_eq!(w, ["price", "price", "cafe", "owner", "naiv"]);
    }

    #[test]
    fn columns_weigh_a_words_frequency() {
        let a = analyze(Target::Source, ["pricing plan", "the plan", "plans"]);
        assert_eq!(a.len, 5);
        assert_eq!(
            a.words,
            vec![
                ("plan".to_owned(), 2.0 + 1.0 + 1.5),
                ("price".to_owned(), 2.0),
                ("the".to_owned(), 1.0)
            ]
        );
    }
}
