//! Typing a co-occurrence: the words between two names ("works with", "reports to",
//! "loves", "lives in", "my sister") decide the relationship type and direction; simple
//! cue words decide the attitude; the number of sentences decides strength.

use super::text;
use cosmo_core::domain::NodeKind;

/// One side of a pair: a target and where its name sits in the sentence's words
/// (`start == end == 0` for the speaker of a first-person sentence).
#[derive(Debug, Clone, Copy)]
pub struct Party {
    pub target: usize,
    pub start: usize,
    pub end: usize,
}

type Kind<'a> = (NodeKind, Option<&'a str>);

const REPORTS_TO: &str = "reports to|report to|reporting to|reported to";
const MANAGES: &str =
    "manages|manage|managing|managed|supervises|supervise|leads|mentors|mentoring|mentor";
const WORKS_WITH: &str = "works with|work with|working with|worked with|collaborate|collaborates|\
    collaborating|collaborated|partnered with|pair with|paired with|pairing with|together|\
    teamed up with";
const FAMILY: &str = "sister|brother|mother|father|mom|mum|dad|son|daughter|wife|husband|cousin|\
    aunt|uncle|grandma|grandpa|grandmother|grandfather|niece|nephew|sibling|parents";
const KNOWS: &str =
    "knows|know|met|meet|introduced|friend|friends|friends with|catch up with|caught up with";
const WORKS_AT: &str = "works at|work at|working at|worked at|works for|work for|working for|\
    worked for|joined|joins|joining|employed|employed by|hired by|started at";
const LIVES_IN: &str = "lives in|live in|living in|lived in|moved to|moving to|based in|\
    relocated to|relocating to|grew up in";
const LIKES: &str = "likes|loves|love|loved|enjoys|enjoy|enjoyed|adore|adores|fan of|\
    passionate about|excited about";
const DISLIKES: &str =
    "hates|hate|hated|dislikes|dislike|disliked|can't stand|cannot stand|tired of|fed up with";
const NOT_LIKING: &str = "would i'd we'd you'd look looks seems feel something";
const NEGATIONS: &str = "not never don't doesn't didn't won't no";
const POSITIVE: &str = "love loves loved great excited exciting happy glad enjoy enjoys enjoyed \
    thanks thank awesome excellent amazing good impressed helpful appreciate appreciated agree \
    agreed congrats congratulations fantastic wonderful proud nice perfect fun smooth win success \
    successful";
const NEGATIVE: &str = "hate hates hated angry frustrated frustrating upset worried worry concern \
    concerned concerns problem problems issue issues bad terrible awful annoyed annoying \
    disappointed disappointing dislike dislikes disagree conflict blocked blocker difficult delay \
    delayed late risk risky unhappy sad complaint stressed";

/// The relationship type for `a` … `b` in one sentence, and whether it runs a → b.
pub fn classify(
    tokens: &[String],
    a: &Party,
    b: &Party,
    ka: Kind<'_>,
    kb: Kind<'_>,
) -> (&'static str, bool) {
    let between = if a.end <= b.start {
        &tokens[a.end..b.start]
    } else {
        &[][..]
    };
    let span = format!(" {} ", between.join(" "));
    let whole = format!(" {} ", tokens.join(" "));
    let has = |text: &str, cues: &str| cues.split('|').any(|c| text.contains(&format!(" {c} ")));
    let person = |k: Kind<'_>| k.0 == NodeKind::Person;
    let org = |k: Kind<'_>| k.1 == Some("organization");
    let place = |k: Kind<'_>| k.1 == Some("place");
    let exact = between.join(" ");
    if person(ka) && person(kb) {
        if has(&span, REPORTS_TO) {
            return ("reports_to", true);
        }
        if has(&span, MANAGES) {
            return ("manages", true);
        }
        if has(&span, WORKS_WITH) || has(&whole, "together|collaborate|collaborating|pairing") {
            return ("works_with", true);
        }
        if has(&span, FAMILY) {
            return ("family", true);
        }
        if has(&span, KNOWS) {
            return ("knows", true);
        }
    }
    if person(ka)
        && org(kb)
        && (has(&span, WORKS_AT) || matches!(exact.as_str(), "from" | "at" | "of"))
    {
        return ("works_at", true);
    }
    if org(ka) && person(kb) && has(&span, "hired|employs|welcomed") {
        return ("works_at", false);
    }
    if person(ka) && place(kb) && has(&span, LIVES_IN) {
        return ("lives_in", true);
    }
    if person(ka) {
        let negated = between.iter().any(|w| text::listed(w, NEGATIONS));
        // "I like X", but not "I would like X" or "looks like X".
        let bare_like = between.last().is_some_and(|w| w == "like")
            && !between.iter().any(|w| text::listed(w, NOT_LIKING));
        if has(&span, DISLIKES) || (negated && (has(&span, LIKES) || bare_like)) {
            return ("dislikes", true);
        }
        if has(&span, LIKES) || bare_like {
            return ("likes", true);
        }
    }
    ("related_to", true)
}

/// Whether the sentence has positive and negative cue words.
pub fn sentiment(tokens: &[String]) -> (bool, bool) {
    let pos = tokens.iter().any(|w| text::listed(w, POSITIVE));
    let neg = tokens.iter().any(|w| text::listed(w, NEGATIVE));
    (pos, neg)
}

/// A short sentence saying what the relationship is.
pub fn describe(rel_type: &str, from: &str, to: &str) -> String {
    let verb = match rel_type {
        "works_with" => "works with",
        "manages" => "manages",
        "reports_to" => "reports to",
        "works_at" => "works at",
        "likes" => "likes",
        "dislikes" => "dislikes",
        "lives_in" => "lives in",
        "knows" => "knows",
        "family" => "is family of",
        _ => return format!("{from} and {to} come up together."),
    };
    format!("{from} {verb} {to}.")
}

/// The evidence for one pair, over all sentences naming both.
#[derive(Debug, Clone)]
pub struct Rel {
    pub first: usize,
    pub sentences: Vec<usize>,
    votes: Vec<(&'static str, usize, usize)>,
    positive: usize,
    negative: usize,
}

/// What a [`Rel`] comes to.
#[derive(Debug, Clone, PartialEq)]
pub struct Settled {
    pub rel_type: &'static str,
    pub from: usize,
    pub to: usize,
    pub attitude: &'static str,
    pub proximity: f64,
    pub strength: f64,
    pub confidence: f64,
}

impl Rel {
    pub fn new(first: usize) -> Self {
        Self {
            first,
            sentences: Vec::new(),
            votes: Vec::new(),
            positive: 0,
            negative: 0,
        }
    }

    pub fn add(
        &mut self,
        rel_type: &'static str,
        from: usize,
        to: usize,
        sentence: usize,
        (pos, neg): (bool, bool),
    ) {
        self.votes.push((rel_type, from, to));
        if !self.sentences.contains(&sentence) {
            self.sentences.push(sentence);
            self.positive += usize::from(pos);
            self.negative += usize::from(neg);
        }
    }

    /// The most-voted specific type (else `related_to`), its direction, the attitude
    /// and scores that grow with the number of sentences.
    pub fn settle(&self) -> Settled {
        let mut best: Option<(&'static str, usize, usize, usize)> = None;
        for &(t, from, to) in self.votes.iter().filter(|v| v.0 != "related_to") {
            let count = self.votes.iter().filter(|v| v.0 == t).count();
            if best.is_none_or(|b| count > b.3) {
                best = Some((t, from, to, count));
            }
        }
        let (rel_type, from, to) = match best {
            Some((t, from, to, _)) => (t, from, to),
            None => (self.votes[0].0, self.votes[0].1, self.votes[0].2),
        };
        let attitude = match (self.positive > 0, self.negative > 0, rel_type) {
            (true, true, _) => "mixed",
            (true, false, _) | (false, false, "likes") => "positive",
            (false, true, _) | (false, false, "dislikes") => "negative",
            _ => "neutral",
        };
        let extra = (self.sentences.len() - 1) as f64;
        let base = match rel_type {
            "family" => 0.9,
            "works_with" | "manages" | "reports_to" => 0.7,
            "works_at" | "lives_in" | "likes" => 0.6,
            "knows" => 0.5,
            "dislikes" => 0.4,
            _ => 0.3,
        };
        let typed = if rel_type == "related_to" { 0.5 } else { 0.7 };
        Settled {
            rel_type,
            from,
            to,
            attitude,
            proximity: round2((base + 0.05 * extra).min(0.9)),
            strength: round2((0.3 + 0.15 * extra).min(1.0)),
            confidence: round2((typed + 0.05 * extra).min(0.95)),
        }
    }
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    const PERSON: Kind<'static> = (NodeKind::Person, None);
    const ORG: Kind<'static> = (NodeKind::Entity, Some("organization"));
    const PLACE: Kind<'static> = (NodeKind::Entity, Some("place"));
    const CONCEPT: Kind<'static> = (NodeKind::Concept, None);

    /// Classifies the first and last word of `sentence` as the two parties.
    fn typed(sentence: &str, ka: Kind<'_>, kb: Kind<'_>) -> (&'static str, bool) {
        let tokens: Vec<String> = text::tokens(sentence)
            .iter()
            .map(|t| text::norm(t.text))
            .collect();
        let last = tokens.len() - 1;
        let a = Party {
            target: 0,
            start: 0,
            end: 1,
        };
        let b = Party {
            target: 1,
            start: last,
            end: last + 1,
        };
        classify(&tokens, &a, &b, ka, kb)
    }

    #[test]
    fn verbs_between_the_names_decide_the_type() {
        assert_eq!(
            typed("Sarah reports to Priya", PERSON, PERSON),
            ("reports_to", true)
        );
        assert_eq!(typed("Dana manages Tom", PERSON, PERSON), ("manages", true));
        assert_eq!(
            typed("Dana often works with Tom", PERSON, PERSON),
            ("works_with", true)
        );
        assert_eq!(typed("Dana met Tom", PERSON, PERSON), ("knows", true));
        assert_eq!(typed("Dana joined Acme", PERSON, ORG), ("works_at", true));
        assert_eq!(typed("Acme hired Dana", ORG, PERSON), ("works_at", false));
        assert_eq!(
            typed("Tom lives in Denver", PERSON, PLACE),
            ("lives_in", true)
        );
        assert_eq!(typed("Tom loves hiking", PERSON, CONCEPT), ("likes", true));
        assert_eq!(
            typed("I really like hiking", PERSON, CONCEPT),
            ("likes", true)
        );
        assert_eq!(
            typed("Tom doesn't like hiking", PERSON, CONCEPT),
            ("dislikes", true)
        );
        assert_eq!(
            typed("Tom would like hiking", PERSON, CONCEPT),
            ("related_to", true)
        );
        assert_eq!(
            typed("Berlin needs hiking", PLACE, CONCEPT),
            ("related_to", true)
        );
    }

    #[test]
    fn evidence_settles_into_one_relationship() {
        let mut rel = Rel::new(0);
        rel.add("related_to", 0, 1, 0, (false, false));
        rel.add("works_with", 1, 0, 1, (true, false));
        rel.add("works_with", 1, 0, 2, (false, true));
        let settled = rel.settle();
        assert_eq!(
            (settled.rel_type, settled.from, settled.to),
            ("works_with", 1, 0)
        );
        assert_eq!(settled.attitude, "mixed");
        assert_eq!(settled.strength, 0.6);
        assert!(settled.proximity <= 0.9 && settled.confidence <= 0.95);
        assert_eq!(
            describe("works_with", "Sarah", "Priya"),
            "Sarah works with Priya."
        );
    }
}
