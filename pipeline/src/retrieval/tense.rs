//! The words a past question's answer is told in. "When did Maya fly to Lisbon?" asks
//! about something that happened, and the memory that answers it tells it in the past:
//! "we flew to Lisbon". Stemming joins the forms of a regular verb ("adopt", "adopted"),
//! not those of an irregular one ("fly", "flew", "flown"), so a question asked with
//! *did* (or *didn't*) is searched with the past forms of its irregular verbs as well.
//!
//! What is searched depends on where the verb's object is. A question asking *when* or
//! *why* keeps the verb's object after it ("When did Pavel *lose power*?", "Why did
//! Nico's car *break down*?"), so it is searched with the past form and the word after
//! the verb as one term, "lost power": a memory counts for it only if it holds both
//! words (a full-text term of several words; `cosmo_core::graph::text_rank`). A lone
//! common past form ("lost", "broke") is in many unrelated chats, the two words together
//! in those that tell this event. A determiner after the verb ("buy *the* bike") is
//! often worded otherwise in the telling ("bought a red bike"), so then the past form
//! is searched alone; a verb with nothing after it in its clause ("…on her short
//! break?", a noun here) adds nothing. Any other question ("What did Harper love on the
//! drive?", "How much did Paige pay…") has taken the verb's object to its front, so
//! what follows the verb is not part of it, and the past forms are searched as words.
//!
//! Only questions with *did* are read this way: "When is Maya flying to Lisbon?" asks
//! about a plan, told as one ("we're flying"). Left out are the light verbs (*take*,
//! *get*, *give*, *make*, *go*, *come*, *keep*), whose meaning lies in what follows them
//! ("take up running", "get hired", "give up", "go help") and whose past forms are in
//! every chat ("got", "took", "went"); verbs whose base is mostly a noun ("bear",
//! "ring", "fall", "spring", "light", "tear") or whose forms mean something else
//! ("lie"); and those whose past is their base ("cut", "put", "read", "bet"). A
//! regular form ("showed") is left to stemming; only the irregular one is listed. Measured with
//! `cosmo-bench retrieval` (docs/architecture.md, "Routing"): with the light verbs,
//! questions with *take* and *get* lost recall and *why* questions lost more than
//! they gained.

use std::collections::HashMap;
use std::sync::LazyLock;

/// Base, past, past participle (the participle left out when it is the past).
const VERBS: &str = "\
arise arose arisen|awake awoke awoken|become became become|begin began begun|\
bend bent|bite bit bitten|bleed bled|blow blew blown|break broke broken|\
breed bred|bring brought|build built|burn burnt|buy bought|catch caught|\
choose chose chosen|creep crept|deal dealt|dig dug|dive dove|\
draw drew drawn|dream dreamt|drink drank drunk|drive drove driven|eat ate eaten|\
feed fed|feel felt|fight fought|find found|flee fled|fly flew flown|\
forbid forbade forbidden|forget forgot forgotten|forgive forgave forgiven|\
freeze froze frozen|grow grew grown|\
hang hung|hear heard|hide hid hidden|hold held|kneel knelt|know knew known|\
lay laid|lead led|leap leapt|learn learnt|leave left|lend lent|lose lost|\
mean meant|meet met|mislead misled|overcome overcame overcome|oversleep overslept|\
pay paid|rebuild rebuilt|redo redid redone|retake retook retaken|rewrite rewrote rewritten|\
ride rode ridden|rise rose risen|run ran run|say said|see saw seen|seek sought|\
sell sold|send sent|sew sewn|shake shook shaken|shine shone|shoot shot|\
show shown|shrink shrank shrunk|sing sang sung|sink sank sunk|sit sat|\
sleep slept|slide slid|speak spoke spoken|speed sped|spend spent|spin spun|\
stand stood|steal stole stolen|stick stuck|sting stung|strike struck|swear swore sworn|\
sweep swept|swim swam swum|swing swung|teach taught|tell told|\
think thought|throw threw thrown|undergo underwent undergone|understand understood|\
undertake undertook undertaken|wake woke woken|wear wore worn|weep wept|\
win won|withdraw withdrew withdrawn|write wrote written";

/// Each base, with its other forms.
static PAST: LazyLock<HashMap<&'static str, Vec<&'static str>>> = LazyLock::new(|| {
    VERBS
        .split('|')
        .filter_map(|entry| {
            let mut forms = entry.split_whitespace();
            let base = forms.next()?;
            let mut past: Vec<&str> = Vec::new();
            for f in forms {
                if f != base && !past.contains(&f) {
                    past.push(f);
                }
            }
            (!past.is_empty()).then_some((base, past))
        })
        .collect()
});

/// The past forms of `base` when it is an irregular verb's base ("fly": "flew", "flown").
pub fn past_of(base: &str) -> &'static [&'static str] {
    PAST.get(base).map_or(&[], Vec::as_slice)
}

/// How a question's past forms are searched (see the module's doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Object {
    /// The verb's object follows it (*when*, *why*): each past form with the word after
    /// the verb, as one term.
    InPlace,
    /// The question took the object to its front: each past form as a word.
    Fronted,
}

/// The past forms of the irregular verbs among `terms` (a query's full-text terms),
/// when `text` asks in the past (it has "did" or "didn't"); none otherwise. With
/// [`Object::InPlace`], each with the word after the verb in `text`, as one term ("lost
/// power"), alone when that word is a determiner, and none for a verb that ends its
/// clause. Forms or terms already among `terms` are not repeated.
pub fn past_forms(text: &str, terms: &[String], object: Object) -> Vec<String> {
    let asks_in_past = text
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’'))
        .any(|w| {
            let w = w.to_lowercase().replace('’', "'");
            matches!(w.trim_matches('\''), "did" | "didn't" | "didnt")
        });
    if !asks_in_past {
        return Vec::new();
    }
    let mut out: Vec<String> = Vec::new();
    let mut add = |form: String| {
        if !terms.contains(&form) && !out.contains(&form) {
            out.push(form);
        }
    };
    match object {
        Object::Fronted => {
            for t in terms {
                past_of(t).iter().for_each(|form| add((*form).to_owned()));
            }
        }
        Object::InPlace => {
            for clause in clauses(text) {
                for (i, w) in clause.iter().enumerate() {
                    let Some(next) = clause.get(i + 1).filter(|_| terms.contains(w)) else {
                        continue;
                    };
                    for form in past_of(w) {
                        // "buy the bike" is told "bought a red bike": a determiner is
                        // not kept in the telling, so the form is searched alone.
                        if DETERMINERS.contains(&next.as_str()) {
                            add((*form).to_owned());
                        } else {
                            add(format!("{form} {next}"));
                        }
                    }
                }
            }
        }
    }
    out
}

/// Words that open a noun phrase and that a telling often words differently ("the
/// bike", "my bike", "a red bike").
const DETERMINERS: [&str; 22] = [
    "a", "an", "the", "my", "your", "his", "her", "its", "our", "their", "this", "that", "these",
    "those", "another", "some", "any", "every", "each", "no", "one", "all",
];

/// `text`'s clauses (split at punctuation), each as its lower-cased words.
fn clauses(text: &str) -> Vec<Vec<String>> {
    let text = text.replace('’', "'").to_lowercase();
    text.split(|c: char| !(c.is_alphanumeric() || c.is_whitespace() || c == '\'' || c == '-'))
        .map(|clause| {
            clause
                .split_whitespace()
                .map(|w| w.trim_matches(|c| c == '\'' || c == '-'))
                .filter(|w| !w.is_empty())
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .filter(|words| !words.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{Object, past_forms};
    use crate::retrieval::terms::terms;

    fn forms(q: &str) -> Vec<String> {
        past_forms(q, &terms(q), Object::Fronted)
    }

    fn together(q: &str) -> Vec<String> {
        past_forms(q, &terms(q), Object::InPlace)
    }

    #[test]
    fn a_question_with_did_is_searched_in_the_past_of_its_irregular_verbs() {
        assert_eq!(
            forms("When did Maya fly to Lisbon and buy the camera?"),
            ["flew", "flown", "bought"]
        );
        assert_eq!(forms("Why didn't Leo sell the car?"), ["sold"]);
        assert_eq!(forms("Why didn’t Leo sell the car?"), ["sold"]);
        assert_eq!(forms("Leo asked: 'did Maya sell it?'"), ["sold"]);
        assert_eq!(forms("WHY DID LEO SPEAK UP?"), ["spoke", "spoken"]);
    }

    #[test]
    fn regular_verbs_plans_and_unchanged_pasts_add_nothing() {
        // Stemming already joins "adopt" and "adopted".
        assert!(forms("When did Maya adopt the dog?").is_empty());
        // A plan is told as one: "we're going".
        assert!(forms("When is Maya flying to Lisbon?").is_empty());
        assert!(forms("Where does Leo swim on Sundays?").is_empty());
        // "cut" is its own past; "ring" is as often a noun.
        assert_eq!(
            forms("When did Leo cut his hair and find the ring?"),
            ["found"]
        );
        // Light verbs mean what follows them.
        assert!(forms("When did Maya take up running, get hired or go hiking?").is_empty());
    }

    #[test]
    fn a_form_the_question_already_holds_is_not_repeated() {
        assert_eq!(forms("Did Maya run, or had she run before?"), ["ran"]);
    }

    #[test]
    fn a_when_or_why_question_is_searched_with_its_verb_and_object_in_the_past() {
        assert_eq!(
            together("When did Pavel lose power in the storm?"),
            ["lost power"]
        );
        assert_eq!(
            together("When did Nico's old car break down?"),
            ["broke down", "broken down"]
        );
        // A determiner after the verb is often worded differently in the telling.
        assert_eq!(
            together("Why didn’t Maya fly home, or sell the car?"),
            ["flew home", "flown home", "sold"]
        );
        // A verb that ends its clause has no object to search with; "break" is a noun here.
        assert!(together("Why did Elena get so much reading done on her short break?").is_empty());
        assert!(together("When is Maya flying home?").is_empty());
    }
}
