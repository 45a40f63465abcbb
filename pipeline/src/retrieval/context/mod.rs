//! `POST /api/context`: the memory that best answers a message, within a token budget,
//! as markdown, XML or JSON.
//!
//! The owner's profile comes first, then the session's latest turns (with a
//! `session_id`, up to half the budget) and the user's confirmed facts. The rest of the
//! budget goes to what best answers the message, by one relevance ([`said`], [`fit`]):
//! what was said — the lines (turns, messages, paragraphs) of the Sources hybrid
//! retrieval ranks for the message, the notes that match it, the statements of
//! consolidation insights —, each under its Source or insight with when it was said
//! and relative times grounded (`yesterday (7 May 2023)`); relevant facts; people and
//! topics; Storylines; and a summary only for an episode none of whose lines is shown.
//! A note taken from a line shown is not paid for twice. Each part first takes what fits
//! in its share (`retrieval.context_shares`), then what one part leaves goes to the
//! others, while relevant material remains. Nothing is cut mid-line; `truncated` says
//! whether something relevant was left out.

mod fit;
mod render;
mod said;
#[cfg(test)]
mod tests;

use std::collections::HashMap;

use serde::Serialize;

use self::fit::{Section, fit};
use self::render::render;
use self::said::{FoundNote, FoundSource, Pool, score_of};
use super::notes::{RankedNote, node_relevance, rank_notes_among};
use super::{Loaded, RetrievalResult, embed_queries, extract_for_participant, rank_target};
use crate::retrieval::Recall;
use cosmo_shared::domain::input::read::{ContextFormat, ContextInput};
use cosmo_shared::domain::{FactFilter, MemoryKind, SearchScope, Source, Target};
use cosmo_shared::llm::estimate_tokens;
use cosmo_shared::llm::time::date;

/// Sources whose lines are candidates.
const SOURCES: usize = 24;
/// Notes considered.
const NOTES: usize = 24;
/// Facts, people and topics, Storylines and episode summaries considered, each.
const PER_KIND: usize = 6;

/// How much a candidate other than what was said weighs beside a statement of the same
/// relevance: a node's name and a summary say less than the words themselves.
const NODE_WEIGHT: f64 = 0.6;
const STORYLINE_WEIGHT: f64 = 0.6;
const EPISODE_WEIGHT: f64 = 0.5;

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

/// A candidate other than a statement of what was said.
#[derive(Debug, Clone)]
struct Item {
    section: Section,
    text: String,
    memory: Option<UsedMemory>,
    /// 0–1, on the statements' scale.
    score: f64,
    /// An episode summary: the Source it summarises (left out when a line of it is shown).
    episode_of: Option<String>,
}

impl Item {
    fn fixed(section: Section, text: String, memory: Option<UsedMemory>) -> Self {
        Self {
            section,
            text,
            memory,
            score: 1.0,
            episode_of: None,
        }
    }
}

/// What fits: items, and the statements of the pool (indexes) in the order chosen.
#[derive(Debug, Default)]
struct Kept {
    items: Vec<Item>,
    statements: Vec<usize>,
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
    let mut fixed = Vec::new();

    // The owner first: their name and what is known of them.
    let full_name = r.directory.user(user).await?.and_then(|u| u.full_name);
    if let Some(owner) = r.graph.semantic.owner(user).await? {
        let mut text = owner.name.clone();
        if !owner.description.is_empty() {
            text = format!("{text}: {}", owner.description);
        }
        fixed.push(Item::fixed(Section::Profile, text, None));
    } else if let Some(name) = full_name {
        fixed.push(Item::fixed(Section::Profile, name, None));
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
        fixed.push(Item::fixed(
            Section::Facts,
            fact_line(f),
            Some(UsedMemory {
                kind: MemoryKind::Fact,
                key: f.fact_id.clone(),
                note_id: None,
            }),
        ));
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
            fixed.push(Item::fixed(
                Section::Recent,
                format!("{}: {}", t.speaker, t.text),
                None,
            ));
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
    let nodes = rank_target(r, &scope, Target::Node, &queries, PER_KIND).await?;
    // Archived Sources the message matches are answered by their insights.
    let (sources, through_archived) =
        super::archived::rank_sources(r, &scope, &queries, SOURCES).await?;
    let mut notes = rank_notes_among(
        r,
        &scope,
        &[input.message.as_str()],
        &node_relevance(&nodes),
        2 * NOTES,
    )
    .await?;
    notes.extend(through_archived);
    notes.sort_by(|a, b| b.score.total_cmp(&a.score));
    let notes = distinct_notes(notes);
    let facts = rank_target(r, &scope, Target::Fact, &queries, PER_KIND).await?;
    let storylines = rank_target(r, &scope, Target::Storyline, &queries, PER_KIND).await?;

    // The other candidates, as they read, each with its relevance against the best of
    // its kind, its weight, and whether retrieval found it on more than one weak signal.
    let mut others: Vec<Other> = Vec::new();
    let rel = |list: &[(f64, super::Why, Loaded)]| {
        let best = list.iter().map(|(s, _, _)| *s).fold(0.0, f64::max);
        move |s: f64| {
            if best > 0.0 {
                (s / best).clamp(0.0, 1.0)
            } else {
                0.0
            }
        }
    };
    let fact_rel = rel(&facts);
    for (s, why, item) in &facts {
        if let Loaded::Fact(f) = item
            && !f.confirmed
        {
            others.push(Other {
                words: f.text.clone(),
                item: other(Section::Facts, fact_line(f), MemoryKind::Fact, &f.fact_id),
                relevance: fact_rel(*s),
                weight: 1.0,
                strong: strong(why),
            });
        }
    }
    let node_rel = rel(&nodes);
    for (s, why, item) in &nodes {
        if let Loaded::Node(n) = item
            && !n.is_owner
        {
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
            others.push(Other {
                words: text.clone(),
                item: other(Section::Entities, text, MemoryKind::Node, &n.entity_key),
                relevance: node_rel(*s),
                weight: NODE_WEIGHT,
                strong: strong(why),
            });
        }
    }
    let storyline_rel = rel(&storylines);
    for (s, why, item) in &storylines {
        if let Loaded::Storyline(st) = item
            && !st.description.trim().is_empty()
        {
            others.push(Other {
                words: st.description.clone(),
                item: other(
                    Section::Storylines,
                    st.description.clone(),
                    MemoryKind::Storyline,
                    &st.storyline_id,
                ),
                relevance: storyline_rel(*s),
                weight: STORYLINE_WEIGHT,
                strong: strong(why),
            });
        }
    }
    let source_rel = rel(&sources);
    let found: Vec<(&Source, f64, &[super::rank::SignalHit])> = sources
        .iter()
        .filter_map(|(s, why, item)| match item {
            Loaded::Source(src) => Some((&**src, source_rel(*s), why.signals.as_slice())),
            _ => None,
        })
        .collect();
    let strong_sources: Vec<bool> = sources.iter().map(|(_, why, _)| strong(why)).collect();
    for ((src, relevance, _), strong_source) in found.iter().zip(&strong_sources).take(PER_KIND) {
        if src.summary.trim().is_empty() {
            continue;
        }
        let mut item = other(
            Section::Episodes,
            format!(
                "{} ({}): {}",
                date(src.event_time().date_naive()),
                src.source_type,
                src.summary
            ),
            MemoryKind::Source,
            &src.entity_key,
        );
        item.episode_of = Some(src.entity_key.clone());
        others.push(Other {
            words: src.summary.clone(),
            item,
            relevance: *relevance,
            weight: EPISODE_WEIGHT,
            strong: *strong_source,
        });
    }

    let pool = pool_of(r, &found, &notes, &others, &queries).await?;
    let (pool, ranked) = pool;
    let (kept, truncated) = fit(
        input.format,
        &fixed,
        &ranked,
        &pool,
        budget,
        &r.retrieval.context_shares,
    );
    let context = render(input.format, &kept, &pool);
    let mut memories: Vec<UsedMemory> = Vec::new();
    let mut used = |m: Option<&UsedMemory>| {
        if let Some(m) = m
            && !memories.contains(m)
        {
            memories.push(m.clone());
        }
    };
    for item in &kept.items {
        used(item.memory.as_ref());
    }
    for &i in &kept.statements {
        let st = &pool.statements[i];
        used(pool.groups[st.group].memory.as_ref());
        used(st.memory.as_ref());
    }

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
    let used_sources: Vec<&Source> = found
        .iter()
        .map(|(s, _, _)| *s)
        .filter(|s| {
            memories
                .iter()
                .any(|m| m.kind == MemoryKind::Source && m.key == s.entity_key)
        })
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

/// A candidate other than a statement, before it is scored.
struct Other {
    item: Item,
    /// Its words, scored against the message (not the dates it is shown with).
    words: String,
    /// Against the best of its kind, 0–1.
    relevance: f64,
    /// What it weighs beside a statement.
    weight: f64,
    /// Retrieval found it relevant on its own ([`strong`]): it may come in without
    /// sharing a word with the message.
    strong: bool,
}

/// Relevant enough to show without a word of the message in what it shows: the store's
/// full-text search matched it (its other fields, its keywords), it is linked to the
/// nodes the message names, or it is like the message (a cosine of [`LIKE`] or more).
/// A faint likeness alone is not enough: every memory has some.
fn strong(why: &super::Why) -> bool {
    why.signals.iter().any(|h| match h.signal {
        super::rank::Signal::Vector => h.score >= LIKE,
        _ => true,
    })
}

/// The cosine from which a memory is like the message.
const LIKE: f64 = 0.5;

fn other(section: Section, text: String, kind: MemoryKind, key: &str) -> Item {
    Item {
        section,
        text,
        memory: Some(UsedMemory {
            kind,
            key: key.to_owned(),
            note_id: None,
        }),
        score: 0.0,
        episode_of: None,
    }
}

/// The pool of statements, and the other candidates scored on its scale, best first.
/// Reads the Sources of the notes retrieval did not return (their dates and types).
async fn pool_of(
    r: &Recall<'_>,
    found: &[(&Source, f64, &[super::rank::SignalHit])],
    notes: &[RankedNote],
    others: &[Other],
    queries: &[super::Query],
) -> RetrievalResult<(Pool, Vec<Item>)> {
    let mut wanted: Vec<String> = notes
        .iter()
        .flat_map(|n| n.note.source_id.iter().chain(&n.note.derived_from))
        .filter(|k| !found.iter().any(|(s, _, _)| &s.entity_key == *k))
        .cloned()
        .collect();
    wanted.sort_unstable();
    wanted.dedup();
    let metas: HashMap<String, cosmo_shared::domain::SourceMeta> = if wanted.is_empty() {
        HashMap::new()
    } else {
        r.graph
            .views
            .source_metas(&wanted)
            .await?
            .into_iter()
            .map(|m| (m.entity_key.clone(), m))
            .collect()
    };
    let best_note = notes.iter().map(|n| n.score).fold(0.0, f64::max);
    let found_notes: Vec<FoundNote<'_>> = notes
        .iter()
        .map(|n| FoundNote {
            note: &n.note,
            relevance: if best_note > 0.0 {
                n.score / best_note
            } else {
                0.0
            },
        })
        .collect();
    let found_sources: Vec<FoundSource<'_>> = found
        .iter()
        .map(|(source, relevance, signals)| FoundSource {
            source,
            relevance: *relevance,
            signals,
        })
        .collect();
    let texts: Vec<&str> = others.iter().map(|o| o.words.as_str()).collect();
    let (pool, matches) = said::pool(&found_sources, &found_notes, &metas, &texts, queries);
    let mut ranked: Vec<Item> = others
        .iter()
        .zip(matches)
        .filter(|(o, text)| *text > 0.0 || o.strong)
        .map(|(o, text)| Item {
            score: o.weight * score_of(text, o.relevance),
            ..o.item.clone()
        })
        .filter(|i| i.score > 0.0)
        .collect();
    ranked.sort_by(|a, b| b.score.total_cmp(&a.score));
    Ok((pool, ranked))
}

/// The best [`NOTES`] notes, one per text and origin: a sentence noted on each node it
/// names (and on the relationship between them) is shown once, where it ranks best.
fn distinct_notes(ranked: Vec<RankedNote>) -> Vec<RankedNote> {
    let mut seen = std::collections::HashSet::new();
    ranked
        .into_iter()
        .filter(|n| seen.insert((n.note.text.trim().to_lowercase(), n.note.source_id.clone())))
        .take(NOTES)
        .collect()
}

/// A fact as context shows it: when it was said (the latest Source it cites, else when
/// it was told), whether the user confirmed it, the Source it came from (none when it
/// was told through the API), and its text.
/// `2 March 2026 · confirmed · from <source key>: Alex is allergic to peanuts`
fn fact_line(f: &cosmo_shared::domain::Fact) -> String {
    let mut line = date(f.said_at.date_naive());
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
