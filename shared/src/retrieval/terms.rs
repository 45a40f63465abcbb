//! A query's words for the full-text signal: lower-cased, stopwords and one-letter
//! words dropped, de-duplicated, at most 32. Never query syntax: stores quote them.

use crate::llm::offline::lexicon::STOPWORDS;

pub fn terms(query: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in query
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '-'))
        .map(|w| w.trim_matches(|c| c == '\'' || c == '-').to_lowercase())
    {
        if w.chars().count() < 2 || STOPWORDS.contains(w.as_str()) || out.contains(&w) {
            continue;
        }
        out.push(w);
        if out.len() == 32 {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::terms;

    #[test]
    fn keeps_content_words_only() {
        assert_eq!(
            terms("What did I say about the Google job offer? GOOGLE \"x\" OR (NEAR)"),
            ["google", "job", "offer", "near"]
        );
        assert!(terms("the of and").is_empty());
    }
}
