//! Full-text ranking, the same on every store: how a memory's text becomes words, and
//! how BM25 scores a query over one user's memories. The SQLite store ranks its
//! in-memory postings (`sqlite/search/texts/`); the Neo4j store ranks the candidates
//! it finds from the words each memory carries per searched column (`<column>_terms`,
//! `<column>_counts`, `<column>_len`, written with the text, [`column_words`]) with
//! [`rank`]. Both use the functions here, so a query ranks the same memories in the
//! same order on both.
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

pub const K1: f64 = 1.2;
pub const B: f64 = 0.75;

/// The weight of each searched column (`c0`–`c2`) of a kind of memory.
pub fn column_weights(target: Target) -> [f32; 3] {
    match target {
        Target::Source => [2.0, 1.0, 1.5],
        Target::Node => [3.0, 1.0, 0.0],
        Target::Storyline | Target::Macro => [1.0, 0.0, 0.0],
        Target::Fact => [1.0, 2.0, 0.0],
    }
}

static STEMMER: LazyLock<Stemmer> = LazyLock::new(|| Stemmer::create(Algorithm::English));

/// The words of `text`, as searched: lower-cased, accents removed, stemmed.
pub fn words(text: &str) -> impl Iterator<Item = String> + '_ {
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
pub struct Analyzed {
    pub len: u32,
    pub words: Vec<(String, f32)>,
}

/// The words of a memory of `target` whose searched columns hold `columns`.
pub fn analyze(target: Target, columns: [&str; 3]) -> Analyzed {
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
pub fn query_words(terms: &[String]) -> Vec<Vec<String>> {
    terms.iter().map(|t| words(t).collect()).collect()
}

/// The length part of BM25's denominator for a memory of `len` words.
pub fn norm(len: u32, avg_len: f64) -> f32 {
    (K1 * (1.0 - B + B * f64::from(len) / avg_len)) as f32
}

/// The weight of a word held by `df` of `n` memories.
pub fn idf(n: f64, df: f64) -> f32 {
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln() as f32
}

/// What one word of weighted frequency `f` adds to a memory's score.
pub fn term_score(idf: f32, f: f32, norm: f32) -> f32 {
    idf * f * (K1 + 1.0) as f32 / (f + norm)
}

/// The average length of `n` memories of `total_len` words together (at least 1).
pub fn avg_len(n: f64, total_len: u64) -> f64 {
    (total_len as f64 / n).max(1.0)
}

/// One searched column's words, as the Neo4j store keeps them on the memory: its
/// distinct words (sorted), how often each occurs, and how many words it has.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ColumnWords {
    pub terms: Vec<String>,
    pub counts: Vec<i64>,
    pub len: i64,
}

/// The words of one searched column's text.
pub fn column_words(text: &str) -> ColumnWords {
    let mut counts: std::collections::BTreeMap<String, i64> = std::collections::BTreeMap::new();
    let mut len = 0;
    for word in words(text) {
        len += 1;
        *counts.entry(word).or_default() += 1;
    }
    let (terms, counts) = counts.into_iter().unzip();
    ColumnWords { terms, counts, len }
}

/// A memory holding at least one word of the query, as a store found it.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub key: String,
    /// Its number of words, all columns together.
    pub len: u32,
    /// Within the search's scope (state, time, live).
    pub admitted: bool,
    /// For each of the query's distinct words ([`distinct_words`]), how often each
    /// searched column holds it.
    pub counts: Vec<[i64; 3]>,
}

/// Every distinct word of a query, in first-seen order: what a store looks up.
pub fn distinct_words(query: &[Vec<String>]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in query.iter().flatten() {
        if !out.contains(w) {
            out.push(w.clone());
        }
    }
    out
}

/// The best `limit` candidates for `query` (best first, ties by key), scored over the
/// user's `n` memories of `target` holding `total_len` words together, exactly as the
/// SQLite store scores its postings. `candidates` must be every memory of the user
/// holding any word of `distinct_words(query)` (document frequencies are counted over
/// them), admitted or not.
pub fn rank(
    target: Target,
    n: usize,
    total_len: u64,
    candidates: &[Candidate],
    query: &[Vec<String>],
    limit: usize,
) -> Vec<(String, f64)> {
    if n == 0 || limit == 0 {
        return Vec::new();
    }
    let stems = distinct_words(query);
    let weights = column_weights(target);
    // Σ count × weight: exact in single precision (multiples of 0.5), so equal to the
    // SQLite store's sum of a weight per occurrence.
    let freq = |c: &Candidate, i: usize| -> f32 {
        c.counts[i]
            .iter()
            .zip(weights)
            .map(|(&k, w)| k as f32 * w)
            .sum()
    };
    let n_f = n as f64;
    let avg = avg_len(n_f, total_len);
    let norms: Vec<f32> = candidates.iter().map(|c| norm(c.len, avg)).collect();
    let mut score = vec![0.0f32; candidates.len()];
    let mut seen: Vec<Vec<usize>> = Vec::new();
    for parts in query {
        // A part no memory holds leaves the word out, as a word out of the vocabulary.
        let Some(ids) = parts
            .iter()
            .map(|w| {
                let i = stems.iter().position(|s| s == w)?;
                candidates.iter().any(|c| freq(c, i) > 0.0).then_some(i)
            })
            .collect::<Option<Vec<usize>>>()
            .filter(|ids| !ids.is_empty())
        else {
            continue;
        };
        if seen.contains(&ids) {
            continue;
        }
        let matched: Vec<(usize, f32)> = candidates
            .iter()
            .enumerate()
            .filter_map(|(d, c)| {
                ids.iter()
                    .map(|&i| freq(c, i))
                    .try_fold(f32::INFINITY, |f, g| (g > 0.0).then_some(f.min(g)))
                    .map(|f| (d, f))
            })
            .collect();
        let w = idf(n_f, matched.len() as f64);
        for (d, f) in matched {
            score[d] += term_score(w, f, norms[d]);
        }
        seen.push(ids);
    }
    let mut found: Vec<(f32, usize)> = score
        .iter()
        .enumerate()
        .filter(|(d, s)| **s > 0.0 && candidates[*d].admitted)
        .map(|(d, s)| (*s, d))
        .collect();
    found.sort_by(|a, b| {
        b.0.total_cmp(&a.0)
            .then_with(|| candidates[a.1].key.cmp(&candidates[b.1].key))
    });
    found.truncate(limit);
    found
        .into_iter()
        .map(|(s, d)| (candidates[d].key.clone(), f64::from(s)))
        .collect()
}

/// The ranking of `terms` over a user's memories given as texts (key, the searched
/// columns, within the scope): the order both stores must answer. For tests.
pub fn rank_texts(
    target: Target,
    memories: &[(String, [String; 3], bool)],
    terms: &[String],
    limit: usize,
) -> Vec<String> {
    let query = query_words(terms);
    let stems = distinct_words(&query);
    let mut total_len = 0u64;
    let mut candidates = Vec::new();
    for (key, columns, admitted) in memories {
        let words: Vec<ColumnWords> = columns.iter().map(|c| column_words(c)).collect();
        let len: i64 = words.iter().map(|w| w.len).sum();
        total_len += len as u64;
        let counts: Vec<[i64; 3]> = stems
            .iter()
            .map(|s| {
                let count = |w: &ColumnWords| w.terms.binary_search(s).map_or(0, |i| w.counts[i]);
                [count(&words[0]), count(&words[1]), count(&words[2])]
            })
            .collect();
        if counts.iter().flatten().any(|k| *k > 0) {
            candidates.push(Candidate {
                key: key.clone(),
                len: len as u32,
                admitted: *admitted,
                counts,
            });
        }
    }
    rank(
        target,
        memories.len(),
        total_len,
        &candidates,
        &query,
        limit,
    )
    .into_iter()
    .map(|(k, _)| k)
    .collect()
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
