//! Sample Sources of every type, each `raw_content` in its type's shape (docs/api.md,
//! "`raw_content` by source type"), with enough substance that the offline model finds
//! people, concepts and entities in them.

use serde_json::{Value, json};

/// A product-planning meeting between Alex Johnson (the owner), Sarah Chen and Priya
/// Patel, as a JSONL transcript.
pub fn meeting_transcript() -> String {
    let turns = [
        (
            "Alex Johnson",
            "Um, okay, let's start. Sarah, can you give us the update on the Acme Corp deal?",
        ),
        (
            "Sarah Chen",
            "Sure. Acme Corp signed the pilot last week, and uh they want the launch in Berlin by March.",
        ),
        (
            "Priya Patel",
            "The hiring plan is the blocker. We need two more engineers before the Berlin launch.",
        ),
        (
            "Alex Johnson",
            "Priya, you you own the hiring plan. What do you need from me?",
        ),
        (
            "Priya Patel",
            "I need budget approval for the hiring plan by Friday, and Sarah should interview candidates too.",
        ),
        (
            "Sarah Chen",
            "I can interview candidates next week. Acme Corp also asked for a security review.",
        ),
        (
            "Alex Johnson",
            "Okay. Sarah Chen leads the Acme Corp relationship and the security review.",
        ),
        (
            "Priya Patel",
            "I'll share the hiring plan draft with Sarah tomorrow.",
        ),
        (
            "Sarah Chen",
            "Great, and I'll send Acme Corp the launch timeline for Berlin.",
        ),
    ];
    turns
        .iter()
        .map(|(speaker, text)| json!({ "speaker": speaker, "text": text }).to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

pub fn meeting(user_id: &str) -> Value {
    json!({
        "user_id": user_id,
        "source_type": "meeting",
        "context_type": "work",
        "started_at": "2026-11-02T09:00:00Z",
        "ended_at": "2026-11-02T09:45:00Z",
        "provenance": { "origin": "assemblyai", "confidence": 0.95 },
        "raw_content": { "title": "Acme launch sync", "content": meeting_transcript() }
    })
}

pub fn conversation(user_id: &str) -> Value {
    let transcript = [
        json!({"speaker": "Alex Johnson", "text": "I talked to Maria Lopez about the marathon training plan."}),
        json!({"speaker": "Jordan Lee", "text": "How is Maria Lopez doing with the marathon training?"}),
        json!({"speaker": "Alex Johnson", "text": "Maria Lopez runs every morning now. The marathon is in Chicago in October."}),
        json!({"speaker": "Jordan Lee", "text": "Maria Lopez should rest more. Marathon training is hard on the knees."}),
    ]
    .iter()
    .map(Value::to_string)
    .collect::<Vec<_>>()
    .join("\n");
    json!({ "user_id": user_id, "source_type": "conversation", "raw_content": { "content": transcript } })
}

pub fn voice_memo(user_id: &str) -> Value {
    json!({
        "user_id": user_id,
        "source_type": "voice-memo",
        "raw_content": { "content": "Um, reminder to self. I need to call Dr. Emily Stone about the knee injury. \
            Emily Stone said the knee injury needs two weeks of rest. I should ask Emily Stone about physiotherapy \
            for the knee injury too." }
    })
}

pub fn email(user_id: &str) -> Value {
    json!({
        "user_id": user_id,
        "source_type": "email",
        "raw_content": {
            "from": "Sarah Chen <sarah@acme.example>",
            "to": ["alex@example.com"],
            "subject": "Acme Corp security review",
            "body": "Hi Alex,\n\nAcme Corp needs the security review done before the Berlin launch. \
                     I will coordinate the security review with Priya Patel. Priya Patel owns the hiring plan, \
                     so the security review may slip a week.\n\nBest regards,\nSarah\n\n\
                     On Mon, Nov 2, 2026 at 9:00 AM Alex Johnson <alex@example.com> wrote:\n> Any news from Acme?",
            "headers": { "Message-ID": "<abc@acme.example>" }
        }
    })
}

pub fn slack_thread(user_id: &str) -> Value {
    json!({
        "user_id": user_id,
        "source_type": "slack-thread",
        "raw_content": {
            "channel": "launch",
            "messages": [
                { "user": "Priya Patel", "text": "The Berlin launch checklist is ready.", "ts": "1730538000.000100" },
                { "user": "Sarah Chen", "text": "Thanks Priya Patel, Acme Corp approved the Berlin launch checklist.", "ts": "1730538060.000200" },
                { "user": "Priya Patel", "text": "The launch checklist still needs the security review from Acme Corp.", "ts": "1730538120.000300" }
            ]
        }
    })
}

pub fn text_note(user_id: &str) -> Value {
    json!({
        "user_id": user_id,
        "source_type": "text-note",
        "raw_content": { "title": "Garden", "content": "Planted tomatoes in the garden. The tomatoes need water every day. \
            Next year the garden gets a greenhouse for the tomatoes." }
    })
}

/// One Source of every type, with the type's name.
pub fn every_type(user_id: &str) -> Vec<(&'static str, Value)> {
    vec![
        ("conversation", conversation(user_id)),
        ("meeting", meeting(user_id)),
        ("voice-memo", voice_memo(user_id)),
        ("email", email(user_id)),
        ("slack-thread", slack_thread(user_id)),
        ("text-note", text_note(user_id)),
    ]
}

/// A team meeting owned by `owner` with the given participants.
pub fn team_meeting(owner: &str, participants: &[&str]) -> Value {
    let mut body = meeting(owner);
    body["team_id"] = json!("team-launch");
    body["participants"] = json!(participants);
    body
}
