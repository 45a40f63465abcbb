//! Entity extraction without a model: speakers and capitalised names become People and
//! Entities, recurring lower-case topics become Concepts; each comes with the sentences
//! about it (subpoints) and a 0–10 confidence that grows with mentions.

use std::collections::HashSet;

use super::concepts;
use super::names;
use super::owner::Owner;
use super::people::Book;
use super::text::{self, Sentence};
use crate::{ExtractedEntity, ExtractionContext};
use cosmo_core::domain::{NodeKind, SourceType, names::normalise};

/// At most this many subpoints per entity.
const MAX_SUBPOINTS: usize = 10;
const MAX_SUBPOINT_CHARS: usize = 300;

pub fn extract(content: &str, context: &ExtractionContext) -> Vec<ExtractedEntity> {
    let sentences = read(content, context);
    let owner = Owner::new(context.owner_name.as_deref());
    let mut book = Book::new(owner);
    let speakers = speakers(context, &sentences);
    for speaker in &speakers {
        book.add_speaker(speaker);
    }
    let body: Vec<&str> = sentences
        .iter()
        .filter(|s| s.header.is_none())
        .map(|s| s.text.as_str())
        .collect();
    let evidence = names::Evidence {
        mid: names::mid_sentence_capitals(&body),
        people: speakers
            .iter()
            .map(String::as_str)
            .chain(context.owner_name.as_deref())
            .flat_map(str::split_whitespace)
            .map(text::norm)
            .collect(),
    };
    for sentence in &body {
        for found in names::find(sentence, &evidence) {
            book.add_found(found);
        }
    }
    book.resolve_aliases();
    book.scan(&sentences);
    book.attribute_pronouns(&sentences);

    let mut out: Vec<(usize, ExtractedEntity)> = Vec::new();
    for candidate in book.candidates() {
        let Some(confidence) = candidate.confidence() else {
            continue;
        };
        let indices = candidate.sentence_indices();
        out.push((
            indices[0],
            ExtractedEntity {
                kind: candidate.kind,
                name: candidate.name.clone(),
                entity_type: candidate.entity_type.map(str::to_owned),
                confidence,
                subpoints: subpoints(&sentences, &indices, &candidate.name),
            },
        ));
    }
    out.sort_by_key(|(first, e)| (e.kind != NodeKind::Person, *first));
    let mut entities: Vec<ExtractedEntity> = out.into_iter().map(|(_, e)| e).collect();

    let exclude: HashSet<String> = book.name_words();
    for topic in concepts::find(&sentences, &exclude) {
        if entities.iter().any(|e| normalise(&e.name) == topic.name) {
            continue;
        }
        let subpoints = subpoints(&sentences, &topic.sentences, &topic.name);
        entities.push(ExtractedEntity {
            kind: NodeKind::Concept,
            name: topic.name,
            entity_type: None,
            confidence: topic.confidence,
            subpoints,
        });
    }
    entities
}

/// The sentences of `content`, with an email's body attributed to its sender.
pub fn read(content: &str, context: &ExtractionContext) -> Vec<Sentence> {
    let mut sentences = text::sentences(content, &context.speakers);
    if context.source_type == Some(SourceType::Email)
        && let Some(sender) = context.speakers.first()
    {
        for s in sentences
            .iter_mut()
            .filter(|s| s.header.is_none() && s.speaker.is_none())
        {
            s.speaker = Some(sender.clone());
        }
    }
    sentences
}

/// Context speakers, then any other speaker label in the text, without generic labels
/// ("Speaker 1", "Interviewer") or Slack user ids.
fn speakers(context: &ExtractionContext, sentences: &[Sentence]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let labels = context
        .speakers
        .iter()
        .cloned()
        .chain(sentences.iter().filter_map(|s| s.speaker.clone()));
    for label in labels {
        if !is_generic_speaker(&label) && !out.iter().any(|o| text::same_name(o, &label)) {
            out.push(label);
        }
    }
    out
}

/// Whether a sentence says something beyond the name: "Thanks Alex." and "Sure." do
/// not; "I love hiking." does.
pub fn informative(sentence: &str, name: &str) -> bool {
    let name_words = text::content_words(name);
    text::tokens(sentence).len() >= 3
        && text::content_words(sentence)
            .iter()
            .any(|w| !name_words.contains(w))
}

pub fn is_generic_speaker(label: &str) -> bool {
    const GENERIC: &str = "speaker participant unknown host interviewer interviewee user assistant \
        agent customer caller moderator guest narrator ai bot system me you person";
    let first = label.split_whitespace().next().unwrap_or("").to_lowercase();
    let slack_id = label.len() >= 7
        && label.starts_with(['U', 'W'])
        && label
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
    text::listed(&first, GENERIC) || slack_id || !label.chars().any(char::is_alphabetic)
}

/// The informative sentences among `indices`, attributed, without repeats.
fn subpoints(sentences: &[Sentence], indices: &[usize], name: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for &i in indices
        .iter()
        .filter(|&&i| informative(&sentences[i].text, name))
    {
        let point = text::truncate(&sentences[i].attributed(), MAX_SUBPOINT_CHARS);
        if !out.iter().any(|o| o.eq_ignore_ascii_case(&point)) {
            out.push(point);
        }
        if out.len() == MAX_SUBPOINTS {
            break;
        }
    }
    out
}
