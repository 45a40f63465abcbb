//! What `cosmo-bench context` counts as present in a context text, for any system's
//! context alike (Cosmo's markdown or the baseline's turns), so that neither format nor
//! layout decides the figure:
//!
//! * **words** are runs of lower-cased letters and digits, apostrophes kept inside them
//!   ("maya's", "i'm"); a typographic apostrophe counts as `'`;
//! * an **evidence turn is present** when at least half of its distinct word bigrams
//!   (pairs of consecutive words) are among the context's bigrams; a turn of one word,
//!   when that word is among the context's words;
//! * an **answer's words are present** in the share of its content words (its words less
//!   a short stopword list; numbers kept) that are among the context's words. A date the
//!   context writes as `2023-05-07` also counts as its words "7", "may" and "2023", so an
//!   answer "7 May 2023" is found however a system writes the date.

use std::collections::HashSet;

use chrono::NaiveDate;

/// Glue words an answer's presence does not depend on.
const STOPWORDS: &[&str] = &[
    "a", "an", "the", "and", "or", "of", "to", "in", "on", "at", "for", "with", "from", "by", "as",
    "is", "was", "were", "be", "been", "it", "its", "that", "this", "he", "she", "his", "her",
    "him", "they", "them", "their", "i", "my", "we", "our", "you", "your", "around", "about",
    "after", "into", "so", "but", "had", "has", "have", "did", "do",
];

/// Lower-cased words, apostrophes kept inside a word.
pub fn words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .replace('\u{2019}', "'")
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .map(|w| w.trim_matches('\''))
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}

fn bigrams(words: &[String]) -> HashSet<(&str, &str)> {
    words
        .windows(2)
        .map(|w| (w[0].as_str(), w[1].as_str()))
        .collect()
}

/// A context text read once for every question asked of it.
#[derive(Debug, Clone)]
pub struct Context {
    words: HashSet<String>,
    bigrams: HashSet<(String, String)>,
}

impl Context {
    pub fn new(text: &str) -> Self {
        let read = words(text);
        let bigrams = bigrams(&read)
            .into_iter()
            .map(|(a, b)| (a.to_owned(), b.to_owned()))
            .collect();
        let mut words: HashSet<String> = read.into_iter().collect();
        for date in iso_dates(text) {
            words.extend(self::words(&date.format("%-d %B %Y").to_string()));
        }
        Self { words, bigrams }
    }

    /// Whether `turn` (its text, without the speaker) is present.
    pub fn has_turn(&self, turn: &str) -> bool {
        let read = words(turn);
        if read.len() < 2 {
            return read.first().is_none_or(|w| self.words.contains(w));
        }
        let wanted = bigrams(&read);
        let found = wanted
            .iter()
            .filter(|(a, b)| self.bigrams.contains(&((*a).to_owned(), (*b).to_owned())))
            .count();
        found * 2 >= wanted.len()
    }

    /// The share of `turns` present (0 for none).
    pub fn turns_share<S: AsRef<str>>(&self, turns: &[S]) -> f64 {
        if turns.is_empty() {
            return 0.0;
        }
        let found = turns.iter().filter(|t| self.has_turn(t.as_ref())).count();
        found as f64 / turns.len() as f64
    }

    /// The share of the answer's content words present (1 for an answer without any).
    pub fn answer_share(&self, answer: &str) -> f64 {
        let wanted: HashSet<String> = content_words(answer).into_iter().collect();
        if wanted.is_empty() {
            return 1.0;
        }
        let found = wanted.iter().filter(|w| self.words.contains(*w)).count();
        found as f64 / wanted.len() as f64
    }
}

/// An answer's words less the stopwords.
pub fn content_words(answer: &str) -> Vec<String> {
    words(answer)
        .into_iter()
        .filter(|w| !STOPWORDS.contains(&w.as_str()))
        .collect()
}

/// The `YYYY-MM-DD` dates written in `text`.
fn iso_dates(text: &str) -> Vec<NaiveDate> {
    let bytes = text.as_bytes();
    (0..bytes.len().saturating_sub(9))
        .filter(|&i| i == 0 || !bytes[i - 1].is_ascii_digit())
        .filter(|&i| bytes.get(i + 10).is_none_or(|b| !b.is_ascii_digit()))
        .filter_map(|i| text.get(i..i + 10))
        .filter_map(|s| NaiveDate::parse_from_str(s, "%Y-%m-%d").ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TURN: &str = "guess what! we adopted a scruffy rescue pup from Sunny Paws, \
                        his name is Biscuit and he's already chewed my shoes";

    #[test]
    fn words_keep_apostrophes_and_drop_case_and_punctuation() {
        assert_eq!(
            words("Maya’s dog, Biscuit (2 yrs) — he's 'great'!"),
            ["maya's", "dog", "biscuit", "2", "yrs", "he's", "great"]
        );
    }

    #[test]
    fn a_turn_quoted_whole_is_present_wherever_it_stands() {
        let context = Context::new(&format!(
            "## Episodes\n- 2023-05-08 (conversation, chat): a chat\n  > Leo Park: {TURN}\n"
        ));
        assert!(context.has_turn(TURN));
        // Case and punctuation do not matter.
        assert!(context.has_turn(&TURN.to_uppercase().replace(',', ";")));
    }

    #[test]
    fn a_turn_counts_from_half_of_its_bigrams() {
        let read = words(TURN);
        let distinct = bigrams(&read).len();
        // The first half of the words holds about half the bigrams: present when it
        // holds at least half of them, absent with a few words fewer.
        let half = distinct.div_ceil(2) + 1;
        let quoted = read[..half].join(" ");
        let short = read[..half - 3].join(" ");
        assert!(bigrams(&read[..half]).len() * 2 >= distinct);
        assert!(Context::new(&quoted).has_turn(TURN), "{quoted}");
        assert!(!Context::new(&short).has_turn(TURN), "{short}");
    }

    #[test]
    fn a_turn_whose_words_are_scattered_or_missing_is_absent() {
        // Every word of the turn, but in another order: no bigram of it.
        let mut scattered = words(TURN);
        scattered.reverse();
        let context = Context::new(&scattered.join(" "));
        assert!(!context.has_turn(TURN));
        let other = Context::new("Leo Park: the weather has been so weird lately");
        assert!(!other.has_turn(TURN));
        assert_eq!(other.turns_share(&[TURN, "so weird lately"]), 0.5);
    }

    #[test]
    fn answer_words_are_counted_without_glue_and_dates_in_any_form() {
        let context = Context::new("- 2023-05-07 · from src: Maya adopted a dog named Biscuit");
        assert_eq!(context.answer_share("a dog named Biscuit"), 1.0);
        assert_eq!(context.answer_share("around 7 May 2023"), 1.0);
        // Another day of the month: the month and the year only.
        assert_eq!(context.answer_share("8 May 2023"), 2.0 / 3.0);
        assert_eq!(context.answer_share("a cat named Mochi"), 1.0 / 3.0);
        assert_eq!(
            content_words("the week of 1 May 2023"),
            ["week", "1", "may", "2023"]
        );
        // Digits run into other digits are no date.
        assert!(iso_dates("x12023-05-07").is_empty());
        assert_eq!(iso_dates("on 2023-05-07.").len(), 1);
    }
}
