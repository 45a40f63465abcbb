//! A first-person voice memo: the owner's own likes and family link to the owner.

use super::*;
use crate::OWNER;

#[test]
fn first_person_voice_memos_link_the_owner() {
    let memo = "I love hiking in the Alps. Hiking keeps me sane. \
                We went hiking with Maya Lopez last weekend.\n\
                My sister Maya Lopez lives in Denver. Maya Lopez works at Globex Inc.";
    let ctx = ExtractionContext {
        source_type: Some(SourceType::VoiceMemo),
        owner_name: Some("Alex Johnson".into()),
        speakers: vec![],
    };
    let entities = extract::extract(memo, &ctx);
    let hiking = find(&entities, "hiking").expect("hiking concept");
    assert_eq!(hiking.kind, NodeKind::Concept);
    let maya = find(&entities, "Maya Lopez").expect("Maya Lopez");
    assert!(
        maya.confidence >= 7.0 && maya.subpoints.len() > 2,
        "{maya:?}"
    );
    let actions = notes::take_notes(memo, &entities, &ctx);
    let has = |from: &str, to: &str, kind: &str| {
        actions.iter().any(|a| {
            matches!(a, AgentAction::CreateRelationship { from: f, to: t, relationship_type: k, .. }
                if f == from && t == to && k == kind)
        })
    };
    assert!(has(OWNER, "hiking", "likes"), "{actions:#?}");
    assert!(has("Maya Lopez", "Denver", "lives_in"), "{actions:#?}");
    assert!(!has(OWNER, "Denver", "lives_in"), "{actions:#?}");
    assert!(has("Maya Lopez", "Globex Inc", "works_at"), "{actions:#?}");
    let lifetimes: Vec<(String, cosmo_core::domain::NoteLifetime)> = actions
        .iter()
        .filter_map(|a| match a {
            AgentAction::AddNote { note, lifetime, .. } => Some((note.clone(), *lifetime)),
            _ => None,
        })
        .collect();
    assert!(
        lifetimes
            .iter()
            .any(|(n, l)| n.contains("sister") && *l == cosmo_core::domain::NoteLifetime::Forever),
        "{lifetimes:?}"
    );
}
