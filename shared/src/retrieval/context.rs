//! `POST /api/context`: the most useful memory for a message, within a token budget, as
//! markdown, XML or JSON. The owner's profile and confirmed facts come first, then the
//! facts most relevant to the message, the notes and relationship notes that match it
//! (each with its date and where it came from: the Source it was taken from, or episodic
//! consolidation), and the semantic nodes, Storylines and episodes (Sources) most
//! relevant to it, ranked as explore ranks them; an episode quotes the passage that
//! matched (at most 300 characters). The budget is shared between facts, people and
//! topics, temporal context and evidence (`retrieval.context_shares`), what one part
//! leaves unused going to the others ([`fit`]). An item that does not fit is left out
//! whole (never cut mid-sentence) and `truncated` says so. With a `session_id`, the
//! session's latest buffered turns come last as "Recent conversation"
//! ([`crate::sessions`]); they take what they need of the budget after the profile, up
//! to half of it, newest first.

use serde::Serialize;
use serde_json::json;

use super::notes::{RankedNote, node_relevance, rank_notes_among};
use super::rank::SignalHit;
use super::{
    Loaded, RetrievalResult, embed_queries, evidence, extract_for_participant, rank_target,
};
use crate::domain::input::read::{ContextFormat, ContextInput};
use crate::domain::{FactFilter, MemoryKind, NoteHit, SearchScope, Target};
use crate::llm::estimate_tokens;
use crate::services::Services;

/// How many relevant memories of each kind are considered.
const PER_KIND: usize = 8;

#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct UsedMemory {
    pub kind: MemoryKind,
    pub key: String,
    /// A note used on its own: the note on this node or relationship.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note_id: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Context {
    pub format: ContextFormat,
    /// The rendered memory, ready to put in a prompt.
    pub context: String,
    pub memories_used: usize,
    pub memories: Vec<UsedMemory>,
    /// Estimated tokens of `context` (≈ 4 characters a token).
    pub tokens_used: u64,
    pub budget_tokens: u64,
    /// Whether something relevant was left out for the budget.
    pub truncated: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Section {
    Profile,
    Facts,
    Entities,
    Storylines,
    Episodes,
    Recent,
}

impl Section {
    fn title(self) -> &'static str {
        match self {
            Self::Profile => "About the user",
            Self::Facts => "Facts",
            Self::Entities => "People and topics",
            Self::Storylines => "Storylines",
            Self::Episodes => "Episodes",
            Self::Recent => "Recent conversation",
        }
    }

    fn tag(self) -> &'static str {
        match self {
            Self::Profile => "profile",
            Self::Facts => "facts",
            Self::Entities => "entities",
            Self::Storylines => "storylines",
            Self::Episodes => "episodes",
            Self::Recent => "recent_conversation",
        }
    }
}

#[derive(Clone)]
struct Item {
    section: Section,
    text: String,
    memory: Option<UsedMemory>,
    /// An episode's evidence: the passage it quotes, when it fits.
    quote: Option<String>,
}

/// Builds the context for one message.
pub async fn build(
    svc: &Services,
    input: &ContextInput,
    request_id: Option<String>,
) -> RetrievalResult<Context> {
    let budget = input
        .budget_tokens
        .unwrap_or(svc.config.retrieval.context_budget_tokens);
    let user = input.user_id.as_str();
    let mut items = Vec::new();

    // The owner first: their name and what is known of them.
    let full_name = svc.directory.user(user).await?.and_then(|u| u.full_name);
    if let Some(owner) = svc.graph.owner(user).await? {
        let mut text = owner.name.clone();
        if !owner.description.is_empty() {
            text = format!("{text}: {}", owner.description);
        }
        items.push(Item {
            section: Section::Profile,
            text,
            memory: None,
            quote: None,
        });
    } else if let Some(name) = full_name {
        items.push(Item {
            section: Section::Profile,
            text: name,
            memory: None,
            quote: None,
        });
    }
    // Confirmed facts, always before anything merely relevant.
    let confirmed = svc
        .graph
        .facts_for_user(
            user,
            FactFilter {
                include_inactive: false,
                confirmed_only: true,
            },
            50,
        )
        .await?;
    for f in &confirmed {
        items.push(Item {
            section: Section::Facts,
            text: fact_line(f),
            memory: Some(UsedMemory {
                kind: MemoryKind::Fact,
                key: f.fact_id.clone(),
                note_id: None,
            }),
            quote: None,
        });
    }

    // The session's working memory: its latest turns, as said.
    if let Some(session) = &input.session_id {
        let keep = i64::from(svc.config.sessions.keep_turns);
        let turns = svc
            .sessions
            .buffer(user, session, keep)
            .await
            .map_err(anyhow::Error::from)?;
        for t in turns {
            items.push(Item {
                section: Section::Recent,
                text: format!("{}: {}", t.speaker, t.text),
                memory: None,
                quote: None,
            });
        }
    }

    let scope = SearchScope {
        since: input.since,
        until: input.until,
        ..SearchScope::user(user)
    };
    let queries = embed_queries(
        svc,
        user,
        "context",
        vec![(
            input.message.clone(),
            svc.config.retrieval.default_threshold,
        )],
    )
    .await?;
    let mut shown_sources = Vec::new();
    // Nodes are ranked once: for their own items and for ranking the notes.
    let nodes = rank_target(svc, &scope, Target::Node, &queries, PER_KIND).await?;
    let notes = distinct_notes(
        rank_notes_among(
            svc,
            &scope,
            &[input.message.as_str()],
            &node_relevance(&nodes),
            2 * PER_KIND,
        )
        .await?,
    );
    let mut nodes = Some(nodes);
    for (target, section) in [
        (Target::Fact, Section::Facts),
        (Target::Node, Section::Entities),
        (Target::Storyline, Section::Storylines),
        (Target::Source, Section::Episodes),
    ] {
        let found = if target == Target::Node {
            // The notes that match the message come after the relevant facts.
            for n in &notes {
                items.push(Item {
                    section: Section::Facts,
                    text: note_line(&n.note),
                    memory: Some(UsedMemory {
                        kind: n.note.owner_kind,
                        key: n.note.owner_key.clone(),
                        note_id: Some(n.note.note_id.clone()),
                    }),
                    quote: None,
                });
            }
            nodes.take().unwrap_or_default()
        } else {
            rank_target(svc, &scope, target, &queries, PER_KIND).await?
        };
        // A returned Source shows the passage that matched: the evidence, not only a
        // summary that may not mention what was asked.
        let sources: Vec<(&str, &[SignalHit])> = found
            .iter()
            .filter_map(|(_, why, item)| match item {
                Loaded::Source(s) => Some((s.entity_key.as_str(), why.signals.as_slice())),
                _ => None,
            })
            .collect();
        let mut evidence = evidence::passages_of(svc, &sources, &queries).await?;
        for (_, _, item) in found {
            let mut quoted = None;
            let (kind, key, text) = match item {
                Loaded::Fact(f) if f.confirmed => continue,
                Loaded::Fact(f) => (MemoryKind::Fact, f.fact_id.clone(), fact_line(&f)),
                Loaded::Node(n) if n.is_owner => continue,
                Loaded::Node(n) => {
                    let what = n
                        .identity
                        .entity_type
                        .clone()
                        .unwrap_or_else(|| n.identity.kind.to_string());
                    let text = if n.description.is_empty() {
                        format!("{} ({what})", n.name)
                    } else {
                        format!("{} ({what}): {}", n.name, n.description)
                    };
                    (MemoryKind::Node, n.entity_key, text)
                }
                Loaded::Storyline(s) => (MemoryKind::Storyline, s.storyline_id, s.description),
                Loaded::Source(s) => {
                    let text = format!(
                        "{} ({}{}): {}",
                        s.event_time().format("%Y-%m-%d"),
                        s.source_type,
                        s.context_type
                            .as_deref()
                            .map(|c| format!(", {c}"))
                            .unwrap_or_default(),
                        s.summary
                    );
                    if let Some(p) = evidence.remove(&s.entity_key)
                        && !already_said(&p.text, &s.summary, &items)
                    {
                        quoted = Some(quote(&p.text));
                    }
                    let key = s.entity_key.clone();
                    shown_sources.push(*s);
                    (MemoryKind::Source, key, text)
                }
                Loaded::Macro(_) => continue,
            };
            if text.trim().is_empty() {
                continue;
            }
            items.push(Item {
                section,
                text,
                memory: Some(UsedMemory {
                    kind,
                    key,
                    note_id: None,
                }),
                quote: quoted,
            });
        }
    }

    let (kept, truncated) = fit(
        input.format,
        &items,
        budget,
        &svc.config.retrieval.context_shares,
    );
    let kept: Vec<&Item> = kept.iter().collect();
    let context = render(input.format, &kept);
    let memories: Vec<UsedMemory> = kept.iter().filter_map(|i| i.memory.clone()).collect();

    // What was used counts as recalled: a note as its node or relationship, once.
    for (kind, mut keys) in super::by_kind(
        &memories
            .iter()
            .map(|m| (m.kind, m.key.clone()))
            .collect::<Vec<_>>(),
    ) {
        keys.sort_unstable();
        keys.dedup();
        super::record_access(svc, kind, &keys).await?;
    }
    let used_sources: Vec<&crate::domain::Source> = shown_sources
        .iter()
        .filter(|s| memories.iter().any(|m| m.key == s.entity_key))
        .collect();
    extract_for_participant(svc, user, &used_sources, request_id).await;

    Ok(Context {
        format: input.format,
        tokens_used: estimate_tokens(&context),
        memories_used: memories.len(),
        memories,
        context,
        budget_tokens: budget,
        truncated,
    })
}

/// The best `PER_KIND` notes, one per text and origin: a sentence noted on each node it
/// names (and on the relationship between them) is shown once, where it ranks best.
fn distinct_notes(ranked: Vec<RankedNote>) -> Vec<RankedNote> {
    let mut seen = std::collections::HashSet::new();
    ranked
        .into_iter()
        .filter(|n| seen.insert((n.note.text.trim().to_lowercase(), n.note.source_id.clone())))
        .take(PER_KIND)
        .collect()
}

/// A note as context shows it: its date, what it is about (unless the text names it),
/// where it came from (the Source it was taken from, or consolidation), and its text.
/// `2026-03-02 · from <source key>: Sarah Chen wants the hiring plan done by March.`
fn note_line(n: &NoteHit) -> String {
    let mut line = n.date_added.format("%Y-%m-%d").to_string();
    if !n.owner.is_empty() && !n.text.to_lowercase().contains(&n.owner.to_lowercase()) {
        line.push_str(" · ");
        line.push_str(&n.owner);
    }
    match (&n.source_id, n.derived_from.len()) {
        (Some(source), _) => line.push_str(&format!(" · from {source}")),
        (None, 0) => line.push_str(" · consolidated"),
        (None, 1) => line.push_str(" · consolidated from 1 Source"),
        (None, k) => line.push_str(&format!(" · consolidated from {k} Sources")),
    }
    format!("{line}: {}", n.text)
}

/// A fact as context shows it, like a note: since when it holds, whether the user
/// confirmed it, the Source it came from (none when it was told through the API), and
/// its text. `2026-03-02 · confirmed · from <source key>: Alex is allergic to peanuts`
fn fact_line(f: &crate::domain::Fact) -> String {
    let mut line = f.valid_from.format("%Y-%m-%d").to_string();
    if f.confirmed {
        line.push_str(" · confirmed");
    }
    match f.source_keys.as_slice() {
        [] => {}
        [one] => line.push_str(&format!(" · from {one}")),
        [first, rest @ ..] => line.push_str(&format!(
            " · from {first} and {} more Source{}",
            rest.len(),
            if rest.len() == 1 { "" } else { "s" }
        )),
    }
    format!("{line}: {}", f.text)
}

/// Whether every line and sentence of `passage` is already in the summary or in an
/// item of the context (a note taken from it, say): quoting it again would only spend
/// the budget.
fn already_said(passage: &str, summary: &str, items: &[Item]) -> bool {
    passage
        .lines()
        .flat_map(|l| l.split_inclusive(['.', '!', '?']))
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .all(|s| summary.contains(s) || items.iter().any(|i| i.text.contains(s)))
}

/// Longest passage quoted in an episode, in characters.
const QUOTE_CHARS: usize = 300;

/// A passage on one line, cut at a word boundary after [`QUOTE_CHARS`] characters.
fn quote(passage: &str) -> String {
    let one_line = passage.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= QUOTE_CHARS {
        return one_line;
    }
    let cut: String = one_line.chars().take(QUOTE_CHARS).collect();
    let cut = cut.rsplit_once(' ').map_or(cut.as_str(), |(head, _)| head);
    format!("{cut}…")
}

/// Which share of the budget an item draws on (the profile comes off the top).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Share {
    Profile,
    Facts,
    Entities,
    Temporal,
    Evidence,
    Recent,
}

impl Section {
    fn share(self) -> Share {
        match self {
            Self::Profile => Share::Profile,
            Self::Facts => Share::Facts,
            Self::Entities => Share::Entities,
            Self::Storylines | Self::Episodes => Share::Temporal,
            Self::Recent => Share::Recent,
        }
    }
}

/// What goes in, as rendered items, and whether something was left out. The profile
/// first; then each item in priority order if it fits in what is left of the budget
/// and of its share (`shares` of the budget the profile left), an episode first without
/// its quote; then the quotes, within the evidence share; then, in priority order, what
/// was left out (items, then quotes) while the whole budget allows: what a share left
/// unused goes to the rest. An item is never cut: it fits whole or not at all.
fn fit(
    format: ContextFormat,
    items: &[Item],
    budget: u64,
    shares: &crate::config::ContextShares,
) -> (Vec<Item>, bool) {
    let n = items.len();
    let (mut kept, mut quoted) = (vec![false; n], vec![false; n]);
    let compose = |kept: &[bool], quoted: &[bool]| -> Vec<Item> {
        (0..n)
            .filter(|&i| kept[i])
            .map(|i| {
                let mut item = items[i].clone();
                match item.quote.take() {
                    Some(q) if quoted[i] => item.text.push_str(&format!(" — “{q}”")),
                    _ => {}
                }
                item
            })
            .collect()
    };
    let tokens = |kept: &[bool], quoted: &[bool]| {
        let composed = compose(kept, quoted);
        estimate_tokens(&render(format, &composed.iter().collect::<Vec<_>>()))
    };
    let mut used = 0;
    for i in 0..n {
        if items[i].section.share() == Share::Profile {
            kept[i] = true;
            let t = tokens(&kept, &quoted);
            if t <= budget {
                used = t;
            } else {
                kept[i] = false;
            }
        }
    }
    // The conversation at hand, after the profile: its latest turns first, within half
    // the budget, and no older turn once one is left out.
    let recent_cap = budget.min(used + budget / 2);
    for i in (0..n)
        .rev()
        .filter(|&i| items[i].section == Section::Recent)
    {
        kept[i] = true;
        let t = tokens(&kept, &quoted);
        if t <= recent_cap {
            used = t;
        } else {
            kept[i] = false;
            break;
        }
    }
    let rest = budget.saturating_sub(used) as f64;
    let cap = |share: Share| match share {
        Share::Profile | Share::Recent => 0.0,
        Share::Facts => shares.facts * rest,
        Share::Entities => shares.entities * rest,
        Share::Temporal => shares.temporal * rest,
        Share::Evidence => shares.evidence * rest,
    };
    let mut spent = std::collections::HashMap::<Share, f64>::new();
    // Tries one change: kept when the total fits, and within its share when one is given.
    let mut attempt = |kept: &mut Vec<bool>,
                       quoted: &mut Vec<bool>,
                       used: &mut u64,
                       i: usize,
                       quote: bool,
                       share: Option<Share>| {
        if quote {
            quoted[i] = true;
        } else {
            kept[i] = true;
        }
        let t = tokens(kept, quoted);
        let delta = t.saturating_sub(*used) as f64;
        let within = share.is_none_or(|s| spent.get(&s).copied().unwrap_or(0.0) + delta <= cap(s));
        if t <= budget && within {
            if let Some(s) = share {
                *spent.entry(s).or_default() += delta;
            }
            *used = t;
        } else if quote {
            quoted[i] = false;
        } else {
            kept[i] = false;
        }
    };
    let share_of = |i: usize| items[i].section.share();
    for i in (0..n).filter(|&i| !matches!(share_of(i), Share::Profile | Share::Recent)) {
        attempt(
            &mut kept,
            &mut quoted,
            &mut used,
            i,
            false,
            Some(share_of(i)),
        );
    }
    for i in 0..n {
        if kept[i] && items[i].quote.is_some() {
            attempt(
                &mut kept,
                &mut quoted,
                &mut used,
                i,
                true,
                Some(Share::Evidence),
            );
        }
    }
    for i in (0..n).filter(|&i| !matches!(share_of(i), Share::Profile | Share::Recent)) {
        if !kept[i] {
            attempt(&mut kept, &mut quoted, &mut used, i, false, None);
        }
    }
    for i in 0..n {
        if kept[i] && items[i].quote.is_some() && !quoted[i] {
            attempt(&mut kept, &mut quoted, &mut used, i, true, None);
        }
    }
    let truncated = (0..n).any(|i| !kept[i] || (items[i].quote.is_some() && !quoted[i]));
    (compose(&kept, &quoted), truncated)
}

fn sections<'a>(items: &'a [&'a Item]) -> Vec<(Section, Vec<&'a str>)> {
    let mut out: Vec<(Section, Vec<&str>)> = Vec::new();
    let mut sorted: Vec<&&Item> = items.iter().collect();
    sorted.sort_by_key(|i| i.section);
    for i in sorted {
        match out.last_mut() {
            Some((s, lines)) if *s == i.section => lines.push(&i.text),
            _ => out.push((i.section, vec![&i.text])),
        }
    }
    out
}

fn render(format: ContextFormat, items: &[&Item]) -> String {
    let sections = sections(items);
    match format {
        ContextFormat::Markdown => {
            let mut s = String::new();
            for (section, lines) in sections {
                if !s.is_empty() {
                    s.push('\n');
                }
                s.push_str(&format!("## {}\n", section.title()));
                for l in lines {
                    s.push_str(&format!("- {}\n", l.replace('\n', " ")));
                }
            }
            s
        }
        ContextFormat::Xml => {
            if sections.is_empty() {
                return String::new();
            }
            let mut s = String::from("<memory>\n");
            for (section, lines) in sections {
                s.push_str(&format!("  <{}>\n", section.tag()));
                for l in lines {
                    s.push_str(&format!("    <item>{}</item>\n", xml_escape(l)));
                }
                s.push_str(&format!("  </{}>\n", section.tag()));
            }
            s.push_str("</memory>\n");
            s
        }
        ContextFormat::Json => {
            if sections.is_empty() {
                return String::new();
            }
            let mut obj = serde_json::Map::new();
            for (section, lines) in sections {
                obj.insert(section.tag().to_owned(), json!(lines));
            }
            serde_json::Value::Object(obj).to_string()
        }
    }
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
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
            added_by: "alex".into(),
            score: 1.0,
            derived_from: (0..derived).map(|i| format!("s{i}")).collect(),
        }
    }

    #[test]
    fn the_recent_conversation_keeps_its_latest_turns_within_half_the_budget() {
        let shares = crate::config::ContextShares::default();
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
        let mut f = crate::domain::Fact {
            fact_id: "f1".into(),
            user_id: "alex".into(),
            text: "Alex is allergic to peanuts".into(),
            category: None,
            key: None,
            value: None,
            is_active: true,
            valid_from: at,
            valid_to: None,
            confirmed: true,
            supersedes: None,
            about: Vec::new(),
            source_keys: Vec::new(),
            embedding: None,
            lifecycle: crate::domain::Lifecycle::new(0.9, crate::domain::TtlPolicy::Decay, at),
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
        let shares = crate::config::ContextShares::default();
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
        let shares = crate::config::ContextShares::default();
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
        let js: serde_json::Value =
            serde_json::from_str(&render(ContextFormat::Json, &items)).unwrap();
        assert_eq!(js["profile"][0], "Ann Lee");
        assert!(render(ContextFormat::Json, &[]).is_empty());
    }
}
