//! A two-person chat as people write them: interjections before names ("Woah Caroline",
//! "Anytime Nate", "Remember Jon"), titles of books and games at the start of sentences,
//! a speaker called by a short form ("Mel"), a pet, a place and an employer. What a user
//! would notice in the graph: who the People are, and what the Entities are.

use super::*;

const CHAT: &str = "\
Caroline: Hey Mel! How was the trip to Lisbon?\n\
Melanie: Woah Caroline, it was amazing. My dog Biscuit came along too.\n\
Caroline: Aww Biscuit! I bet Biscuit loved the beach in Lisbon.\n\
Melanie: Biscuit loved it. Nate came with us as well.\n\
Caroline: Yo Nate finally took a holiday! Nate said he needed one.\n\
Melanie: Nate said Lisbon is his favourite city now.\n\
Caroline: Remember Jon? He moved to Lisbon last year.\n\
Melanie: Jon works at Brightwave Labs now. Jon told me he loves it.\n\
Caroline: Learning German was Jon's plan before that.\n\
Melanie: Anytime Nate visits, we play Apex Legends all night.\n\
Caroline: Apex Legends is so much fun. I've been playing Apex Legends with Jon too.\n\
Melanie: Thanks, Caroline! I'm reading Harry Potter again, by the way.\n\
Caroline: Harry Potter never gets old. The Harry Potter books got me through school.\n\
Melanie: Brightwave Labs sounds like a great place. Does Jon like the team at Brightwave Labs?\n\
Caroline: Bet Jon does. Say hi to Nate and Biscuit for me, Mel!";

fn context() -> ExtractionContext {
    ExtractionContext {
        source_type: Some(SourceType::Conversation),
        owner_name: None,
        speakers: vec!["Caroline".into(), "Melanie".into()],
    }
}

fn people(entities: &[ExtractedEntity]) -> Vec<&str> {
    let mut names: Vec<&str> = entities
        .iter()
        .filter(|e| e.kind == NodeKind::Person)
        .map(|e| e.name.as_str())
        .collect();
    names.sort_unstable();
    names
}

fn entity_type<'a>(entities: &'a [ExtractedEntity], name: &str) -> Option<&'a str> {
    entities
        .iter()
        .find(|e| e.kind == NodeKind::Entity && e.name == name)
        .and_then(|e| e.entity_type.as_deref())
}

#[test]
fn interjections_and_openers_are_not_part_of_names() {
    let all = extract::extract(CHAT, &context());
    assert_eq!(
        people(&all),
        vec!["Caroline", "Jon", "Melanie", "Nate"],
        "no \"Woah Caroline\", \"Yo Nate\", \"Remember Jon\", \"Bet Jon\": {all:#?}"
    );
    let kept = kept(&all);
    assert_eq!(people(&kept), vec!["Caroline", "Jon", "Melanie", "Nate"]);
}

#[test]
fn titles_are_works_not_people() {
    let all = extract::extract(CHAT, &context());
    for title in ["Harry Potter", "Apex Legends"] {
        assert_eq!(entity_type(&all, title), Some("work"), "{title}: {all:#?}");
    }
    assert!(
        !all.iter().any(|e| e.name.contains("Learning")),
        "a gerund opening a sentence is no name: {all:#?}"
    );
}

#[test]
fn a_short_form_of_a_speakers_name_is_that_speaker() {
    let all = extract::extract(CHAT, &context());
    let melanie: Vec<&ExtractedEntity> = all
        .iter()
        .filter(|e| e.name == "Melanie" || e.name == "Mel")
        .collect();
    assert_eq!(melanie.len(), 1, "{melanie:#?}");
    assert_eq!(melanie[0].name, "Melanie");
    let again = extract::extract(CHAT, &context());
    assert_eq!(
        format!("{all:?}"),
        format!("{again:?}"),
        "same input, same names"
    );
}

#[test]
fn entities_are_typed_by_the_words_around_them() {
    let all = extract::extract(CHAT, &context());
    assert_eq!(entity_type(&all, "Biscuit"), Some("pet"), "{all:#?}");
    assert_eq!(entity_type(&all, "Lisbon"), Some("place"));
    assert_eq!(entity_type(&all, "Brightwave Labs"), Some("organization"));
}

#[test]
fn stretched_interjections_and_kinship_words_are_not_people() {
    let ctx = ExtractionContext {
        source_type: Some(SourceType::Conversation),
        owner_name: None,
        speakers: vec!["Joanna".into(), "Nate".into()],
    };
    let text = "Joanna: Wowww Nate, you finished the marathon!\n\
        Nate: Haha thanks! Mom drove me to the start line.\n\
        Joanna: Heyyy Nate, did Mom cry at the finish line?\n\
        Nate: Mom cried, Dad laughed. My Grandma filmed everything for the family.\n\
        Joanna: Sooo Nate, when is the next marathon?";
    let all = extract::extract(text, &ctx);
    assert_eq!(people(&all), vec!["Joanna", "Nate"], "{all:#?}");
    assert!(
        !all.iter()
            .any(|e| ["Mom", "Dad", "Grandma"].contains(&e.name.as_str())),
        "{all:#?}"
    );
}

#[test]
fn unknown_names_are_typed_by_their_cues() {
    let ctx = ExtractionContext::default();
    let text = "We finally moved to Tarvik in May. I work at Quillon now. \
        My cat Pumpkin hates the new flat. I'm reading Wolf Hall again. \
        My friend Odalys helped us pack. Odalys said Tarvik is lovely.";
    let all = extract::extract(text, &ctx);
    assert_eq!(entity_type(&all, "Tarvik"), Some("place"), "{all:#?}");
    assert_eq!(entity_type(&all, "Quillon"), Some("organization"));
    assert_eq!(entity_type(&all, "Pumpkin"), Some("pet"));
    assert_eq!(entity_type(&all, "Wolf Hall"), Some("work"));
    assert_eq!(people(&all), vec!["Odalys"]);
}
