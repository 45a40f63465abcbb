//! A product planning meeting between the owner (Alex Johnson), Sarah Chen and Priya
//! Patel about Acme Corp, a hiring plan, a quarterly budget and a launch in Berlin.

use super::*;
use crate::OWNER;

#[test]
fn cleaning_removes_disfluencies_but_keeps_speakers() {
    let text = cleaned();
    for filler in [
        " um",
        " uh",
        "Um,",
        "Uh,",
        "Hmm",
        "the the",
        "I I ",
        "you know",
        "Like,",
        "they, they",
    ] {
        assert!(!text.contains(filler), "{filler:?} left in:\n{text}");
    }
    assert!(
        text.starts_with("Title: Berlin launch planning\nAlex Johnson: Okay, let's get started."),
        "{text}"
    );
    assert!(
        text.contains("Priya Patel: I think Berlin is doable if the hiring plan holds."),
        "{text}"
    );
    assert!(
        text.contains("Sarah Chen: We could delay the designer role until the launch."),
        "{text}"
    );
    assert_eq!(
        text.lines().count(),
        1 + 20,
        "one line per speaker turn:\n{text}"
    );
}

#[test]
fn describe_gives_a_short_summary_keywords_and_tags() {
    let facts = describe::describe(SourceType::Meeting, &cleaned());
    assert!(
        (1..=2).contains(&text::split_sentences(&facts.summary).len()),
        "{}",
        facts.summary
    );
    assert!(facts.summary.len() <= 2 * 300 + 1);
    assert!(
        (5..=10).contains(&facts.keywords.len()),
        "{:?}",
        facts.keywords
    );
    assert!(
        facts.keywords.contains(&"hiring plan".to_owned()),
        "{:?}",
        facts.keywords
    );
    assert!(
        facts.keywords.contains(&"quarterly budget".to_owned()),
        "{:?}",
        facts.keywords
    );
    assert!(
        !facts
            .keywords
            .iter()
            .any(|k| k.contains("sarah chen") || k == "um"),
        "{:?}",
        facts.keywords
    );
    assert!((3..=5).contains(&facts.tags.len()), "{:?}", facts.tags);
    assert!(
        facts.tags.contains(&"meeting".to_owned()) && facts.tags.contains(&"hiring".to_owned()),
        "{:?}",
        facts.tags
    );
}

#[test]
fn extraction_finds_people_organisations_places_and_concepts() {
    let raw = meeting();
    let all = extract::extract(&cleaned(), &context(&raw));
    let kept = kept(&all);
    let names: Vec<&str> = kept.iter().map(|e| e.name.as_str()).collect();
    for person in ["Sarah Chen", "Priya Patel", "Alex Johnson"] {
        let e = find(&kept, person).unwrap_or_else(|| panic!("{person} missing from {names:?}"));
        assert_eq!(e.kind, NodeKind::Person);
    }
    assert_eq!(
        all.iter().filter(|e| e.name == "Alex Johnson").count(),
        1,
        "the owner comes back once"
    );
    assert!(
        !all.iter()
            .any(|e| ["Alex", "Sarah", "Priya"].contains(&e.name.as_str())),
        "{all:#?}"
    );
    let acme = find(&kept, "Acme Corp").expect("Acme Corp");
    assert_eq!(
        (acme.kind, acme.entity_type.as_deref()),
        (NodeKind::Entity, Some("organization"))
    );
    assert!(
        acme.subpoints.iter().all(|s| s.contains("Acme")),
        "{:?}",
        acme.subpoints
    );
    let berlin = find(&kept, "Berlin").expect("Berlin");
    assert_eq!(berlin.entity_type.as_deref(), Some("place"));
    let concepts: Vec<&str> = kept
        .iter()
        .filter(|e| e.kind == NodeKind::Concept)
        .map(|e| e.name.as_str())
        .collect();
    assert!(
        concepts.contains(&"hiring plan") && concepts.contains(&"quarterly budget"),
        "{concepts:?}"
    );
    for bad in [
        "Monday",
        "The",
        "Yesterday",
        "Tuesday",
        "Friday",
        "March",
        "Okay",
        "Thanks",
        "Sounds",
        "Great",
    ] {
        assert!(
            !all.iter().any(|e| e.name == bad),
            "{bad} extracted: {names:?}"
        );
    }
    let tom = find(&all, "Tom Becker").expect("Tom Becker");
    assert!(
        tom.subpoints.iter().any(|s| s.contains("He also said")),
        "pronoun attribution: {:?}",
        tom.subpoints
    );
    let pricing = all.iter().find(|e| e.name == "press event");
    assert!(
        pricing.is_none_or(|e| kept.iter().all(|k| k.name != e.name)),
        "one-off phrases do not pass the filter"
    );
}

#[test]
fn notes_and_relationships_attach_to_the_right_entities() {
    let raw = meeting();
    let content = cleaned();
    let ctx = context(&raw);
    let entities = kept(&extract::extract(&content, &ctx));
    let actions = notes::take_notes(&content, &entities, &ctx);
    let notes_for = |name: &str| -> Vec<String> {
        actions
            .iter()
            .filter_map(|a| match a {
                AgentAction::AddNote { name: n, note, .. } if n == name => Some(note.clone()),
                _ => None,
            })
            .collect()
    };
    let acme = notes_for("Acme Corp");
    assert!(
        !acme.is_empty() && acme.len() <= 5 && acme.iter().all(|n| n.contains("Acme")),
        "{acme:?}"
    );
    assert!(
        notes_for("Alex Johnson").is_empty(),
        "the owner's notes go to @owner"
    );
    assert!(!notes_for(OWNER).is_empty());
    let rel = |from: &str, to: &str| {
        actions.iter().find_map(|a| match a {
            AgentAction::CreateRelationship {
                from: f,
                to: t,
                relationship_type,
                attitude,
                strength,
                ..
            } if (f == from && t == to) || (f == to && t == from) => {
                Some((relationship_type.clone(), attitude.clone(), *strength))
            }
            _ => None,
        })
    };
    let (kind, _, strength) = rel("Priya Patel", "Sarah Chen").expect("Priya–Sarah relationship");
    assert_eq!(kind, "works_with");
    assert!(strength > 0.3, "two sentences make it stronger than one");
    let (kind, attitude, _) = rel("Priya Patel", "Berlin").expect("Priya–Berlin");
    assert_eq!((kind.as_str(), attitude.as_str()), ("likes", "positive"));
    for action in &actions {
        if let AgentAction::CreateRelationship {
            relationship_type,
            proximity,
            strength,
            confidence,
            attitude,
            ..
        } = action
        {
            assert!(
                relationship_type
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '_')
            );
            assert!(
                [proximity, strength, confidence]
                    .iter()
                    .all(|v| (0.0..=1.0).contains(*v))
            );
            assert!(["positive", "neutral", "negative", "mixed"].contains(&attitude.as_str()));
        }
    }
    let notes_on_rel = actions
        .iter()
        .filter(|a| matches!(a, AgentAction::AddNoteToRelationship { .. }))
        .count();
    assert!(notes_on_rel >= 2);
    let mut unique = actions.clone();
    unique.dedup();
    assert_eq!(unique.len(), actions.len());
}
