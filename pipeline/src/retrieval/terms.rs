//! A query's words for full-text search: lower-cased, one-letter words and function
//! words dropped, de-duplicated, at most 32. Never query syntax: stores quote them.
//!
//! Only function words are dropped (articles, pronouns, auxiliaries, prepositions,
//! conjunctions, question words). Content words stay even when they are common —
//! "March", "Friday", "new", "first", "want" — because a question often hinges on
//! them and the full-text ranking (BM25) already weighs a word by how rare it is. The
//! offline model's much longer stopword list is for choosing keywords, not for search.

use std::collections::HashSet;
use std::sync::LazyLock;

static FUNCTION_WORDS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    "a about above after again against all am an and any are aren't as at be because been \
     before being below between both but by can can't cannot could couldn't did didn't do \
     does doesn't doing don't down during each few for from further had hadn't has hasn't \
     have haven't having he he'd he'll he's her here here's hers herself him himself his how \
     how's i i'd i'll i'm i've if in into is isn't it it's its itself let's me more most \
     mustn't my myself no nor not of off on once only or other ought our ours ourselves out \
     over own same shan't she she'd she'll she's should shouldn't so some such than that \
     that's the their theirs them themselves then there there's these they they'd they'll \
     they're they've this those through to too under until up very was wasn't we we'd we'll \
     we're we've were weren't what what's when when's where where's which while who who's \
     whom why why's will with won't would wouldn't you you'd you'll you're you've your yours \
     yourself yourselves"
        .split_whitespace()
        .collect()
});

pub fn terms(query: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    // A typographic apostrophe ("didn’t") is an apostrophe.
    let query = query.replace('’', "'");
    for w in query
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '-'))
        .map(|w| w.trim_matches(|c| c == '\'' || c == '-').to_lowercase())
    {
        if w.chars().count() < 2 || FUNCTION_WORDS.contains(w.as_str()) || out.contains(&w) {
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
            ["say", "google", "job", "offer", "near"]
        );
        assert!(terms("the of and").is_empty());
    }

    #[test]
    fn a_typographic_apostrophe_keeps_the_word_whole() {
        assert_eq!(
            terms("Why didn’t Leo’s band play?"),
            ["leo's", "band", "play"]
        );
    }

    #[test]
    fn dates_and_wants_are_content() {
        assert_eq!(
            terms("What does Sarah Chen want by March?"),
            ["sarah", "chen", "want", "march"]
        );
        assert_eq!(
            terms("When did she start the new job?"),
            ["start", "new", "job"]
        );
    }
}
