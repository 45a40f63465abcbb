use super::said::{Group, Statement};
use super::*;
use cosmo_shared::config::ContextShares;

fn item(section: Section, text: &str, score: f64) -> Item {
    Item {
        section,
        text: text.into(),
        memory: None,
        score,
        episode_of: None,
    }
}

fn at(s: &str) -> chrono::DateTime<chrono::Utc> {
    chrono::DateTime::parse_from_rfc3339(s).unwrap().to_utc()
}

/// One Source per entry of `sources`, its lines scored as given (`None`: a line that
/// matched nothing).
fn pool(sources: &[&[(&str, Option<f64>)]]) -> Pool {
    let mut p = Pool::default();
    for (g, lines) in sources.iter().enumerate() {
        p.groups.push(Group {
            header: format!("{} May 2023 · conversation · source-{g}", g + 1),
            when: at("2023-05-01T10:00:00Z") + chrono::Duration::days(g as i64),
            memory: Some(UsedMemory {
                kind: MemoryKind::Source,
                key: format!("source-{g}"),
                note_id: None,
            }),
        });
        for (order, (text, score)) in lines.iter().enumerate() {
            p.statements.push(Statement {
                group: g,
                order,
                text: (*text).into(),
                score: score.unwrap_or(0.05),
                matched: score.is_some(),
                memory: None,
            });
        }
    }
    p
}

fn shown(kept: &Kept, p: &Pool) -> Vec<String> {
    let mut s: Vec<String> = kept
        .statements
        .iter()
        .map(|&i| p.statements[i].text.clone())
        .collect();
    s.sort();
    s
}

#[test]
fn the_recent_conversation_keeps_its_latest_turns_within_half_the_budget() {
    let mut fixed = vec![item(Section::Profile, "Alex Johnson", 1.0)];
    for i in 1..=12 {
        fixed.push(item(
            Section::Recent,
            &format!("user: turn {i:02} of a conversation about the garden plan"),
            1.0,
        ));
    }
    let ranked = vec![item(
        Section::Facts,
        "2 November 2026: Alex likes tea.",
        0.5,
    )];
    let (kept, truncated) = fit(
        ContextFormat::Markdown,
        &fixed,
        &ranked,
        &Pool::default(),
        100,
        &ContextShares::default(),
    );
    let recent: Vec<&str> = kept
        .items
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
    let rendered = render(ContextFormat::Markdown, &kept, &Pool::default());
    assert!(rendered.ends_with(&format!("- {}\n", expected.last().unwrap())));
    assert!(
        kept.items.iter().any(|i| i.section == Section::Facts),
        "memory keeps its part"
    );
}

#[test]
fn the_budget_goes_to_what_was_said_while_relevant_lines_remain() {
    let p = pool(&[
        &[
            (
                "Maya: we adopted a rescue pup, his name is Biscuit",
                Some(0.9),
            ),
            ("Leo: what kind is he??", None),
            ("Maya: mostly beagle, two years old", None),
            ("Leo: anyway how was work", None),
        ],
        &[
            ("Maya: Biscuit ate half a sock last night", Some(0.7)),
            ("Leo: oh no", None),
        ],
        &[("Maya: the weather is nice", None)],
    ]);
    let ranked = vec![item(
        Section::Episodes,
        "1 May 2023 (conversation): Greetings.",
        0.2,
    )];
    let (kept, truncated) = fit(
        ContextFormat::Markdown,
        &[],
        &ranked,
        &p,
        2000,
        &ContextShares::default(),
    );
    let lines = shown(&kept, &p);
    // The matching lines, and beside them the question and answer around them, but
    // not what matched nothing and lies beside nothing chosen.
    for want in [
        "Maya: we adopted a rescue pup, his name is Biscuit",
        "Leo: what kind is he??",
        "Maya: mostly beagle, two years old",
        "Maya: Biscuit ate half a sock last night",
        "Leo: oh no",
    ] {
        assert!(lines.iter().any(|l| l == want), "{want}: {lines:?}");
    }
    assert!(!lines.iter().any(|l| l.contains("weather")), "{lines:?}");
    let text = render(ContextFormat::Markdown, &kept, &p);
    assert!(
        text.starts_with(
            "## What was said\n- 1 May 2023 · conversation · source-0:\n  Maya: we adopted"
        ),
        "oldest origin first, its lines in order: {text}"
    );
    assert!(!truncated || kept.items.is_empty());

    // A tight budget keeps the best line whole and says something was left out.
    let (tight, truncated) = fit(
        ContextFormat::Markdown,
        &[],
        &ranked,
        &p,
        32,
        &ContextShares::default(),
    );
    assert!(truncated);
    let text = render(ContextFormat::Markdown, &tight, &p);
    assert!(text.contains("his name is Biscuit"), "{text}");
    assert!(estimate_tokens(&text) <= 32);
}

#[test]
fn a_summary_only_for_an_episode_with_no_line_shown() {
    let p = pool(&[&[("Maya: Biscuit ate half a sock", Some(0.9))]]);
    let mut with_lines = item(
        Section::Episodes,
        "1 May 2023 (conversation): The sock.",
        0.4,
    );
    with_lines.episode_of = Some("source-0".into());
    let mut without = item(Section::Episodes, "2 May 2023 (conversation): Lisbon.", 0.3);
    without.episode_of = Some("source-9".into());
    let (kept, _) = fit(
        ContextFormat::Markdown,
        &[],
        &[with_lines, without],
        &p,
        2000,
        &ContextShares::default(),
    );
    let episodes: Vec<&str> = kept
        .items
        .iter()
        .filter(|i| i.section == Section::Episodes)
        .map(|i| i.text.as_str())
        .collect();
    assert_eq!(episodes, ["2 May 2023 (conversation): Lisbon."]);
}

#[test]
fn every_format_holds_the_same_memory_within_the_budget() {
    let p = pool(&[&[
        ("Maya: we adopted a rescue pup <Biscuit> & a cat", Some(0.9)),
        ("Leo: what kind is he??", None),
    ]]);
    let fixed = vec![item(Section::Profile, "Maya Lopez", 1.0)];
    let ranked = vec![item(Section::Entities, "Biscuit (pet)", 0.3)];
    for budget in [2000, 40] {
        let mut shown_by: Vec<Vec<String>> = Vec::new();
        for format in [
            ContextFormat::Markdown,
            ContextFormat::Xml,
            ContextFormat::Json,
        ] {
            let (kept, _) = fit(
                format,
                &fixed,
                &ranked,
                &p,
                budget,
                &ContextShares::default(),
            );
            let text = render(format, &kept, &p);
            assert!(estimate_tokens(&text) <= budget, "{format:?}: {text}");
            if budget == 2000 {
                assert!(text.contains("Maya Lopez") && text.contains("Biscuit (pet)"));
                match format {
                    ContextFormat::Xml => {
                        assert!(text.contains("&lt;Biscuit&gt; &amp; a cat"), "{text}")
                    }
                    ContextFormat::Json => {
                        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
                        assert_eq!(v["profile"], serde_json::json!(["Maya Lopez"]));
                        assert!(v["said"][0].as_str().unwrap().contains("what kind"));
                    }
                    ContextFormat::Markdown => {}
                }
            }
            shown_by.push(shown(&kept, &p));
        }
        if budget == 2000 {
            assert!(shown_by.windows(2).all(|w| w[0] == w[1]), "{shown_by:?}");
        }
    }
}

#[test]
fn a_fact_line_has_its_date_and_origin() {
    let at = at("2023-05-08T10:00:00Z");
    let mut f = cosmo_shared::domain::Fact {
        fact_id: "f1".into(),
        user_id: "alex".into(),
        text: "Alex is allergic to peanuts".into(),
        category: None,
        key: None,
        value: None,
        said_at: at,
        is_active: true,
        valid_from: at + chrono::Duration::days(400),
        valid_to: None,
        confirmed: false,
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
    assert_eq!(fact_line(&f), "8 May 2023: Alex is allergic to peanuts");
    f.confirmed = true;
    f.source_keys = vec!["s1".into()];
    assert_eq!(
        fact_line(&f),
        "8 May 2023 · confirmed · from s1: Alex is allergic to peanuts"
    );
    f.source_keys.push("s2".into());
    assert_eq!(
        fact_line(&f),
        "8 May 2023 · confirmed · from s1 and 1 more Source: Alex is allergic to peanuts"
    );
}
