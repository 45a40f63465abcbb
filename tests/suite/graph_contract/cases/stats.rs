//! `memory_stats`: a user's memory in numbers equals what the store's own listings hold
//! of that user, counted here one memory at a time, and nothing of another user's.

use std::collections::BTreeSet;

use cosmo_shared::domain::{
    FactFilter, MemoryKind, MemoryStats, NewCausalLink, NodeRef, NoteLifetime, NoteTarget, Passage,
    ProcessedContent, SourceLinkKind, SourceStatusCounts,
};
use cosmo_shared::graph::GraphStore;
use cosmo_shared::ids;

use super::super::read_support::{angle, archive, fact, macro_, storyline};
use super::super::support::*;

/// Enough to list everything a case writes.
const ALL: usize = 1000;

/// `user`'s stats counted from the store's listings: their Sources, nodes,
/// relationships, mentions, Storylines, the Macros rooted in their nodes, their facts,
/// and their extraction records among those of `source_keys`. Passages' vectors cannot
/// be read back, so the case says how many bytes it wrote (`passage_vector_bytes`).
async fn counted(
    g: &dyn GraphStore,
    user: &str,
    source_keys: &[String],
    passage_vector_bytes: u64,
) -> MemoryStats {
    let mut want = MemoryStats::default();
    let chars = |s: &str| s.chars().count() as u64;
    let vector = |v: &Option<Vec<f32>>| v.as_ref().map_or(0, |v| 4 * v.len() as u64);
    want.storage.vector_bytes += passage_vector_bytes;

    let sources = g.sources_for_user(user, None, ALL).await.unwrap();
    let keys: Vec<String> = sources.iter().map(|s| s.entity_key.clone()).collect();
    for s in &sources {
        want.memories.source.add(s.lifecycle.state, 1);
        want.sources_by_status.add(s.processing_status, 1);
        want.storage.text_chars +=
            chars(&s.raw_content.to_string()) + chars(&s.content) + chars(&s.summary);
        want.storage.vector_bytes += vector(&s.embedding);
    }
    for p in g.passages(&keys).await.unwrap() {
        want.storage.text_chars += chars(&p.text);
    }

    let nodes = g.nodes_for_user(user, None, ALL).await.unwrap();
    let relationships = g.relationships_for_user(user, None, ALL).await.unwrap();
    let linked: BTreeSet<&str> = relationships
        .iter()
        .flat_map(|r| [r.from_key.as_str(), r.to_key.as_str()])
        .collect();
    for n in &nodes {
        want.memories
            .node_mut(n.identity.kind)
            .add(n.lifecycle.state, 1);
        if !linked.contains(n.entity_key.as_str()) {
            want.orphan_nodes += 1;
        }
        want.storage.text_chars += chars(&n.name) + chars(&n.description);
        want.storage.text_chars += n.notes.iter().map(|note| chars(&note.text)).sum::<u64>();
        want.storage.vector_bytes += vector(&n.embedding);
        if let Some(m) = g.macro_by_id(&ids::macro_id(&n.entity_key)).await.unwrap() {
            want.memories.macro_.add(m.lifecycle.state, 1);
            want.storage.text_chars += chars(&m.description);
            want.storage.vector_bytes += vector(&m.embedding);
        }
    }
    for r in &relationships {
        want.memories.relationship.add(r.lifecycle.state, 1);
        *want
            .links
            .relationships_by_type
            .entry(r.relationship_type.clone())
            .or_default() += 1;
        want.storage.text_chars += chars(&r.description);
        want.storage.text_chars += r.notes.iter().map(|note| chars(&note.text)).sum::<u64>();
        want.storage.vector_bytes += vector(&r.notes_embedding);
    }
    want.links.mentions = g.mentions_for_user(user).await.unwrap().len() as u64;
    for l in g.source_links(&keys).await.unwrap() {
        match l.kind {
            SourceLinkKind::Temporal => want.links.temporal += 1,
            SourceLinkKind::Causal => want.links.causal += 1,
        }
    }

    for st in g.storylines_for_user(user).await.unwrap() {
        want.memories.storyline.add(st.lifecycle.state, 1);
        want.storage.text_chars += chars(&st.description);
        want.storage.vector_bytes += vector(&st.embedding);
    }
    let every_fact = FactFilter {
        include_inactive: true,
        confirmed_only: false,
    };
    for f in g.facts_for_user(user, every_fact, ALL).await.unwrap() {
        want.memories.fact.add(f.lifecycle.state, 1);
        if !f.is_active {
            want.inactive_facts += 1;
        }
        want.storage.text_chars += chars(&f.text) + f.value.as_deref().map_or(0, chars);
        want.storage.vector_bytes += vector(&f.embedding);
    }
    for key in source_keys {
        for e in g.extractions(key).await.unwrap() {
            if e.user_id == user {
                want.extractions.add(e.status, 1);
            }
        }
    }
    want
}

pub async fn memory_stats_count_what_the_store_holds(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    g.upsert_owner(&u.alice, "Alice Zoë Smith", t0())
        .await
        .unwrap();

    // An extracted Source with passages: four nodes, three links of two types (one to
    // the owner), notes on a node and a link. Text outside ASCII counts by character.
    let a1 = source(&u.alice, "Lunch with Sarah Chen 🚀 at Acme Corp.", t0());
    g.create_source(&a1).await.unwrap();
    let passages = vec![
        Passage {
            text: "Lunch with Sarah Chen 🚀".into(),
            embedding: angle(10.0),
        },
        Passage {
            text: "at Acme Corp.".into(),
            embedding: angle(20.0),
        },
    ];
    let alice_passage_bytes = 2 * 4 * angle(0.0).len() as u64;
    let processed = ProcessedContent {
        content: "Lunch with Sarah Chen 🚀 at Acme Corp.".into(),
        summary: "Lunch with Sarah Chen of Acme Corp.".into(),
        keywords: vec!["lunch".into()],
        tags: Vec::new(),
        embedding: angle(0.0),
        passages,
        embedded_with: EMBEDDED_WITH.into(),
    };
    assert!(
        g.save_processed(&a1.entity_key, &processed, t0())
            .await
            .unwrap()
    );
    let mut w = write(
        &a1,
        &u.alice,
        t0(),
        vec![
            person("Sarah Chen", 0.9),
            organization("Acme Corp"),
            concept("hiring plan"),
            person("Bob Jones", 0.8),
        ],
    );
    w.relationships = vec![
        link(0, 1, "works_at"),
        link(3, 1, "works_at"),
        link(0, 2, "leads"),
    ];
    w.relationships[2].to = NodeRef::Owner;
    w.notes = vec![
        note(
            NoteTarget::Node(NodeRef::Extracted(0)),
            "Sarah wants the plan by März.",
            NoteLifetime::Forever,
        ),
        note(
            NoteTarget::Relationship(0),
            "Joined Acme in 2024.",
            NoteLifetime::Year,
        ),
    ];
    let out = g.write_extraction(&w).await.unwrap();
    let (sarah, hiring) = (&out.node_keys[0], &out.node_keys[2]);

    // A Source that stays raw (archived), one processed and waiting for its extraction,
    // one whose extraction is under way, and one naming a topic linked to nothing
    // (archived too).
    let raw = source(&u.alice, "Call the plumber.", t0() + days(1));
    g.create_source(&raw).await.unwrap();
    archive(g, MemoryKind::Source, &raw.entity_key, &u.alice).await;
    let waiting = processed_only(g, &u.alice, "Dinner plans.", 2).await;
    g.request_extraction(&waiting, &u.alice, t0() + days(2))
        .await
        .unwrap();
    let started = processed_only(g, &u.alice, "Gym schedule.", 3).await;
    g.request_extraction(&started, &u.alice, t0() + days(3))
        .await
        .unwrap();
    g.mark_extraction_started(&started, &u.alice, t0() + days(3))
        .await
        .unwrap();
    let (lonely_source, lonely) = extracted(
        g,
        &u.alice,
        "Thinking about sourdough.",
        t0() + days(4),
        vec![concept("sourdough")],
        |_| {},
    )
    .await;
    archive(g, MemoryKind::Node, &lonely[0], &u.alice).await;

    // A Storyline about Sarah, a Macro over it; a fact, corrected (one live, one not).
    let st = storyline(
        g,
        &u.alice,
        sarah,
        std::slice::from_ref(&a1.entity_key),
        "Sarah Chen at Acme.",
        Some(angle(30.0)),
        t0() + days(5),
    )
    .await;
    macro_(
        g,
        &u.alice,
        sarah,
        std::slice::from_ref(&st),
        "Work with Sarah.",
        Some(angle(40.0)),
        t0() + days(6),
    )
    .await;
    let old = fact(&u.alice, "Alice drinks tea.", t0() + days(5));
    g.store_fact(&old).await.unwrap();
    let mut new = fact(&u.alice, "Alice drinks coffee.", t0() + days(6));
    new.embedding = Some(angle(50.0));
    new.about = vec![hiring.clone()];
    g.correct_fact(&old.fact_id, &new).await.unwrap();

    // Bob's own graph, and a team Source of his that Alice's extraction failed on: the
    // Source is Bob's, the failed extraction record Alice's.
    let (bob_source, _) = extracted(
        g,
        &u.bob,
        "Bob mentors Carol Diaz at Acme Corp.",
        t0(),
        vec![person("Carol Diaz", 0.9), organization("Acme Corp")],
        |w| w.relationships = vec![link(0, 1, "mentors")],
    )
    .await;
    let team = team_source(&u.bob, &[&u.alice], "Team sync about the roadmap.", t0());
    g.create_source(&team).await.unwrap();
    g.request_extraction(&team.entity_key, &u.alice, t0())
        .await
        .unwrap();
    g.record_extraction_error(&team.entity_key, &u.alice, "model refused", true, t0())
        .await
        .unwrap();

    // Alice's chat Sources chained in one thread, one caused by another; Bob's in his.
    let thread = format!("{}-thread", u.alice);
    for key in [&a1.entity_key, &waiting, &started] {
        g.link_temporal(key, &thread, t0()).await.unwrap();
    }
    let because = NewCausalLink {
        cause_key: a1.entity_key.clone(),
        effect_key: started.clone(),
        confidence: 0.7,
        inferred_by: "offline:test".into(),
        evidence: "after the lunch".into(),
    };
    g.save_causal(&started, &[because], t0()).await.unwrap();
    g.link_temporal(&bob_source, &format!("{}-thread", u.bob), t0())
        .await
        .unwrap();

    let every_source = [
        a1.entity_key.clone(),
        raw.entity_key.clone(),
        waiting.clone(),
        started.clone(),
        lonely_source.clone(),
        bob_source.clone(),
        team.entity_key.clone(),
    ];
    let alice = g.memory_stats(&u.alice).await.unwrap();
    assert_eq!(
        alice,
        counted(g, &u.alice, &every_source, alice_passage_bytes).await,
        "alice's stats are what the store lists of her"
    );
    let bob = g.memory_stats(&u.bob).await.unwrap();
    assert_eq!(bob, counted(g, &u.bob, &every_source, 0).await);

    // The case built what it meant to (so the comparison above compares something).
    let m = &alice.memories;
    assert_eq!((m.source.total, m.source.archived), (5, 1));
    assert_eq!(
        alice.sources_by_status,
        SourceStatusCounts {
            raw: 1,
            processed: 2,
            extracted: 2
        }
    );
    assert_eq!(
        (m.person.total, m.concept.total, m.entity.total),
        (3, 2, 1),
        "Sarah, Bob and the owner; hiring plan and sourdough; Acme"
    );
    assert_eq!(m.concept.archived, 1);
    assert_eq!(
        alice
            .links
            .relationships_by_type
            .iter()
            .map(|(t, n)| (t.as_str(), *n))
            .collect::<Vec<_>>(),
        [("leads", 1), ("works_at", 2)],
        "bob's `mentors` is his"
    );
    assert_eq!(alice.orphan_nodes, 2, "hiring plan and sourdough");
    assert_eq!((m.storyline.total, m.macro_.total, m.fact.total), (1, 1, 2));
    assert_eq!(alice.inactive_facts, 1);
    assert_eq!(
        (
            alice.extractions.pending,
            alice.extractions.in_progress,
            alice.extractions.extracted,
            alice.extractions.failed
        ),
        (1, 1, 2, 1)
    );
    assert_eq!(alice.links.mentions, 5);
    assert_eq!((alice.links.temporal, alice.links.causal), (2, 1));
    assert!(
        alice.storage.vector_bytes >= alice_passage_bytes + 4 * 4 * angle(0.0).len() as u64,
        "summary, passages, Storyline, Macro, fact: {:?}",
        alice.storage
    );
    assert_eq!(bob.memories.source.total, 2, "his own and the team Source");
    assert_eq!(bob.extractions.failed, 0, "alice's failure is hers");
    assert_eq!(bob.memories.entity.total, 1, "his own Acme Corp");
    assert_eq!(bob.orphan_nodes, 0);

    // Nobody's stats: every count zero.
    assert_eq!(
        g.memory_stats(&u.carol).await.unwrap(),
        MemoryStats::default()
    );

    // What changes shows at once: erasing the lonely Source drops its node, which
    // was an orphan, and the Source's text.
    g.erase_source(&lonely_source, t0() + days(7))
        .await
        .unwrap();
    let after = g.memory_stats(&u.alice).await.unwrap();
    assert_eq!(
        after,
        counted(g, &u.alice, &every_source, alice_passage_bytes).await
    );
    assert_eq!(
        (after.orphan_nodes, after.memories.concept.archived),
        (1, 0)
    );
    assert!(after.storage.text_chars < alice.storage.text_chars);
}

/// A processed (not extracted) Source of `user` on day `day`; its key.
async fn processed_only(g: &dyn GraphStore, user: &str, text: &str, day: i64) -> String {
    let s = source(user, text, t0() + days(day));
    g.create_source(&s).await.unwrap();
    let processed = ProcessedContent {
        content: text.to_owned(),
        summary: format!("Summary of {text}"),
        keywords: Vec::new(),
        tags: Vec::new(),
        embedding: angle(60.0),
        passages: Vec::new(),
        embedded_with: EMBEDDED_WITH.into(),
    };
    assert!(
        g.save_processed(&s.entity_key, &processed, t0() + days(day))
            .await
            .unwrap()
    );
    s.entity_key
}
