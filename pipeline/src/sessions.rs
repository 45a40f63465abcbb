//! Posting a claimed chunk: its turns become a `conversation` Source, stored and queued
//! exactly as `POST /api/sources` stores one ([`store_source`](crate::store_source)), then the
//! chunk is marked posted and its turns leave the buffer. Repeating it is harmless: the
//! Source's key comes from user, session and first turn, so a second post finds the
//! first Source (same content) and only marks the chunk.

use serde_json::{Value, json};

use crate::{Intake, StoreError, store_source};
use cosmo_shared::domain::input::SourceInput;
use cosmo_shared::sessions::{Chunk, Sessions, Turn, external_id};

/// What became of a chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Posted {
    /// Its Source is stored (now or before) and the chunk is marked.
    Stored,
    /// Its Source is stored but its processing could not be queued: the reconciler
    /// queues raw Sources, so the chunk is marked all the same.
    StoredNotQueued,
    /// Another poster got there first.
    AlreadyPosted,
}

/// The body `POST /api/sources` would take for these turns of `session_id`: a
/// `conversation` transcript, one `{speaker, text, timestamp}` per turn, from the first
/// turn's time to the last's.
pub fn source_body(graph_user_id: &str, session_id: &str, chunk: &Chunk, turns: &[Turn]) -> Value {
    let content: Vec<Value> = turns
        .iter()
        .map(|t| {
            json!({
                "speaker": t.speaker,
                "text": t.text,
                "timestamp": t.spoken_at.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true),
            })
        })
        .collect();
    let times = turns.iter().map(|t| t.spoken_at);
    let rfc =
        |t: chrono::DateTime<chrono::Utc>| t.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true);
    json!({
        "user_id": cosmo_shared::ids::user_id_of(graph_user_id),
        "source_type": "conversation",
        "external_id": external_id(session_id, chunk.first_seq),
        "started_at": times.clone().min().map(rfc),
        "ended_at": times.max().map(rfc),
        "provenance": {
            "origin": "session-buffer",
            "session_id": session_id,
            "first_turn": chunk.first_seq,
            "last_turn": chunk.last_seq,
        },
        "raw_content": {
            "title": format!("Session {session_id}, turns {} to {}", chunk.first_seq, chunk.last_seq),
            "content": content,
        },
    })
}

/// Stores `chunk`'s Source through `intake` and marks the chunk posted in `sessions`.
pub async fn post_chunk(
    sessions: &Sessions,
    intake: Intake<'_>,
    chunk: &Chunk,
    request_id: Option<String>,
) -> anyhow::Result<Posted> {
    let (user, session) = (&chunk.graph_user_id, &chunk.session_id);
    let turns = sessions
        .turns(user, session, chunk.first_seq, chunk.last_seq)
        .await?;
    let expected = (chunk.last_seq - chunk.first_seq + 1) as usize;
    if turns.len() != expected {
        // Marking a chunk posted deletes its turns: a poster that read after another
        // marked it finds them gone.
        anyhow::ensure!(
            sessions.is_posted(chunk).await?,
            "chunk {user}/{session}/{} has {} of its {expected} turns and is not posted",
            chunk.first_seq,
            turns.len()
        );
        return Ok(Posted::AlreadyPosted);
    }
    let body = source_body(user, session, chunk, &turns);
    let input = SourceInput::parse(body)
        .map_err(|e| anyhow::anyhow!("the transcript of chunk {}: {e}", chunk.source_key))?;
    // The owner is the graph's user already; no other participant.
    let owner = [input.user_id.clone()];
    let new = input
        .with_graph_user_ids(&owner, std::slice::from_ref(user))
        .into_new_source(None, intake.clock.now());
    anyhow::ensure!(
        new.entity_key == chunk.source_key,
        "chunk {} would be stored as {}",
        chunk.source_key,
        new.entity_key
    );
    let outcome = match store_source(intake, &new, request_id).await {
        Ok(_) => Posted::Stored,
        Err(StoreError::NotEnqueued { stored, error }) => {
            tracing::warn!(entity_key = %stored.entity_key, %error,
                "session chunk stored but not enqueued; the reconciler will queue it");
            Posted::StoredNotQueued
        }
        Err(StoreError::KeyReused(key)) => {
            anyhow::bail!("source {key} exists with other content than session chunk")
        }
        Err(StoreError::Graph(e)) => return Err(e.into()),
    };
    if !sessions.mark_posted(chunk, intake.clock.now()).await? {
        return Ok(Posted::AlreadyPosted);
    }
    Ok(outcome)
}

/// Posts every chunk of one session still unposted (the one just claimed, and any a
/// crash left), oldest first. Returns the chunks, as they now stand. A chunk that
/// cannot be posted now is logged and left for later.
pub async fn post_session(
    sessions: &Sessions,
    intake: Intake<'_>,
    graph_user_id: &str,
    session_id: &str,
    request_id: Option<String>,
) -> anyhow::Result<Vec<Chunk>> {
    for chunk in sessions.chunks(graph_user_id, session_id).await? {
        if chunk.posted_at.is_none()
            && let Err(e) = post_chunk(sessions, intake, &chunk, request_id.clone()).await
        {
            tracing::warn!(source_key = %chunk.source_key, error = %format!("{e:#}"),
                "a session chunk could not be posted; it will be posted later");
        }
    }
    Ok(sessions.chunks(graph_user_id, session_id).await?)
}

/// Posts the chunks of any session claimed before `before` and still unposted, at most
/// `limit`; returns how many were posted now. Run when an API process starts and by the
/// reconciler.
pub async fn post_unposted(
    sessions: &Sessions,
    intake: Intake<'_>,
    before: chrono::DateTime<chrono::Utc>,
    limit: usize,
) -> anyhow::Result<usize> {
    let mut posted = 0;
    for chunk in sessions.unposted(before, limit as i64).await? {
        match post_chunk(sessions, intake, &chunk, None).await {
            Ok(Posted::Stored | Posted::StoredNotQueued) => posted += 1,
            Ok(Posted::AlreadyPosted) => {}
            Err(e) => tracing::warn!(source_key = %chunk.source_key, error = %format!("{e:#}"),
                "a session chunk could not be posted"),
        }
    }
    Ok(posted)
}

#[cfg(test)]
mod tests {
    use chrono::{DateTime, Utc};

    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        s.parse().unwrap()
    }

    #[test]
    fn a_chunk_is_a_transcript_post_sources_accepts_under_its_claimed_key() {
        let chunk = Chunk {
            graph_user_id: "acme/alex".into(),
            session_id: "chat-1".into(),
            first_seq: 12,
            last_seq: 13,
            source_key: cosmo_shared::sessions::source_key("acme/alex", "chat-1", 12),
            claimed_at: at("2026-03-02T10:00:00Z"),
            posted_at: None,
        };
        let turns = [
            Turn {
                seq: 12,
                speaker: "user".into(),
                text: "Priya moved the launch to May.".into(),
                spoken_at: at("2026-03-02T09:05:00.250Z"),
            },
            Turn {
                seq: 13,
                speaker: "assistant".into(),
                text: "Noted: May.".into(),
                spoken_at: at("2026-03-02T09:01:00Z"),
            },
        ];
        let input = SourceInput::parse(source_body("acme/alex", "chat-1", &chunk, &turns)).unwrap();
        assert_eq!(input.user_id, "alex");
        assert_eq!(input.started_at, Some(at("2026-03-02T09:01:00Z")));
        assert_eq!(input.ended_at, Some(at("2026-03-02T09:05:00.250Z")));
        let cosmo_shared::domain::raw::RawContent::Transcript(t) = &input.parsed else {
            panic!("a transcript: {:?}", input.parsed)
        };
        let said: Vec<(&str, &str)> = t
            .turns
            .iter()
            .map(|t| (t.speaker.as_deref().unwrap(), t.text.as_str()))
            .collect();
        assert_eq!(
            said,
            [
                ("user", "Priya moved the launch to May."),
                ("assistant", "Noted: May.")
            ]
        );
        let owner = [input.user_id.clone()];
        let new = input
            .with_graph_user_ids(&owner, &["acme/alex".to_owned()])
            .into_new_source(None, at("2026-03-02T10:00:00Z"));
        assert_eq!(new.entity_key, chunk.source_key);
        // The same turns give the same Source: a repeated post is a duplicate.
        let again = SourceInput::parse(source_body("acme/alex", "chat-1", &chunk, &turns)).unwrap();
        assert_eq!(again.content_hash, new.content_hash);
    }
}
