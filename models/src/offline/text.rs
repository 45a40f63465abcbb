//! Words and sentences: sentence splitting, word tokens, content words, and the
//! line-level reading re-exported from [`super::lines`].

use std::sync::LazyLock;

use regex::Regex;

use super::lexicon::STOPWORDS;
pub use super::lines::{Line, NOT_SPEAKERS, Sentence, lines, parse_line, same_name, sentences};

/// A word of a sentence, as a byte range into it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Token<'a> {
    pub text: &'a str,
    pub start: usize,
    pub end: usize,
}

/// Splits one line into sentences at `.`, `!`, `?` followed by whitespace, except after
/// titles, initials and common abbreviations.
pub fn split_sentences(text: &str) -> Vec<String> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < chars.len() {
        let (pos, c) = chars[i];
        if !matches!(c, '.' | '!' | '?' | '…') {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        while j < chars.len()
            && matches!(
                chars[j].1,
                '.' | '!' | '?' | '…' | '"' | '\'' | ')' | '”' | '’' | ']'
            )
        {
            j += 1;
        }
        if j >= chars.len() || !chars[j].1.is_whitespace() {
            i = j;
            continue;
        }
        let mut k = j;
        while k < chars.len() && chars[k].1.is_whitespace() {
            k += 1;
        }
        if k >= chars.len() {
            break;
        }
        if c == '.' && j == i + 1 && is_abbreviation(&text[start..pos], chars[k].1) {
            i = k;
            continue;
        }
        push_sentence(&mut out, &text[start..chars[j].0]);
        start = chars[k].0;
        i = k;
    }
    push_sentence(&mut out, &text[start..]);
    out
}

fn push_sentence(out: &mut Vec<String>, text: &str) {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().any(char::is_alphanumeric) {
        out.push(text);
    }
}

fn is_abbreviation(before: &str, next: char) -> bool {
    let word = before.rsplit(char::is_whitespace).next().unwrap_or("");
    let word = word
        .trim_start_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase();
    const ALWAYS: &str = "mr mrs ms dr prof st jr sr vs e.g i.e approx cf mt ft no fig dept est";
    const LOWER_ONLY: &str = "inc corp ltd co etc jan feb aug sept oct nov dec";
    let initial = before.ends_with(char::is_uppercase) && word.chars().count() == 1;
    listed(&word, ALWAYS)
        || initial
        || (next.is_lowercase() && (listed(&word, LOWER_ONLY) || word.contains('.')))
}

/// Word tokens: letters and digits, with inner apostrophes, hyphens, dots and `&`
/// (`don't`, `e-mail`, `Node.js`, `AT&T`).
pub fn tokens(text: &str) -> Vec<Token<'_>> {
    let is_word = |c: char| c.is_alphanumeric() || matches!(c, '\'' | '’' | '-' | '.' | '&');
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for (pos, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        match (start, is_word(c)) {
            (None, true) => start = Some(pos),
            (Some(s), false) => {
                let raw = &text[s..pos];
                let lead = raw.len() - raw.trim_start_matches(|c: char| !c.is_alphanumeric()).len();
                let word = raw.trim_matches(|c: char| !c.is_alphanumeric());
                if !word.is_empty() {
                    out.push(Token {
                        text: word,
                        start: s + lead,
                        end: s + lead + word.len(),
                    });
                }
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// Lower case, curly apostrophe straightened, possessive `'s` dropped.
pub fn norm(word: &str) -> String {
    let lower = word.to_lowercase().replace('’', "'");
    match lower.strip_suffix("'s") {
        Some(stem) if !stem.is_empty() => stem.to_owned(),
        _ => lower,
    }
}

/// Blanks out URLs and email addresses so they yield no words.
pub fn mask_urls(text: &str) -> String {
    static URL: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?i)\b(https?://|www\.)\S+|\S+@\S+\.\w+").unwrap());
    URL.replace_all(text, |caps: &regex::Captures<'_>| " ".repeat(caps[0].len()))
        .into_owned()
}

/// Whether `word` is one of the space-separated words of `list`.
pub fn listed(word: &str, list: &str) -> bool {
    list.split_whitespace().any(|w| w == word)
}

/// Whether `phrase` is one of the `|`-separated phrases of `list`.
pub fn listed_phrase(phrase: &str, list: &str) -> bool {
    list.split('|').any(|p| p == phrase)
}

pub fn is_stopword(word: &str) -> bool {
    STOPWORDS.contains(word)
}

/// Lower-case words worth counting: not stopwords, at least three characters, with a
/// letter.
pub fn is_content_word(word: &str) -> bool {
    word.chars().count() >= 3 && word.chars().any(char::is_alphabetic) && !is_stopword(word)
}

/// The normalised content words of `text`, in order.
pub fn content_words(text: &str) -> Vec<String> {
    let masked = mask_urls(text);
    tokens(&masked)
        .iter()
        .map(|t| norm(t.text))
        .filter(|w| is_content_word(w))
        .collect()
}

/// Whether only spaces separate two tokens (no punctuation breaks the phrase).
pub fn adjacent(text: &str, a: &Token<'_>, b: &Token<'_>) -> bool {
    a.end <= b.start && text[a.end..b.start].chars().all(|c| c == ' ')
}

/// At most `max` characters, cut at a word boundary with an ellipsis.
pub fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let cut: String = text.chars().take(max - 1).collect();
    let cut = match cut.rfind(' ') {
        Some(i) if i > max / 2 => &cut[..i],
        _ => cut.as_str(),
    };
    format!("{}…", cut.trim_end_matches(|c: char| !c.is_alphanumeric()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_split_on_terminators_but_not_abbreviations() {
        assert_eq!(
            split_sentences(
                "Dr. Lee met Mr. J. Smith at Acme Inc. today. Great! Is it done? yes e.g. this"
            ),
            vec![
                "Dr. Lee met Mr. J. Smith at Acme Inc. today.",
                "Great!",
                "Is it done?",
                "yes e.g. this"
            ]
        );
        assert_eq!(
            split_sentences("Version 3.5 is out... Really."),
            vec!["Version 3.5 is out...", "Really."]
        );
    }

    #[test]
    fn tokens_keep_inner_punctuation() {
        let words: Vec<&str> = tokens("Sarah's e-mail (AT&T, Node.js) -- don't!")
            .iter()
            .map(|t| t.text)
            .collect();
        assert_eq!(words, vec!["Sarah's", "e-mail", "AT&T", "Node.js", "don't"]);
        assert_eq!(norm("Sarah’s"), "sarah");
        assert_eq!(
            content_words("See https://x.io/a and the Quarterly budget"),
            vec!["quarterly", "budget"]
        );
    }

    #[test]
    fn truncation_cuts_at_words() {
        assert_eq!(truncate("short", 10), "short");
        assert_eq!(truncate("the quick brown fox jumps", 15), "the quick…");
    }
}
