//! What a run of capitalised words names: a person, or an entity typed as an
//! organisation, place, product, work (book, film, game, show, music), pet, project or
//! event — by the lexicons first, then by the words around it ([`super::cues`]), each
//! pattern with a strength on the 0–10 confidence scale. A name's occurrences vote and
//! the strongest cue wins ([`super::aliases`]), so one "playing Apex Legends" outweighs
//! any number of bare mentions, and a bare pair of capitalised words is no person.

use super::cues;
use super::lexicon::{
    COMMON_ACRONYMS, EVENT_WORDS, KNOWN_ORGS, KNOWN_PRODUCTS, ORG_HEADS, ORG_SUFFIXES, PLACE_WORDS,
    PLACES, TITLES,
};
use super::names::{Evidence, Found, is_camel, opens_sentence};
use super::text::{self, Token};
use cosmo_core::domain::NodeKind;

const PERSON_BEFORE: &str = "told tell asked ask met meet thanks thank cc ping pinged call called \
    email emailed text texted invite invited introduced hired dear hi hey hello congrats \
    congratulations";
/// Cues that also precede organisations ("with Acme"): enough only for two-word names.
const WEAK_PERSON_BEFORE: &str = "with and visited by";
const ORG_BEFORE: &str = "joined joining join acquired acquire partnering";
/// Before "at"/"for": the organisation someone works at.
const WORK_AT: &str = "work works working worked job intern interning internship interview \
    interviewed employed volunteer volunteering volunteered";
const PRODUCT_BEFORE: &str = "launch launched launching release released releasing using use used \
    ship shipped shipping adopt adopted migrate migrating install installed upgrade upgraded \
    deploy deployed try tried bought buy built on";

/// The words of the sentence around one run.
struct Around {
    prev: [String; 3],
    next: [String; 3],
    quoted: bool,
    opens: bool,
    after_lead: bool,
}

impl Around {
    fn of(sentence: &str, tokens: &[Token<'_>], start: usize, end: usize) -> Self {
        let word = |i: Option<usize>| {
            i.and_then(|i| tokens.get(i))
                .map(|t| text::norm(t.text))
                .unwrap_or_default()
        };
        let back = |n: usize| word(start.checked_sub(n));
        let before = &sentence[..tokens[start].start];
        Self {
            prev: [back(1), back(2), back(3)],
            next: [word(Some(end)), word(Some(end + 1)), word(Some(end + 2))],
            quoted: before.ends_with(['"', '“', '‘']),
            opens: opens_sentence(sentence, &tokens[start]),
            after_lead: start == 1
                && opens_sentence(sentence, &tokens[0])
                && cues::is_lead(&text::norm(tokens[0].text)),
        }
    }

    /// "a game called X", "a puppy named X": the noun before "called"/"named".
    fn named_after(&self, test: impl Fn(&str) -> bool) -> bool {
        matches!(self.prev[0].as_str(), "called" | "named" | "titled")
            && (test(&self.prev[1]) || test(&self.prev[2]))
    }
}

pub fn classify(
    sentence: &str,
    tokens: &[Token<'_>],
    start: usize,
    end: usize,
    evidence: &Evidence,
) -> Option<Found> {
    let around = Around::of(sentence, tokens, start, end);
    let [prev1, prev2, _] = &around.prev;
    let [next, next2, next3] = &around.next;
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
    // "Mom", "Grandpa", "my Boss": a kinship or role word, capitalised, is no name.
    if n == 1 && cues::is_relation(first) {
        return None;
    }
    let given = evidence.is_given_name(first);
    let known = given
        || PLACES.contains(joined.as_str())
        || KNOWN_ORGS.contains(joined.as_str())
        || KNOWN_PRODUCTS.contains(joined.as_str());
    // A sentence's first word is grammar unless the text names it elsewhere or a verb
    // only people or animals do follows it ("Nacho chewed my shoes").
    let acts = (cues::is_subject_verb(next) || cues::is_pet_act(next)) && !cues::is_relation(first);
    let named = known || acronym || camel || evidence.mid.contains(first) || acts;
    if around.opens && n == 1 && !named {
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

    // What the name says of itself.
    if matches!(first, "project" | "operation" | "initiative") && n >= 2 {
        return entity("project", 7.0);
    }
    let suffixed = n >= 2 && ORG_SUFFIXES.contains(last);
    if suffixed || (ORG_HEADS.contains(first) && lower.iter().any(|w| w == "of")) {
        return entity("organization", 7.0);
    }
    // What the words around it say first: a pet or a work ("playing Stardew Valley").
    if cues::is_pet_noun(prev1) || around.named_after(cues::is_pet_noun) {
        return entity("pet", 8.0);
    }
    // Cared for, doing what animals do, taken to the vet.
    let to_vet = next == "to" && cues::is_pet_place(next3);
    if !given && (cues::is_pet_care(prev1) || cues::is_pet_act(next) || to_vet) {
        return entity("pet", 7.0);
    }
    let work_after = cues::is_work_noun(next) && !cues::is_work_noun(prev1);
    let listened = prev1 == "to" && cues::is_listening(prev2);
    if cues::is_work_verb(prev1) || work_after || listened || around.named_after(cues::is_work_noun)
    {
        return entity("work", 7.5);
    }
    if around.quoted && !given {
        return entity("work", 6.5);
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

    if cues::is_relation(prev1) || around.named_after(cues::is_relation) {
        return person(7.5);
    }
    if TITLES.contains(prev1.as_str()) && name_like {
        return person(7.0);
    }
    if cues::is_org_noun(prev1) || around.named_after(cues::is_org_noun) {
        return entity("organization", 6.5);
    }
    if cues::is_product_noun(next) {
        return entity("product", 6.0);
    }
    // "the Harry Potter books", "the Northbeam demo": people rarely take an article.
    let article = matches!(prev1.as_str(), "the" | "a" | "an");
    if article && n >= 2 {
        return entity("other", 6.5);
    }
    if article && !given && !next.is_empty() && !cues::is_subject_verb(next) {
        return entity("other", 5.2);
    }
    // Addressed ("Thanks, Nate", "Nate and I"); weaker: the subject of a person's verb
    // ("Nate said", but also "Northbeam wants") or after an opening interjection
    // ("Anytime Nate", but also "Woah, Lisbon looks great").
    let person_cue = text::listed(prev1, PERSON_BEFORE)
        || (next == "and" && matches!(next2.as_str(), "i" | "me"));
    let weak_person_cue = (n >= 2 && text::listed(prev1, WEAK_PERSON_BEFORE))
        || cues::is_subject_verb(next)
        || (around.after_lead && n <= 2);
    if given && name_like {
        return person(if person_cue || weak_person_cue {
            7.0
        } else {
            6.0
        });
    }
    if prev1 == "to" && cues::is_travel(prev2) {
        return entity("place", 6.5);
    }
    if cues::is_place_before(prev1) || (prev1 == "from" && cues::is_origin(prev2)) {
        return entity("place", 6.0);
    }
    if prev1 == "in" && name_like {
        return entity("place", 5.5);
    }
    let works_at = matches!(prev1.as_str(), "at" | "for") && text::listed(prev2, WORK_AT);
    if text::listed(prev1, ORG_BEFORE) || works_at {
        return entity("organization", 6.0);
    }
    if matches!(prev1.as_str(), "at" | "from") {
        return entity("organization", 5.0);
    }
    if camel || text::listed(prev1, PRODUCT_BEFORE) {
        return entity("product", 5.0);
    }
    if (person_cue || weak_person_cue) && name_like && !acronym {
        return person(if person_cue { 6.0 } else { 5.0 });
    }
    if acronym {
        return entity("other", 4.0);
    }
    entity("other", 3.0)
}
