//! The note-taking pass without a model: each kept entity gets its subpoints as notes;
//! two entities named in one sentence get a relationship typed by the verbs around
//! them, with that sentence as a note. First-person sentences of the owner link the
//! owner ([`OWNER`]).

use std::collections::HashMap;

use super::extract::read;
use super::lifetime::lifetime;
use super::owner::Owner;
use super::relation::{self, Party};
use super::targets::{Target, find, info, targets};
use super::text::{self, Sentence};
use crate::{AgentAction, ExtractedEntity, ExtractionContext, OWNER};
use cosmo_core::domain::{NodeKind, SourceType};

const NOTES_PER_ENTITY: usize = 5;
const NOTES_PER_RELATIONSHIP: usize = 5;
const MAX_RELATIONSHIPS: usize = 30;
const MAX_NOTE_CHARS: usize = 300;

pub fn take_notes(
    content: &str,
    entities: &[ExtractedEntity],
    context: &ExtractionContext,
) -> Vec<AgentAction> {
    let owner = Owner::new(context.owner_name.as_deref());
    let targets = targets(entities, &owner);
    let mut actions = Vec::new();
    for target in &targets {
        let mut seen: Vec<String> = Vec::new();
        for point in &target.subpoints {
            let note = text::truncate(point.trim(), MAX_NOTE_CHARS);
            if note.is_empty() || seen.iter().any(|s| s.eq_ignore_ascii_case(&note)) {
                continue;
            }
            seen.push(note.clone());
            actions.push(AgentAction::AddNote {
                kind: target.kind,
                name: target.name.clone(),
                lifetime: lifetime(&note),
                note,
            });
            if seen.len() == NOTES_PER_ENTITY {
                break;
            }
        }
    }
    let sentences = read(content, context);
    actions.extend(relationships(&sentences, &targets, &owner, context));
    actions
}

fn relationships(
    sentences: &[Sentence],
    targets: &[Target],
    owner: &Owner,
    context: &ExtractionContext,
) -> Vec<AgentAction> {
    let owner_at = targets.iter().position(|t| t.name == OWNER).unwrap_or(0);
    let author_is_owner = matches!(
        context.source_type,
        Some(SourceType::VoiceMemo | SourceType::TextNote)
    );
    let mut rels: Vec<relation::Rel> = Vec::new();
    let mut index: HashMap<(usize, usize), usize> = HashMap::new();
    for (i, sentence) in sentences.iter().enumerate() {
        let tokens: Vec<String> = text::tokens(&sentence.text)
            .iter()
            .map(|t| text::norm(t.text))
            .collect();
        let caps: Vec<bool> = text::tokens(&sentence.text)
            .iter()
            .map(|t| t.text.starts_with(char::is_uppercase))
            .collect();
        let mut named: Vec<(usize, usize, usize)> = Vec::new(); // (start, end, target)
        for (t, target) in targets.iter().enumerate() {
            if let Some((start, end)) = target
                .aliases
                .iter()
                .find_map(|a| find(&tokens, &caps, a, target.kind))
            {
                named.push((start, end, t));
            }
        }
        named.sort_unstable();
        let first_person = tokens.iter().any(|w| {
            matches!(
                w.as_str(),
                "i" | "i'm" | "i've" | "i'll" | "i'd" | "me" | "my" | "mine" | "myself"
            )
        });
        let subject = match &sentence.speaker {
            Some(s) if owner.matches(s) => Some(owner_at),
            Some(s) => targets.iter().position(|t| {
                t.kind == NodeKind::Person
                    && t.aliases.iter().any(|a| text::same_name(&a.join(" "), s))
            }),
            None if author_is_owner => Some(owner_at),
            None => None,
        }
        .filter(|_| first_person);
        let mut pairs: Vec<(Party, Party)> = Vec::new();
        if let Some(s) = subject {
            // "My sister Maya lives in Denver": Denver belongs to Maya, not to the speaker.
            let closer_person = |start: usize| {
                named
                    .iter()
                    .any(|n| n.0 < start && n.2 != s && targets[n.2].kind == NodeKind::Person)
            };
            for &(start, end, t) in named.iter().filter(|n| n.2 != s && !closer_person(n.0)) {
                pairs.push((
                    Party {
                        target: s,
                        start: 0,
                        end: 0,
                    },
                    Party {
                        target: t,
                        start,
                        end,
                    },
                ));
            }
        }
        for (x, &(s1, e1, a)) in named.iter().enumerate() {
            for &(s2, e2, b) in &named[x + 1..] {
                if a != b && Some(a) != subject && Some(b) != subject {
                    pairs.push((
                        Party {
                            target: a,
                            start: s1,
                            end: e1,
                        },
                        Party {
                            target: b,
                            start: s2,
                            end: e2,
                        },
                    ));
                }
            }
        }
        for (a, b) in pairs {
            let (kind_a, kind_b) = (info(&targets[a.target]), info(&targets[b.target]));
            let (rel_type, forward) = relation::classify(&tokens, &a, &b, kind_a, kind_b);
            let (from, to) = if forward {
                (a.target, b.target)
            } else {
                (b.target, a.target)
            };
            let key = (from.min(to), from.max(to));
            let at = *index.entry(key).or_insert_with(|| {
                rels.push(relation::Rel::new(i));
                rels.len() - 1
            });
            rels[at].add(rel_type, from, to, i, relation::sentiment(&tokens));
        }
    }
    // A bare co-occurrence needs two sentences; a typed link ("works with") or the
    // owner's own first-person statement needs one.
    rels.retain(|r| {
        let s = r.settle();
        r.sentences.len() >= 2
            || s.rel_type != "related_to"
            || s.from == owner_at
            || s.to == owner_at
    });
    if rels.len() > MAX_RELATIONSHIPS {
        rels.sort_by(|a, b| {
            b.sentences
                .len()
                .cmp(&a.sentences.len())
                .then(a.first.cmp(&b.first))
        });
        rels.truncate(MAX_RELATIONSHIPS);
        rels.sort_by_key(|r| r.first);
    }
    let mut actions = Vec::new();
    for rel in rels {
        let summary = rel.settle();
        let (from, to) = (&targets[summary.from], &targets[summary.to]);
        actions.push(AgentAction::CreateRelationship {
            from: from.name.clone(),
            to: to.name.clone(),
            relationship_type: summary.rel_type.to_owned(),
            description: relation::describe(summary.rel_type, &from.display, &to.display),
            attitude: summary.attitude.to_owned(),
            proximity: summary.proximity,
            strength: summary.strength,
            confidence: summary.confidence,
        });
        let mut seen: Vec<String> = Vec::new();
        for &i in rel.sentences.iter() {
            let note = text::truncate(&sentences[i].attributed(), MAX_NOTE_CHARS);
            if seen.contains(&note) {
                continue;
            }
            seen.push(note.clone());
            actions.push(AgentAction::AddNoteToRelationship {
                from: from.name.clone(),
                to: to.name.clone(),
                relationship_type: summary.rel_type.to_owned(),
                lifetime: lifetime(&note),
                note,
            });
            if seen.len() == NOTES_PER_RELATIONSHIP {
                break;
            }
        }
    }
    actions
}
