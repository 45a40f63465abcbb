//! The baseline: Okapi BM25 (k1 = 1.2, b = 0.75) over whole sessions. Tokens are runs
//! of letters and digits, lower-cased; no stemming, no stopwords. The idf is Lucene's,
//! `ln(1 + (N − n + 0.5) / (n + 0.5))`, which stays positive for a word in every
//! session (the speakers' names). A query's terms are summed as they occur, repeats
//! included.

use std::collections::HashMap;

pub const K1: f64 = 1.2;
pub const B: f64 = 0.75;

/// Lower-cased runs of letters and digits.
pub fn tokens(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// An index over a handful of documents (one conversation's sessions).
#[derive(Debug, Clone)]
pub struct Bm25 {
    terms: Vec<HashMap<String, f64>>,
    lengths: Vec<f64>,
    average: f64,
    documents_with: HashMap<String, f64>,
}

impl Bm25 {
    pub fn new<S: AsRef<str>>(documents: &[S]) -> Self {
        let mut terms = Vec::with_capacity(documents.len());
        let mut lengths = Vec::with_capacity(documents.len());
        let mut documents_with: HashMap<String, f64> = HashMap::new();
        for doc in documents {
            let mut counts: HashMap<String, f64> = HashMap::new();
            let words = tokens(doc.as_ref());
            lengths.push(words.len() as f64);
            for w in words {
                *counts.entry(w).or_default() += 1.0;
            }
            for w in counts.keys() {
                *documents_with.entry(w.clone()).or_default() += 1.0;
            }
            terms.push(counts);
        }
        let average = if lengths.is_empty() {
            0.0
        } else {
            lengths.iter().sum::<f64>() / lengths.len() as f64
        };
        Self {
            terms,
            lengths,
            average,
            documents_with,
        }
    }

    fn idf(&self, term: &str) -> f64 {
        let n = self.documents_with.get(term).copied().unwrap_or(0.0);
        let total = self.terms.len() as f64;
        (1.0 + (total - n + 0.5) / (n + 0.5)).ln()
    }

    /// Each document's score for `query`.
    pub fn scores(&self, query: &str) -> Vec<f64> {
        let query = tokens(query);
        let idf: Vec<f64> = query.iter().map(|t| self.idf(t)).collect();
        self.terms
            .iter()
            .zip(&self.lengths)
            .map(|(counts, &len)| {
                let norm = K1 * (1.0 - B + B * len / self.average.max(1.0));
                query
                    .iter()
                    .zip(&idf)
                    .map(|(t, idf)| {
                        let tf = counts.get(t).copied().unwrap_or(0.0);
                        idf * tf * (K1 + 1.0) / (tf + norm)
                    })
                    .sum()
            })
            .collect()
    }

    /// Document indexes, best first (ties by index).
    pub fn rank(&self, query: &str) -> Vec<usize> {
        let scores = self.scores(query);
        let mut order: Vec<usize> = (0..scores.len()).collect();
        order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
        order
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_lower_case_alphanumeric_runs() {
        assert_eq!(
            tokens("Maya's dog, Biscuit (2 yrs)!"),
            ["maya", "s", "dog", "biscuit", "2", "yrs"]
        );
    }

    #[test]
    fn the_rarer_matching_word_wins_and_scores_match_the_formula() {
        let docs = [
            "maya adopted a rescue pup named biscuit",
            "maya went to lisbon with her sister",
            "maya talked about work and the weather",
        ];
        let index = Bm25::new(&docs);
        assert_eq!(index.rank("where did maya travel lisbon")[0], 1);
        assert_eq!(index.rank("biscuit")[0], 0);
        // "biscuit" once in one of three documents of 7 words each.
        let idf = (1.0 + (3.0 - 1.0 + 0.5) / 1.5f64).ln();
        let norm = K1 * (1.0 - B + B * 7.0 / 7.0);
        let expected = idf * (K1 + 1.0) / (1.0 + norm);
        let got = index.scores("biscuit");
        assert!((got[0] - expected).abs() < 1e-12, "{got:?} vs {expected}");
        assert_eq!(&got[1..], [0.0, 0.0]);
        // A word in every document still counts a little.
        assert!(index.scores("maya").iter().all(|&s| s > 0.0));
    }
}
