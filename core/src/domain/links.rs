//! Typed links between a user's Sources (episodes):
//!
//! * **temporal**: from a Source to the next one of the same *thread* (below), by event
//!   time. Written on the write path (`process-source`), once per consecutive pair: a
//!   Source that arrives late, between two linked ones, takes its place in the chain.
//! * **causal**: from a cause to its effect, inferred nightly (`infer-causal-links`)
//!   between a Source and the ones just before it in its thread, with a confidence and
//!   the provenance of the inference (which model, from what sentence).
//!
//! Both go with either of their Sources when it is erased; erasing a Source in the
//! middle of a thread links its neighbours to each other.
//!
//! **Threads.** A Source's thread is what it continues, read from the Source itself
//! ([`thread_key`]): the `thread_id` (or `conversation_id`, `session_id`, `channel_id`)
//! an integration put in its provenance; else a Slack thread's channel, an email's
//! subject without its `Re:`/`Fwd:` prefixes, or who took part in a transcript (the
//! same people talking again): its participants when any besides the owner are named,
//! else its speakers, two at least. Always within the owner and the team. A text note
//! with no such provenance continues nothing.

use chrono::{DateTime, Utc};
use serde::Serialize;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use super::raw::RawContent;
use super::{Source, SourceType, string_enum};

/// The kind of a link between two Sources (ordered as their names are).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SourceLinkKind {
    /// `from` caused (or explains) `to`.
    Causal,
    /// `from` comes right before `to` in their thread.
    Temporal,
}

string_enum!(SourceLinkKind {
    Causal = "causal",
    Temporal = "temporal",
});

/// A stored link between two Sources of one user.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct SourceLink {
    pub kind: SourceLinkKind,
    /// The earlier Source (temporal), the cause (causal).
    pub from_key: String,
    /// The later Source (temporal), the effect (causal).
    pub to_key: String,
    /// 1.0 for temporal links; the inference's confidence for causal ones.
    pub confidence: f64,
    /// What inferred a causal link: `<provider>:<model>`, e.g.
    /// `offline:offline-extractive-v1` or `openai:gpt-4.1-mini`.
    pub inferred_by: Option<String>,
    /// The sentence of the effect that names its cause.
    pub evidence: Option<String>,
    pub created_at: DateTime<Utc>,
}

/// A causal link to write.
#[derive(Debug, Clone, PartialEq)]
pub struct NewCausalLink {
    pub cause_key: String,
    pub effect_key: String,
    pub confidence: f64,
    pub inferred_by: String,
    pub evidence: String,
}

/// A Source whose causes were never looked for, with the Sources just before it in its
/// thread (nearest first): where [`NewCausalLink`]s to it may come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CausalCandidate {
    pub effect_key: String,
    pub user_id: String,
    pub earlier: Vec<String>,
}

/// The thread a Source continues, if any: a short stable key, the same for every
/// Source of the thread (see the module's docs).
pub fn thread_key(source: &Source) -> Option<String> {
    let named = source.provenance.as_ref().and_then(|p| {
        ["thread_id", "conversation_id", "session_id", "channel_id"]
            .iter()
            .find_map(|field| match p.get(field)? {
                serde_json::Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_owned()),
                serde_json::Value::Number(n) => Some(n.to_string()),
                _ => None,
            })
    });
    let thread = match named {
        Some(id) => format!("id:{id}"),
        None => match RawContent::parse(source.source_type, &source.raw_content).ok()? {
            RawContent::Slack(t) if !t.channel.trim().is_empty() => {
                format!("slack:{}", t.channel.trim().to_lowercase())
            }
            RawContent::Email(e) => format!("email:{}", bare_subject(&e.subject)?),
            RawContent::Transcript(t) => {
                let family = match source.source_type {
                    SourceType::Meeting => "meeting",
                    SourceType::VoiceMemo => "voice-memo",
                    _ => "conversation",
                };
                // Who took part: the participants the integration named besides the
                // owner, else (none named) the speakers of the transcript, two at least.
                let owner = source.user_id.trim().to_lowercase();
                let named = people(source.participants.iter().map(String::as_str));
                if named.iter().any(|p| *p != owner) {
                    format!("{family}:p:{}", named.join("\u{1f}"))
                } else {
                    let spoke = people(t.turns.iter().filter_map(|t| t.speaker.as_deref()));
                    if spoke.len() < 2 {
                        return None;
                    }
                    format!("{family}:s:{}", spoke.join("\u{1f}"))
                }
            }
            _ => return None,
        },
    };
    let scoped = format!(
        "{}\u{1e}{}\u{1e}{thread}",
        source.user_id,
        source.team_id.as_deref().unwrap_or("")
    );
    Some(hex::encode(&Sha256::digest(scoped.as_bytes())[..16]))
}

/// Names trimmed, in lower case, sorted, each once.
fn people<'a>(names: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = names
        .map(|n| n.trim().to_lowercase())
        .filter(|n| !n.is_empty())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// An email subject without its reply and forward prefixes, lower case, spaces
/// collapsed; `None` if nothing is left.
fn bare_subject(subject: &str) -> Option<String> {
    let mut s = subject.trim();
    loop {
        let lower = s.to_lowercase();
        let Some(rest) = ["re:", "fwd:", "fw:", "aw:", "sv:"]
            .iter()
            .find_map(|p| lower.starts_with(p).then(|| &s[p.len()..]))
        else {
            break;
        };
        s = rest.trim_start();
    }
    let words: Vec<String> = s.split_whitespace().map(str::to_lowercase).collect();
    (!words.is_empty()).then(|| words.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{Lifecycle, ProcessingStatus, Sensitivity, TtlPolicy};
    use serde_json::json;

    fn source(source_type: SourceType, raw: serde_json::Value, participants: &[&str]) -> Source {
        Source {
            entity_key: "k".into(),
            user_id: "u".into(),
            team_id: None,
            participants: participants.iter().map(|p| (*p).to_owned()).collect(),
            source_type,
            raw_content: raw,
            provenance: None,
            context_type: None,
            started_at: None,
            ended_at: None,
            sensitivity: Sensitivity::Normal,
            idempotency_key: "i".into(),
            external_id: None,
            content_hash: "h".into(),
            content: String::new(),
            summary: String::new(),
            keywords: vec![],
            tags: vec![],
            embedding: None,
            embedded_with: None,
            processing_status: ProcessingStatus::Processed,
            processing_started_at: None,
            processing_completed_at: None,
            extraction_started_at: None,
            extraction_completed_at: None,
            processing_error: None,
            lifecycle: Lifecycle::new(1.0, TtlPolicy::Decay, chrono::Utc::now()),
        }
    }

    fn chat(participants: &[&str]) -> Source {
        source(
            SourceType::Conversation,
            json!({"content": [{"speaker": "Maya", "text": "hi"}]}),
            participants,
        )
    }

    #[test]
    fn the_same_people_talking_again_continue_one_thread() {
        let a = thread_key(&chat(&["Maya Cole", "Leo Park"]));
        assert!(a.is_some());
        assert_eq!(a, thread_key(&chat(&["leo park", "Maya Cole "])));
        assert_ne!(a, thread_key(&chat(&["Maya Cole", "Ann Lee"])));
    }

    #[test]
    fn without_named_participants_the_speakers_say_who_talked() {
        let talk = |speakers: &[&str], participants: &[&str]| {
            let turns: Vec<_> = speakers
                .iter()
                .map(|s| json!({"speaker": s, "text": "hi"}))
                .collect();
            source(
                SourceType::Conversation,
                json!({ "content": turns }),
                participants,
            )
        };
        let maya_and_leo = thread_key(&talk(&["Maya", "Leo", "Maya"], &[]));
        assert!(maya_and_leo.is_some());
        assert_eq!(maya_and_leo, thread_key(&talk(&["leo", "Maya"], &["u"])));
        assert_ne!(maya_and_leo, thread_key(&talk(&["Maya", "Ann"], &[])));
        assert_eq!(
            thread_key(&talk(&["Maya", "Maya"], &[])),
            None,
            "one speaker"
        );
    }

    #[test]
    fn a_thread_is_the_owners_and_the_teams_own() {
        let mine = chat(&["Maya Cole", "Leo Park"]);
        let mut theirs = mine.clone();
        theirs.user_id = "other".into();
        let mut team = mine.clone();
        team.team_id = Some("t1".into());
        assert_ne!(thread_key(&mine), thread_key(&theirs));
        assert_ne!(thread_key(&mine), thread_key(&team));
    }

    #[test]
    fn an_integrations_thread_id_decides_over_the_content() {
        let mut a = chat(&["Maya Cole", "Leo Park"]);
        a.provenance = Some(json!({"thread_id": "T-9"}));
        let mut b = chat(&["Someone Else"]);
        b.provenance = Some(json!({"session_id": "T-9"}));
        assert_eq!(thread_key(&a), thread_key(&b));
        assert_ne!(
            thread_key(&a),
            thread_key(&chat(&["Maya Cole", "Leo Park"]))
        );
    }

    #[test]
    fn replies_to_an_email_continue_its_thread_and_a_bare_note_continues_none() {
        let mail = |subject: &str| {
            source(
                SourceType::Email,
                json!({"from": "a@x.io", "to": ["b@x.io"], "subject": subject, "body": "hi"}),
                &[],
            )
        };
        assert_eq!(
            thread_key(&mail("Budget for Q3")),
            thread_key(&mail("RE: Fwd:  budget for  q3"))
        );
        assert_ne!(
            thread_key(&mail("Budget for Q3")),
            thread_key(&mail("Budget"))
        );
        assert_eq!(thread_key(&mail("Re:")), None);
        let note = source(SourceType::TextNote, json!({"content": "milk"}), &[]);
        assert_eq!(thread_key(&note), None);
    }
}
