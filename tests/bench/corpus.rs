//! The text the benchmarks write: a fixed vocabulary of topics, people and verbs, short
//! summaries for seeded Sources, and whole `POST /api/sources` bodies of four types
//! (meeting, email, conversation, note), each one distinct.

use serde_json::{Value, json};

pub const TOPICS: &[&str] = &[
    "hiring plan",
    "budget review",
    "vendor contract",
    "security audit",
    "launch checklist",
    "pricing decision",
    "quarterly roadmap",
    "customer churn",
    "office move",
    "team offsite",
    "data migration",
    "incident review",
    "sales pipeline",
    "design review",
    "onboarding",
    "compliance training",
    "cloud costs",
    "mobile release",
    "board meeting",
    "user research",
];
pub const PEOPLE: &[&str] = &[
    "Sarah Chen",
    "Priya Patel",
    "Tom Becker",
    "Ana Souza",
    "Wei Zhang",
    "Omar Haddad",
    "Lena Fischer",
    "Kofi Mensah",
    "Maria Rossi",
    "Jonas Berg",
    "Aiko Tanaka",
    "Diego Ruiz",
];
pub const VERBS: &[&str] = &[
    "discussed",
    "reviewed",
    "postponed",
    "approved",
    "questioned",
    "summarised",
    "planned",
];

/// A summary that differs from its neighbours in topic, people and wording.
pub fn summary(i: usize) -> String {
    let t = TOPICS[i % TOPICS.len()];
    let a = PEOPLE[(i / TOPICS.len()) % PEOPLE.len()];
    let b = PEOPLE[(i / 7 + 3) % PEOPLE.len()];
    let v = VERBS[(i / 11) % VERBS.len()];
    format!(
        "{a} and {b} {v} the {t} (item {i}); next steps agreed for week {}.",
        i % 52
    )
}

/// The `i`-th Source body for `user_id`: a meeting transcript, an email, a conversation
/// or a note (in turn), 0.5–1.5 KB, never the same content twice.
pub fn source_body(i: usize, user_id: &str) -> Value {
    let topic = TOPICS[i % TOPICS.len()];
    let other = TOPICS[(i / 3 + 7) % TOPICS.len()];
    let a = PEOPLE[(i / TOPICS.len()) % PEOPLE.len()];
    let b = PEOPLE[(i / 5 + 4) % PEOPLE.len()];
    let verb = VERBS[(i / 11) % VERBS.len()];
    let day = 1 + i % 28;
    let started_at = format!("2026-10-{day:02}T{:02}:{:02}:00Z", 8 + i % 10, i % 60);
    match i % 4 {
        0 => {
            let turns = [
                (
                    a,
                    format!("Okay, let's start. Item {i}: where are we on the {topic}?"),
                ),
                (
                    b,
                    format!("We {verb} the {topic} on Monday; the draft is in the shared folder."),
                ),
                (a, format!("Good. What blocks the {other}?")),
                (
                    b,
                    format!(
                        "Mostly the {topic}. {a} should sign off before week {}.",
                        i % 52
                    ),
                ),
                (
                    a,
                    format!(
                        "I'll sign off on the {topic} by Friday and loop in the {other} owners."
                    ),
                ),
                (
                    b,
                    "Great, I'll send the notes to everyone after this call.".to_owned(),
                ),
            ];
            let transcript = turns
                .iter()
                .map(|(speaker, text)| json!({ "speaker": speaker, "text": text }).to_string())
                .collect::<Vec<_>>()
                .join("\n");
            json!({
                "user_id": user_id,
                "source_type": "meeting",
                "context_type": "work",
                "started_at": started_at,
                "raw_content": { "title": format!("{topic} sync #{i}"), "content": transcript }
            })
        }
        1 => json!({
            "user_id": user_id,
            "source_type": "email",
            "started_at": started_at,
            "raw_content": {
                "from": format!("{a} <{}@example.com>", a.to_lowercase().replace(' ', ".")),
                "to": [format!("{user_id}@example.com")],
                "subject": format!("Re: {topic} ({i})"),
                "body": format!(
                    "Hi,\n\nwe {verb} the {topic} today. {b} will take over the {other} next week, \
                     and the numbers for the {topic} go to finance by week {}.\n\nBest,\n{a}",
                    i % 52
                )
            }
        }),
        2 => {
            let transcript = [
                json!({ "speaker": a, "text": format!("Did you see what {b} wrote about the {topic}?") }),
                json!({ "speaker": b, "text": format!("Yes, we {verb} it; the {other} depends on it (ref {i}).") }),
                json!({ "speaker": a, "text": format!("Then let's keep the {topic} on the agenda for week {}.", i % 52) }),
            ]
            .iter()
            .map(Value::to_string)
            .collect::<Vec<_>>()
            .join("\n");
            json!({
                "user_id": user_id,
                "source_type": "conversation",
                "started_at": started_at,
                "raw_content": { "content": transcript }
            })
        }
        _ => json!({
            "user_id": user_id,
            "source_type": "text-note",
            "started_at": started_at,
            "raw_content": {
                "title": format!("Note {i}"),
                "content": format!("{}. Remember to ask {b} about the {other}.", summary(i))
            }
        }),
    }
}
