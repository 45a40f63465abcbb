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
//! (`cosmo_shared::sessions`); they take what they need of the budget after the profile, up
//! to half of it, newest first.

mod fit;
mod render;
#[cfg(test)]
mod tests;

use serde::Serialize;

use self::fit::{Section, fit};
use self::render::render;
use super::notes::{RankedNote, node_relevance, rank_notes_among};
use super::rank::SignalHit;
use super::{
    Loaded, RetrievalResult, embed_queries, evidence, extract_for_participant, rank_target,
};
use crate::retrieval::Recall;
use cosmo_shared::domain::input::read::{ContextFormat, ContextInput};
use cosmo_shared::domain::{FactFilter, MemoryKind, NoteHit, SearchScope, Target};
use cosmo_shared::llm::estimate_tokens;

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
    /// Present when the memory was chosen without the embedding model, which was
    /// unavailable: by full text and graph links alone. Says why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub degraded: Option<String>,
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
    recall: impl Into<Recall<'_>>,
    input: &ContextInput,
    request_id: Option<String>,
) -> RetrievalResult<Context> {
    let r = &recall.into();
    let budget = input
        .budget_tokens
        .unwrap_or(r.retrieval.context_budget_tokens);
    let user = input.user_id.as_str();
    let mut items = Vec::new();

    // The owner first: their name and what is known of them.
    let full_name = r.directory.user(user).await?.and_then(|u| u.full_name);
    if let Some(owner) = r.graph.semantic.owner(user).await? {
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
    let confirmed = r
        .graph
        .facts
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
        let keep = i64::from(r.keep_turns);
        let turns = r
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
    let embedded = embed_queries(
        r,
        user,
        "context",
        vec![(input.message.clone(), r.retrieval.default_threshold)],
    )
    .await?;
    let queries = embedded.queries;
    let mut shown_sources = Vec::new();
    // Nodes are ranked once: for their own items and for ranking the notes.
    let nodes = rank_target(r, &scope, Target::Node, &queries, PER_KIND).await?;
    let notes = distinct_notes(
        rank_notes_among(
            r,
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
            rank_target(r, &scope, target, &queries, PER_KIND).await?
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
        let mut evidence = evidence::passages_of(r, &sources, &queries).await?;
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

    let (kept, truncated) = fit(input.format, &items, budget, &r.retrieval.context_shares);
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
        super::record_access(r, kind, &keys).await?;
    }
    let used_sources: Vec<&cosmo_shared::domain::Source> = shown_sources
        .iter()
        .filter(|s| memories.iter().any(|m| m.key == s.entity_key))
        .collect();
    extract_for_participant(r, user, &used_sources, request_id).await;

    Ok(Context {
        format: input.format,
        tokens_used: estimate_tokens(&context),
        memories_used: memories.len(),
        memories,
        context,
        budget_tokens: budget,
        truncated,
        degraded: embedded.degraded,
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
fn fact_line(f: &cosmo_shared::domain::Fact) -> String {
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
