use super::*;

fn entity(kind: NodeKind, name: &str, confidence: f64, subpoints: usize) -> ExtractedEntity {
    ExtractedEntity {
        kind,
        name: name.to_owned(),
        entity_type: (kind == NodeKind::Entity).then(|| "organization".to_owned()),
        confidence,
        subpoints: (0..subpoints).map(|i| format!("fact {i}")).collect(),
    }
}

#[test]
fn only_confident_entities_with_more_than_two_subpoints_are_kept() {
    let kept = keep(vec![
        entity(NodeKind::Person, "Sarah Chen", 8.0, 3),
        entity(NodeKind::Person, "Bob Lee", 6.9, 5),
        entity(NodeKind::Concept, "hiring plan", 9.0, 2),
        entity(NodeKind::Entity, "Acme Corp", 7.0, 4),
    ]);
    let names: Vec<&str> = kept.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["Sarah Chen", "Acme Corp"]);
}

#[test]
fn duplicates_by_identity_collapse_to_the_most_confident() {
    let kept = keep(vec![
        entity(NodeKind::Person, "Sarah Chen", 7.0, 3),
        entity(NodeKind::Person, "sarah  chen", 9.0, 4),
    ]);
    assert_eq!(kept.len(), 1);
    assert_eq!(kept[0].confidence, 9.0);
}

#[test]
fn tool_calls_resolve_to_nodes_relationships_and_the_owner() {
    let kept = vec![
        entity(NodeKind::Person, "Sarah Chen", 8.0, 3),
        entity(NodeKind::Entity, "Acme Corp", 9.0, 3),
    ];
    let owner = NodeIdentity::person("Alex Johnson");
    let actions = vec![
        AgentAction::AddNote {
            kind: NodeKind::Person,
            name: "sarah chen".into(),
            note: "Leads  hiring.".into(),
            lifetime: NoteLifetime::Month,
        },
        AgentAction::AddNote {
            kind: NodeKind::Person,
            name: "Nobody".into(),
            note: "x".into(),
            lifetime: NoteLifetime::Week,
        },
        AgentAction::CreateRelationship {
            from: "Sarah Chen".into(),
            to: "Acme Corp".into(),
            relationship_type: "Works At".into(),
            description: "Sarah works at Acme.".into(),
            attitude: "POSITIVE".into(),
            proximity: 2.0,
            strength: 0.5,
            confidence: 0.8,
        },
        AgentAction::AddNoteToRelationship {
            from: "Sarah Chen".into(),
            to: "Acme Corp".into(),
            relationship_type: "works_at".into(),
            note: "Joined in 2024.".into(),
            lifetime: NoteLifetime::Year,
        },
        AgentAction::CreateRelationship {
            from: OWNER.into(),
            to: "Sarah Chen".into(),
            relationship_type: "works_with".into(),
            description: String::new(),
            attitude: "neutral".into(),
            proximity: 0.5,
            strength: 0.5,
            confidence: 0.9,
        },
    ];
    let plan = build(&kept, &actions, Some(&owner), &|_| {
        chrono::DateTime::UNIX_EPOCH
    });
    assert_eq!(plan.nodes.len(), 2);
    assert_eq!(plan.nodes[0].confidence, 0.8);
    assert_eq!(plan.skipped_actions, 1);
    assert_eq!(plan.relationships.len(), 2);
    let works_at = &plan.relationships[0];
    assert_eq!(
        (works_at.from, works_at.to),
        (NodeRef::Extracted(0), NodeRef::Extracted(1))
    );
    assert_eq!(works_at.relationship_type, "works_at");
    assert_eq!(works_at.attitude, "positive");
    assert_eq!(works_at.proximity, 1.0);
    assert_eq!(plan.relationships[1].from, NodeRef::Owner);
    assert_eq!(plan.notes.len(), 2);
    assert_eq!(plan.notes[0].text, "Leads hiring.");
    assert_eq!(plan.notes[1].target, NoteTarget::Relationship(0));
}

#[test]
fn without_a_profile_owner_calls_are_skipped_and_self_links_dropped() {
    let kept = vec![entity(NodeKind::Person, "Alex Johnson", 8.0, 3)];
    let link = |from: &str| AgentAction::CreateRelationship {
        from: from.into(),
        to: "Alex Johnson".into(),
        relationship_type: "knows".into(),
        description: String::new(),
        attitude: String::new(),
        proximity: 0.5,
        strength: 0.5,
        confidence: 0.5,
    };
    assert_eq!(
        build(&kept, &[link(OWNER)], None, &|_| {
            chrono::DateTime::UNIX_EPOCH
        })
        .skipped_actions,
        1
    );
    // The owner extracted from the text is the owner node: no self-relationship.
    let owner = NodeIdentity::person("alex johnson");
    let plan = build(&kept, &[link(OWNER)], Some(&owner), &|_| {
        chrono::DateTime::UNIX_EPOCH
    });
    assert!(plan.relationships.is_empty());
}

#[test]
fn relationship_types_are_tidy_snake_case() {
    assert_eq!(relationship_type_name("Works With"), "works_with");
    assert_eq!(relationship_type_name("  reports-to!! "), "reports_to");
    assert_eq!(
        relationship_type_name("}) DETACH DELETE n //"),
        "detach_delete_n"
    );
    assert_eq!(relationship_type_name("???"), "related_to");
}
