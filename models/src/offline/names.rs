//! Finding names in a sentence: runs of capitalised words ("Sarah Chen", "Bank of
//! America", "Project Atlas"), less the words that only open the sentence ("Woohoo
//! Melanie", "Learning German"), each classified by [`super::classify`].

use std::collections::HashSet;

use super::classify::classify;
use super::cues;
use super::lexicon::{FIRST_NAMES, NON_NAMES, STOPWORDS, TITLES};
use super::text::{self, Token};
use cosmo_core::domain::NodeKind;

/// One classified name found in a sentence.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    pub name: String,
    pub kind: NodeKind,
    pub entity_type: Option<&'static str>,
    /// How sure the pattern is, on the 0–10 confidence scale.
    pub strength: f64,
}

pub(super) const CONNECTORS: &str = "of de van von der da del la di &";

/// What the whole text says about words, beyond one sentence.
#[derive(Debug, Clone, Default)]
pub struct Evidence {
    /// Lower-case words seen capitalised somewhere other than the start of a sentence:
    /// a sentence-initial capital among them is a name, not grammar.
    pub mid: HashSet<String>,
    /// Lower-case words of the speakers' labels and the owner's name: people by the
    /// text's own say.
    pub people: HashSet<String>,
}

impl Evidence {
    /// Whether `word` (lower case) is known to be a given name: a common one, or a
    /// speaker's or the owner's.
    pub fn is_given_name(&self, word: &str) -> bool {
        FIRST_NAMES.contains(word) || self.people.contains(word)
    }

    /// Whether a sentence-initial `word` (lower case) is a name rather than grammar.
    fn named(&self, word: &str) -> bool {
        self.is_given_name(word) || self.mid.contains(word)
    }
}

/// Lower-case words seen capitalised somewhere other than the start of a sentence, first
/// in their run of capitals (for [`Evidence::mid`]); a word after the sentence's first
/// counts ("Woohoo Melanie").
pub fn mid_sentence_capitals(sentences: &[&str]) -> HashSet<String> {
    let mut seen = HashSet::new();
    for sentence in sentences {
        let tokens = text::tokens(sentence);
        for (i, token) in tokens.iter().enumerate().skip(1) {
            // The first word of a run: "Half" in "the City Half Marathon" is no name.
            let starts_run = i == 1 || !is_capitalised(tokens[i - 1].text);
            if is_capitalised(token.text) && starts_run {
                seen.insert(text::norm(token.text));
            }
        }
    }
    seen
}

/// The classified names of one sentence, in order.
pub fn find(sentence: &str, evidence: &Evidence) -> Vec<Found> {
    let tokens = text::tokens(sentence);
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if !(is_capitalised(tokens[i].text) || is_camel(tokens[i].text)) {
            i += 1;
            continue;
        }
        let end = run_end(sentence, &tokens, i);
        for (start, stop) in split_run(&tokens, i, end) {
            let start = trim_opening(sentence, &tokens, start, stop, evidence);
            if let Some(found) = classify(sentence, &tokens, start, stop, evidence) {
                out.push(found);
            }
        }
        i = end;
    }
    out
}

/// The end (exclusive) of the run of capitalised words starting at `start`.
fn run_end(sentence: &str, tokens: &[Token<'_>], start: usize) -> usize {
    let mut end = start + 1;
    while end < tokens.len() {
        let prev = &tokens[end - 1];
        if prev.text.ends_with("'s") || prev.text.ends_with("’s") {
            break;
        }
        let gap = &sentence[prev.end..tokens[end].start];
        let after_title = TITLES.contains(text::norm(prev.text).as_str()) && gap.trim() == ".";
        if !(gap.chars().all(|c| c == ' ') || after_title) {
            break;
        }
        let next = tokens[end].text;
        if is_capitalised(next) || is_camel(next) {
            end += 1;
        } else if text::listed(next, CONNECTORS)
            && end + 1 < tokens.len()
            && is_capitalised(tokens[end + 1].text)
            && text::adjacent(sentence, &tokens[end], &tokens[end + 1])
        {
            end += 2;
        } else {
            break;
        }
    }
    end
}

/// Splits a run at words that are never names ("The", "Monday", "Thanks") and trims
/// connectors from the ends.
fn split_run(tokens: &[Token<'_>], start: usize, end: usize) -> Vec<(usize, usize)> {
    let mut parts = Vec::new();
    let mut part_start = start;
    for i in start..=end {
        let breaks = i == end || {
            // Inside a run, a general word is a title's ("Stranger Things").
            let lower = text::norm(tokens[i].text);
            let never_a_name = NON_NAMES.contains(lower.as_str())
                || (i == part_start && STOPWORDS.contains(lower.as_str()));
            (never_a_name || TITLES.contains(lower.as_str()))
                && !text::listed(tokens[i].text, CONNECTORS)
        };
        if breaks {
            let mut s = part_start;
            let mut e = i;
            while s < e && text::listed(tokens[s].text, CONNECTORS) {
                s += 1;
            }
            while e > s && text::listed(tokens[e - 1].text, CONNECTORS) {
                e -= 1;
            }
            if s < e {
                parts.push((s, e));
            }
            part_start = i + 1;
        }
    }
    parts
}

/// The first word of the part `start..stop` that belongs to the name: a sentence's
/// opening interjection, greeting or imperative ("Woohoo", "Anytime", "Remember"), a
/// gerund ("Learning German") or any other opening capital the text never treats as a
/// name, before a known given name ("Sooo Melanie"), is grammar, not part of it.
fn trim_opening(
    sentence: &str,
    tokens: &[Token<'_>],
    mut start: usize,
    stop: usize,
    evidence: &Evidence,
) -> usize {
    while stop - start >= 2 && opens_sentence(sentence, &tokens[start]) {
        let word = text::norm(tokens[start].text);
        let next = text::norm(tokens[start + 1].text);
        let plain = tokens[start].text.chars().skip(1).all(char::is_lowercase);
        let unnamed = plain && !evidence.named(&word);
        let gerund = word.ends_with("ing") && word.chars().count() > 4;
        if cues::is_lead(&word) || (unnamed && (gerund || evidence.is_given_name(&next))) {
            start += 1;
        } else {
            break;
        }
    }
    start
}

/// Whether nothing but punctuation comes before `token` in its sentence.
pub(super) fn opens_sentence(sentence: &str, token: &Token<'_>) -> bool {
    sentence[..token.start]
        .chars()
        .all(|c| !c.is_alphanumeric())
}

/// `Sarah`, `IBM`, `Q3`: an upper-case letter followed by more (`I` and `A` are not).
pub fn is_capitalised(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next().is_some_and(char::is_uppercase) && chars.next().is_some()
}

/// `iPhone`, `GitHub`, `PowerPoint`: an upper-case letter after a lower-case one.
pub fn is_camel(word: &str) -> bool {
    let chars: Vec<char> = word.chars().collect();
    chars
        .windows(2)
        .any(|w| w[0].is_lowercase() && w[1].is_uppercase())
        && chars.iter().all(|c| c.is_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(sentence: &str) -> Vec<(String, NodeKind, Option<&'static str>)> {
        find(sentence, &Evidence::default())
            .into_iter()
            .map(|f| (f.name, f.kind, f.entity_type))
            .collect()
    }

    #[test]
    fn people_organisations_places_and_products() {
        let found = names(
            "Yesterday Sarah Chen met Dr. Amy Lee from Globex in Berlin to discuss Project Atlas \
             and the new iPhone.",
        );
        assert_eq!(
            found,
            vec![
                ("Sarah Chen".to_owned(), NodeKind::Person, None),
                ("Amy Lee".to_owned(), NodeKind::Person, None),
                ("Globex".to_owned(), NodeKind::Entity, Some("organization")),
                ("Berlin".to_owned(), NodeKind::Entity, Some("place")),
                (
                    "Project Atlas".to_owned(),
                    NodeKind::Entity,
                    Some("project")
                ),
                ("iPhone".to_owned(), NodeKind::Entity, Some("product")),
            ]
        );
    }

    #[test]
    fn grammar_capitals_are_not_names() {
        assert!(names("The budget is tight on Monday.").is_empty());
        assert!(names("Budget is tight. Thanks everyone!").is_empty());
        assert_eq!(names("Acme Corp's pilot starts in March")[0].0, "Acme Corp");
        assert!(names("The API and the CEO said OK.").is_empty());
    }

    #[test]
    fn organisations_with_connectors() {
        let found =
            names("She works for Bank of America and studied at the University of Toronto.");
        assert_eq!(found[0].0, "Bank of America");
        assert_eq!(found[1].0, "University of Toronto");
        assert!(found.iter().all(|f| f.2 == Some("organization")));
    }
}
