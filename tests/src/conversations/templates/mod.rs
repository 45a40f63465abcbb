//! The event library: *arcs* (a recurring theme told over several sessions: a dog
//! adopted, then sick, then in training) and one-off events, each step with several
//! phrasings, a chat exchange around it, and questions worded apart from the chat.
//!
//! Placeholders, filled by the generator: `{P}` the speaker the event is about (first
//! name), `{Q}` the other one, `{pro}`/`{pos}`/`{obj}` the speaker's pronouns
//! (she/her/her or he/his/him), `{auntuncle}`, and the slots of the arc's [`Slot`] kinds (`{pet}`,
//! `{city}`, `{kid}` …, see `vocab.rs`). A question may only ask about what every
//! variant of `say` or the first `chat` exchange states: those are always in the
//! session. Why-questions (`why`, `why_earlier`) ask for a reason the chat gives in so
//! many words ("ate half a sock and we ended up at the emergency vet"); where a step's
//! text had none, every variant of `say` (or the first exchange) was given one.

mod active;
mod animals;
mod errands;
mod family;
mod hobbies;
mod home;
mod learning;
mod oneoff;
mod travel;
mod work;

/// How the other speaker reacts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Good,
    Bad,
    Plain,
}

/// Kinds of event a multi-hop question gathers across arcs ("What pets does Maya have?").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Group {
    Pet,
    Hobby,
    Fitness,
    Trip,
    Purchase,
    FamilyHealth,
    Learning,
    Volunteer,
}

impl Group {
    /// Question templates gathering every event of the group.
    pub fn questions(self) -> &'static [&'static str] {
        match self {
            Self::Pet => &[
                "What pets does {P} have?",
                "Which animals has {P} taken in?",
            ],
            Self::Hobby => &[
                "What hobbies has {P} picked up?",
                "What creative pastimes has {P} gotten into?",
            ],
            Self::Fitness => &["What does {P} do to stay active?", "How does {P} keep fit?"],
            Self::Trip => &[
                "Which places has {P} traveled to?",
                "Where has {P} been on vacation?",
            ],
            Self::Purchase => &[
                "What big purchases has {P} made?",
                "What has {P} spent serious money on?",
            ],
            Self::FamilyHealth => &[
                "Which of {P}'s family members had health problems?",
                "Who in {P}'s family needed medical care?",
            ],
            Self::Learning => &[
                "What new skills has {P} been learning?",
                "What has {P} been studying?",
            ],
            Self::Volunteer => &[
                "Where does {P} volunteer?",
                "What unpaid community work has {P} done?",
            ],
        }
    }
}

/// The slot kinds an arc draws values for (see `vocab::fill_slot`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Slot {
    Dog,
    Cat,
    Shelter,
    Studio,
    Race,
    Instrument,
    Peak,
    Lang,
    Book,
    Company,
    Kid,
    Sport,
    Partner,
    Parent,
    Car,
    City,
    Sibling,
    Friend,
    Band,
    Town,
    Dish,
    Fish,
}

/// One event: what the speaker says, the exchange around it, and the questions it
/// answers.
#[derive(Debug, Clone, Copy)]
pub struct Event {
    pub tone: Tone,
    /// How the speaker tells it; one is picked. Every variant states the core fact.
    pub say: &'static [&'static str],
    /// (the other's question, the speaker's answer); the first is always used.
    pub chat: &'static [(&'static str, &'static str)],
    /// Single-hop questions with their answers.
    pub qs: &'static [(&'static str, &'static str)],
    /// Why-questions with their answers: the reason or cause of what happened, as every
    /// `say` variant or the first `chat` exchange states it (single-hop).
    pub why: &'static [(&'static str, &'static str)],
    /// Why-questions whose cause an earlier step of the arc told and this one shows the
    /// effect of: (that step's index, question, answer); the evidence is both sessions
    /// (multi-hop).
    pub why_earlier: &'static [(usize, &'static str, &'static str)],
    /// The temporal question.
    pub when: &'static str,
    /// The event as a phrase for "after …" questions ("the adoption").
    pub after: &'static str,
    /// The group a multi-hop question gathers it in, with its part of the answer.
    pub group: Option<(Group, &'static str)>,
}

/// A recurring theme: steps told in order over several sessions. A one-off event is an
/// arc of one step.
#[derive(Debug, Clone, Copy)]
pub struct Arc {
    pub id: &'static str,
    pub slots: &'static [Slot],
    /// What the arc is about, for "What happened with {P}'s … after …?".
    pub noun: &'static str,
    pub steps: &'static [Event],
    /// Open questions about the whole arc.
    pub open: &'static [&'static str],
    /// The other speaker asking after it in a later session, and the speaker's answer
    /// (no new facts).
    pub recall: &'static [(&'static str, &'static str)],
}

/// A step with nothing set, for `..E` in the libraries.
pub const E: Event = Event {
    tone: Tone::Good,
    say: &[],
    chat: &[],
    qs: &[],
    why: &[],
    why_earlier: &[],
    when: "",
    after: "",
    group: None,
};

/// A one-off event's arc.
pub const fn one(id: &'static str, slots: &'static [Slot], step: &'static [Event]) -> Arc {
    Arc {
        id,
        slots,
        noun: "",
        steps: step,
        open: &[],
        recall: &[],
    }
}

/// Every multi-step arc.
pub fn arcs() -> Vec<&'static Arc> {
    [
        animals::ARCS,
        hobbies::ARCS,
        active::ARCS,
        learning::ARCS,
        home::ARCS,
        family::ARCS,
        work::ARCS,
        travel::ARCS,
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// Every one-off event.
pub fn one_offs() -> Vec<&'static Arc> {
    oneoff::ARCS.iter().chain(errands::ARCS).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_library_is_large_and_complete() {
        let events: usize = arcs()
            .iter()
            .chain(one_offs().iter())
            .map(|a| a.steps.len())
            .sum();
        assert!(events >= 80, "{events} event types");
        for arc in arcs().iter().chain(one_offs().iter()) {
            assert!(!arc.steps.is_empty(), "{}", arc.id);
            if arc.steps.len() > 1 {
                assert!(
                    !arc.open.is_empty() && !arc.recall.is_empty() && !arc.noun.is_empty(),
                    "{}",
                    arc.id
                );
            }
            for (n, step) in arc.steps.iter().enumerate() {
                let what = format!("{} step {n}", arc.id);
                assert!(!step.say.is_empty() && !step.chat.is_empty(), "{what}");
                assert!(!step.qs.is_empty() && !step.when.is_empty(), "{what}");
                if n + 1 < arc.steps.len() {
                    assert!(!step.after.is_empty(), "{what}: no `after`");
                }
                let whys = step.why.iter().map(|(q, _)| *q);
                for q in whys.chain(step.why_earlier.iter().map(|(_, q, _)| *q)) {
                    assert!(q.starts_with("Why ") && q.ends_with('?'), "{what}: {q}");
                }
                for (cause, q, _) in step.why_earlier {
                    assert!(*cause < n, "{what}: {q} names a step not before it");
                }
            }
        }
    }
}
