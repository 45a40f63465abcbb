//! Finding names in a sentence: runs of capitalised words ("Sarah Chen", "Bank of
//! America", "Project Atlas"), classified as people, organisations, places, products,
//! projects or events by lexicons and the words around them.

use std::collections::HashSet;

use super::lexicon::{
    COMMON_ACRONYMS, EVENT_WORDS, FIRST_NAMES, KNOWN_ORGS, KNOWN_PRODUCTS, NON_NAMES, ORG_HEADS,
    ORG_SUFFIXES, PLACE_WORDS, PLACES, STOPWORDS, TITLES,
};
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

const PERSON_BEFORE: &str = "told tell asked ask met meet thanks thank cc ping pinged call called \
    email emailed text texted invite invited introduced hired dear hi hey hello congrats \
    congratulations";
/// Cues that also precede organisations ("with Acme"): enough only for two-word names.
const WEAK_PERSON_BEFORE: &str = "with and visited by";
const PERSON_AFTER: &str = "said says told asked thinks mentioned wants wrote replied suggested \
    agreed noted explained believes feels promised confirmed argued shared joined";
const ORG_BEFORE: &str = "at joined joining join from acquired acquire partnering";
const PRODUCT_BEFORE: &str = "launch launched launching release released releasing using use used \
    ship shipped shipping adopt adopted migrate migrating install installed upgrade upgraded \
    deploy deployed try tried bought buy built on";
const CONNECTORS: &str = "of de van von der da del la di &";

/// Lower-case words seen capitalised somewhere other than the start of a sentence:
/// evidence that a sentence-initial capital is a name, not grammar.
pub fn mid_sentence_capitals(sentences: &[&str]) -> HashSet<String> {
    let mut seen = HashSet::new();
    for sentence in sentences {
        for token in text::tokens(sentence).iter().skip(1) {
            if is_capitalised(token.text) {
                seen.insert(text::norm(token.text));
            }
        }
    }
    seen
}

/// The classified names of one sentence, in order.
pub fn find(sentence: &str, seen_mid: &HashSet<String>) -> Vec<Found> {
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
            if let Some(found) = classify(sentence, &tokens, start, stop, seen_mid) {
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
            let lower = text::norm(tokens[i].text);
            let never_a_name =
                NON_NAMES.contains(lower.as_str()) || STOPWORDS.contains(lower.as_str());
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

fn classify(
    sentence: &str,
    tokens: &[Token<'_>],
    start: usize,
    end: usize,
    seen_mid: &HashSet<String>,
) -> Option<Found> {
    let prev = |back: usize| {
        start
            .checked_sub(back)
            .map(|i| text::norm(tokens[i].text))
            .unwrap_or_default()
    };
    let (prev1, prev2) = (prev(1), prev(2));
    let next = tokens
        .get(end)
        .map(|t| text::norm(t.text))
        .unwrap_or_default();
    let titled = TITLES.contains(prev1.as_str());
    let mut words: Vec<String> = tokens[start..end]
        .iter()
        .map(|t| t.text.replace('’', "'"))
        .collect();
    if let Some(last) = words.last_mut()
        && let Some(stem) = last.strip_suffix("'s")
    {
        *last = stem.to_owned();
    }
    let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
    let joined = lower.join(" ");
    let (first, last) = (lower[0].as_str(), lower[lower.len() - 1].as_str());
    let n = words.len();
    let acronym = n == 1
        && words[0].chars().count() >= 2
        && words[0]
            .chars()
            .all(|c| c.is_uppercase() || c.is_ascii_digit() || c == '&');
    let camel = n == 1 && is_camel(&words[0]);
    if (acronym && COMMON_ACRONYMS.contains(first)) || (n == 1 && words[0].chars().count() < 2) {
        return None;
    }
    let known = FIRST_NAMES.contains(first)
        || PLACES.contains(joined.as_str())
        || KNOWN_ORGS.contains(joined.as_str())
        || KNOWN_PRODUCTS.contains(joined.as_str());
    let sentence_initial = start == 0
        || sentence[..tokens[start].start]
            .trim()
            .chars()
            .all(|c| !c.is_alphanumeric());
    if sentence_initial && n == 1 && !(known || acronym || camel || seen_mid.contains(first)) {
        return None;
    }
    let name = words.join(" ");
    let found = |kind, entity_type, strength| {
        Some(Found {
            name: name.clone(),
            kind,
            entity_type,
            strength,
        })
    };
    let entity = |t: &'static str, s: f64| found(NodeKind::Entity, Some(t), s);
    let person = |s: f64| found(NodeKind::Person, None, s);
    let name_like = n <= 3
        && words.iter().all(|w| {
            w.chars()
                .all(|c| c.is_alphabetic() || c == '\'' || c == '-')
        });
    let person_cue = text::listed(&prev1, PERSON_BEFORE)
        || text::listed(&next, PERSON_AFTER)
        || (n >= 2 && text::listed(&prev1, WEAK_PERSON_BEFORE));
    if matches!(first, "project" | "operation" | "initiative") && n >= 2 {
        return entity("project", 7.0);
    }
    let suffixed = n >= 2 && ORG_SUFFIXES.contains(last);
    if suffixed || (ORG_HEADS.contains(first) && lower.iter().any(|w| w == "of")) {
        return entity("organization", 7.0);
    }
    if PLACES.contains(joined.as_str()) || (n >= 2 && PLACE_WORDS.contains(last)) {
        return entity("place", 6.0);
    }
    if KNOWN_ORGS.contains(joined.as_str()) {
        return entity("organization", 6.0);
    }
    if KNOWN_PRODUCTS.contains(joined.as_str()) {
        return entity("product", 6.0);
    }
    if lower.iter().any(|w| EVENT_WORDS.contains(w.as_str())) {
        return entity("event", 6.0);
    }
    if next == "project" {
        return entity("project", 6.0);
    }
    if titled && name_like {
        return person(7.0);
    }
    if FIRST_NAMES.contains(first) && name_like {
        return person(if person_cue { 7.0 } else { 6.0 });
    }
    let works_for =
        prev1 == "for" && matches!(prev2.as_str(), "works" | "work" | "working" | "worked");
    if text::listed(&prev1, ORG_BEFORE) || works_for {
        return entity("organization", 5.0);
    }
    if camel || text::listed(&prev1, PRODUCT_BEFORE) {
        return entity("product", 5.0);
    }
    if person_cue && name_like && !acronym {
        return person(5.0);
    }
    if acronym {
        return entity("other", 4.0);
    }
    if n == 2 && name_like {
        return person(4.0);
    }
    entity("other", 3.0)
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
        find(sentence, &HashSet::new())
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
