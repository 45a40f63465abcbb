use super::*;

fn item(section: Section, text: &str) -> Item {
    Item {
        section,
        text: text.into(),
        memory: None,
        quote: None,
    }
}

fn note(text: &str, owner: &str, source: Option<&str>, derived: usize) -> NoteHit {
    NoteHit {
        note_id: "n1".into(),
        text: text.into(),
        owner_kind: MemoryKind::Node,
        owner_key: "k".into(),
        owner: owner.into(),
        about: vec!["k".into()],
        source_id: source.map(Into::into),
        date_added: chrono::DateTime::parse_from_rfc3339("2026-11-02T10:00:00Z")
            .unwrap()
            .into(),
        said_at: chrono::DateTime::parse_from_rfc3339("2026-11-02T10:00:00Z")
            .unwrap()
            .into(),
        added_by: "alex".into(),
        score: 1.0,
        derived_from: (0..derived).map(|i| format!("s{i}")).collect(),
    }
}

#[test]
fn the_recent_conversation_keeps_its_latest_turns_within_half_the_budget() {
    let shares = cosmo_shared::config::ContextShares::default();
    let mut items = vec![item(Section::Profile, "Alex Johnson")];
    for i in 1..=12 {
        items.push(item(
            Section::Recent,
            &format!("user: turn {i:02} of a conversation about the garden plan"),
        ));
    }
    items.push(item(Section::Facts, "2026-11-02: Alex likes tea."));
    let (kept, truncated) = fit(ContextFormat::Markdown, &items, 100, &shares);
    let recent: Vec<&str> = kept
        .iter()
        .filter(|i| i.section == Section::Recent)
        .map(|i| i.text.as_str())
        .collect();
    assert!(truncated);
    assert!(!recent.is_empty() && recent.len() < 12, "{recent:?}");
    // The latest turns, in order, with no gap.
    let first = 13 - recent.len();
    let expected: Vec<String> = (first..=12)
        .map(|i| format!("user: turn {i:02} of a conversation about the garden plan"))
        .collect();
    assert_eq!(recent, expected);
    let rendered = render(ContextFormat::Markdown, &kept.iter().collect::<Vec<_>>());
    assert!(rendered.ends_with(&format!("- {}\n", expected.last().unwrap())));
    assert!(
        kept.iter().any(|i| i.section == Section::Facts),
        "memory keeps a share"
    );
}

#[test]
fn a_note_line_has_its_date_subject_and_origin() {
    let wants = "Sarah Chen wants the hiring plan done by March.";
    assert_eq!(
        note_line(&note(wants, "Sarah Chen", Some("src-1"), 0)),
        format!("2026-11-02 · from src-1: {wants}")
    );
    assert_eq!(
        note_line(&note(
            "Runs the hiring plan.",
            "Sarah Chen",
            Some("src-1"),
            0
        )),
        "2026-11-02 · Sarah Chen · from src-1: Runs the hiring plan."
    );
    assert_eq!(
        note_line(&note("Sarah plans zorblax.", "Sarah Chen", None, 3)),
        "2026-11-02 · Sarah Chen · consolidated from 3 Sources: Sarah plans zorblax."
    );
    assert_eq!(
        note_line(&note("Likes tea.", "Sarah Chen", None, 0)),
        "2026-11-02 · Sarah Chen · consolidated: Likes tea."
    );
}

#[test]
fn a_fact_line_has_its_date_and_origin() {
    let at = chrono::DateTime::parse_from_rfc3339("2026-11-02T10:00:00Z")
        .unwrap()
        .into();
    let mut f = cosmo_shared::domain::Fact {
        fact_id: "f1".into(),
        user_id: "alex".into(),
        text: "Alex is allergic to peanuts".into(),
        category: None,
        key: None,
        value: None,
        said_at: at,
        is_active: true,
        valid_from: at,
        valid_to: None,
        confirmed: true,
        supersedes: None,
        about: Vec::new(),
        source_keys: Vec::new(),
        embedding: None,
        lifecycle: cosmo_shared::domain::Lifecycle::new(
            0.9,
            cosmo_shared::domain::TtlPolicy::Decay,
            at,
        ),
    };
    assert_eq!(
        fact_line(&f),
        "2026-11-02 · confirmed: Alex is allergic to peanuts"
    );
    f.confirmed = false;
    f.source_keys = vec!["src-1".into()];
    assert_eq!(
        fact_line(&f),
        "2026-11-02 · from src-1: Alex is allergic to peanuts"
    );
    f.source_keys.push("src-2".into());
    assert_eq!(
        fact_line(&f),
        "2026-11-02 · from src-1 and 1 more Source: Alex is allergic to peanuts"
    );
}

#[test]
fn quotes_are_one_line_and_cut_at_a_word() {
    assert_eq!(
        quote("Maya: we adopted\n a dog."),
        "Maya: we adopted a dog."
    );
    let long = "word ".repeat(100);
    let q = quote(&long);
    assert!(
        q.ends_with("word…") && q.chars().count() <= QUOTE_CHARS + 1,
        "{q}"
    );
}

/// `n` items of a section, each about 100 characters (25 tokens).
fn many(section: Section, n: usize, quote: bool) -> Vec<Item> {
    (0..n)
        .map(|i| Item {
            quote: quote.then(|| format!("passage {i} {}", "q".repeat(90))),
            ..item(section, &format!("{section:?} {i} {}", "x".repeat(90)))
        })
        .collect()
}

fn count(kept: &[Item], section: Section) -> usize {
    kept.iter().filter(|i| i.section == section).count()
}

#[test]
fn every_part_gets_its_share_of_a_tight_budget() {
    let mut items = vec![item(Section::Profile, "Ann Lee")];
    items.extend(many(Section::Facts, 20, false));
    items.extend(many(Section::Entities, 20, false));
    items.extend(many(Section::Episodes, 20, true));
    let shares = cosmo_shared::config::ContextShares::default();
    let (kept, truncated) = fit(ContextFormat::Markdown, &items, 400, &shares);
    assert!(truncated);
    let tokens = estimate_tokens(&render(
        ContextFormat::Markdown,
        &kept.iter().collect::<Vec<_>>(),
    ));
    assert!(tokens <= 400, "{tokens}");
    assert_eq!(count(&kept, Section::Profile), 1, "the profile comes first");
    // Facts come first in priority but take about 40 %, not the whole budget.
    let (facts, entities, episodes) = (
        count(&kept, Section::Facts),
        count(&kept, Section::Entities),
        count(&kept, Section::Episodes),
    );
    assert!((5..=8).contains(&facts), "facts {facts}");
    assert!((3..=6).contains(&entities), "entities {entities}");
    assert!(episodes >= 3, "episodes {episodes}");
    let quoted = kept.iter().filter(|i| i.text.contains('“')).count();
    assert!(quoted >= 1, "the evidence share quotes a passage");
    assert!(
        quoted < episodes,
        "but not every one: {quoted} of {episodes}"
    );
}

#[test]
fn what_a_part_leaves_unused_goes_to_the_rest() {
    let facts = many(Section::Facts, 30, false);
    let shares = cosmo_shared::config::ContextShares::default();
    let (kept, _) = fit(ContextFormat::Markdown, &facts, 400, &shares);
    // Nothing else wants the budget: facts take nearly all of it, not 40 %.
    assert!(count(&kept, Section::Facts) >= 13, "{}", kept.len());

    // An episode whose quote does not fit is kept without it.
    let mut items = many(Section::Episodes, 1, true);
    items[0].quote = Some("q".repeat(2000));
    let (kept, truncated) = fit(ContextFormat::Markdown, &items, 100, &shares);
    assert_eq!(kept.len(), 1);
    assert!(!kept[0].text.contains('“') && truncated);

    // Everything fits: everything is in, quotes too, and nothing is truncated.
    let mut items = many(Section::Facts, 2, false);
    items.extend(many(Section::Episodes, 2, true));
    let (kept, truncated) = fit(ContextFormat::Markdown, &items, 4000, &shares);
    assert_eq!(kept.len(), 4);
    assert_eq!(kept.iter().filter(|i| i.text.contains('“')).count(), 2);
    assert!(!truncated);
}

#[test]
fn renders_sections_in_priority_order_in_every_format() {
    let a = item(Section::Episodes, "2026-11-10 (meeting): a <b> & c");
    let b = item(Section::Profile, "Ann Lee");
    let items = [&a, &b];
    let md = render(ContextFormat::Markdown, &items);
    assert!(
        md.starts_with("## About the user\n- Ann Lee\n\n## Episodes\n"),
        "{md}"
    );
    let xml = render(ContextFormat::Xml, &items);
    assert!(xml.contains("<item>2026-11-10 (meeting): a &lt;b&gt; &amp; c</item>"));
    let js: serde_json::Value = serde_json::from_str(&render(ContextFormat::Json, &items)).unwrap();
    assert_eq!(js["profile"][0], "Ann Lee");
    assert!(render(ContextFormat::Json, &[]).is_empty());
}
