//! A hand-checked sample of real-looking text: an email, a Slack thread and a meeting
//! transcript, written as people write them (not to the extractor's cues), each with
//! the gold list a reader would file. Gold holds each person and thing named or referred
//! to in at least three sentences (the pipeline's filter keeps nothing told in fewer);
//! names in passing are on the ignore list, right or wrong either way.

use cosmo_shared::domain::SourceType;
use cosmo_shared::domain::raw::{Email, RawContent, SlackMessage, SlackThread, Transcript, Turn};

use super::{Doc, Gold, GoldEntity, GoldPerson};

const EMAIL_BODY: &str = "\
Hi Marcus,

Quick update before Thursday. I spoke with Elena Petrova at Corvane Logistics yesterday and \
she confirmed they can handle the freight for the offsite. Elena also asked whether we still \
want the Friday workshop at the Ribeira venue.

Priya from finance approved the budget, but she wants the final numbers by the 14th. Can you \
send her the catering quotes? Priya mentioned that we usually book through Tessellate Travel, \
so maybe loop them in.

Flights to Porto are cheaper if we book this week. The hotel in Porto holds the rooms until \
Monday. Corvane Logistics will ship the equipment to Porto on the 10th, and Corvane quoted \
less than last year.

On the reading list: everyone liked Thinking in Systems last time, so I ordered copies for \
the new hires. Elena said her team read it too.

Also, Jonah Reyes is joining us from Brightpath as the new ops lead on Monday. Jonah will sit \
with the offsite planning group for his first week, and I've asked Jonah to review the \
vendor shortlist.

Thanks,
Dana";

fn email() -> Doc {
    Doc {
        label: "sample email".into(),
        source_type: SourceType::Email,
        raw: RawContent::Email(Email {
            from: "Dana Whitfield <dana@harborline.io>".into(),
            to: vec!["Marcus Ortega <marcus@harborline.io>".into()],
            cc: vec![],
            subject: "Offsite in Porto + vendor shortlist".into(),
            body: EMAIL_BODY.into(),
            headers: vec![],
        }),
        owner: Some("Marcus Ortega".into()),
        gold: Gold {
            people: vec![
                person("Dana Whitfield", &["Dana"]),
                person("Elena Petrova", &["Elena"]),
                person("Priya", &[]),
            ],
            entities: vec![entity("Porto", "place")],
            // Named in two sentences each: Jonah Reyes, Corvane Logistics.
            ignore: names(
                "Marcus|Marcus Ortega|Jonah Reyes|Jonah|Corvane Logistics|Corvane|Ribeira|\
                 Tessellate Travel|Thinking in Systems|Brightpath",
            ),
        },
    }
}

const SLACK: &[(&str, &str)] = &[
    (
        "Maya Lopez",
        "Morning all! Quick check on the Atlas beta. Are we still on for Tuesday?",
    ),
    (
        "Raj Malhotra",
        "Yes. Ingrid finished the migration last night, so Atlas is running on the new cluster.",
    ),
    (
        "Maya Lopez",
        "Amazing, thanks Raj! Did Ingrid see the alert from Datadog?",
    ),
    (
        "Raj Malhotra",
        "She did. Ingrid says it was a false alarm from the Frankfurt region.",
    ),
    (
        "Sven Larsen",
        "Heads up: Northbeam wants a demo of Atlas before they sign. Their CTO, Amara Obi, will \
         join the call.",
    ),
    ("Maya Lopez", "Great. Sven, can you send Amara the deck?"),
    (
        "Sven Larsen",
        "Will do. Amara also asked whether we support SSO through Okta.",
    ),
    (
        "Raj Malhotra",
        "We do, it shipped in 2.3. I'll add a slide for Amara.",
    ),
    (
        "Maya Lopez",
        "Perfect. Let's do the Northbeam demo Thursday at 10. I'll book the big room in the \
         Frankfurt office.",
    ),
    (
        "Sven Larsen",
        "Sounds good. Northbeam's team is in Frankfurt too, so they might come in person.",
    ),
    (
        "Raj Malhotra",
        "Nice. Ingrid can run the demo, she knows Atlas best.",
    ),
];

fn slack() -> Doc {
    let messages = SLACK
        .iter()
        .enumerate()
        .map(|(i, (user, text))| SlackMessage {
            user: (*user).into(),
            text: (*text).into(),
            ts: Some(format!("17000000{i:02}.000100")),
        })
        .collect();
    Doc {
        label: "sample slack".into(),
        source_type: SourceType::SlackThread,
        raw: RawContent::Slack(SlackThread {
            channel: "launch-planning".into(),
            messages,
        }),
        owner: Some("Maya Lopez".into()),
        gold: Gold {
            people: vec![
                person("Maya Lopez", &[]),
                person("Raj Malhotra", &["Raj"]),
                person("Sven Larsen", &["Sven"]),
                person("Ingrid", &[]),
                person("Amara Obi", &["Amara"]),
            ],
            entities: vec![
                entity("Atlas", "product"),
                entity("Northbeam", "organization"),
                entity("Frankfurt", "place"),
            ],
            ignore: names("Datadog|Okta|SSO|CTO"),
        },
    }
}

const MEETING: &[(&str, &str)] = &[
    (
        "Laura Kim",
        "Okay, let's start. Dev, you had the update on the Lisbon hub?",
    ),
    (
        "Devendra Rao",
        "Yes. We signed the lease in Lisbon last week. The office opens in September.",
    ),
    ("Laura Kim", "Great. Who's leading it?"),
    (
        "Devendra Rao",
        "Hugo Martins. He was at Feedzai before, and he knows the Lisbon market well.",
    ),
    (
        "Tomás Silva",
        "I interviewed Hugo twice. Strong on hiring, a bit light on budgeting.",
    ),
    (
        "Laura Kim",
        "Noted. Tomás, can you pair him with finance for the first quarter?",
    ),
    (
        "Tomás Silva",
        "Sure. I'll set something up with Wen from finance.",
    ),
    (
        "Devendra Rao",
        "Also, Wen asked for the headcount plan by Friday.",
    ),
    (
        "Laura Kim",
        "Right. Dev, send Wen the plan once Hugo signs off.",
    ),
    (
        "Tomás Silva",
        "One more thing, the recruiting agency, Talentbridge, sent over six profiles.",
    ),
    (
        "Devendra Rao",
        "Were any of them from the Porto Tech Summit list?",
    ),
    (
        "Tomás Silva",
        "Two. Talentbridge met them at the summit. I'll forward the profiles to Hugo. \
         Talentbridge charges a flat fee, so the cost is fine.",
    ),
    ("Laura Kim", "Good. Let's wrap up. Thanks everyone."),
];

fn meeting() -> Doc {
    let turns = MEETING
        .iter()
        .map(|(speaker, text)| Turn {
            speaker: Some((*speaker).into()),
            text: (*text).into(),
            timestamp: None,
        })
        .collect();
    Doc {
        label: "sample meeting".into(),
        source_type: SourceType::Meeting,
        raw: RawContent::Transcript(Transcript {
            title: Some("Q3 hiring sync".into()),
            turns,
        }),
        owner: Some("Laura Kim".into()),
        gold: Gold {
            people: vec![
                person("Laura Kim", &[]),
                person("Devendra Rao", &["Dev"]),
                person("Tomás Silva", &["Tomás"]),
                person("Hugo Martins", &["Hugo"]),
                person("Wen", &[]),
            ],
            entities: vec![
                entity("Lisbon", "place"),
                entity("Talentbridge", "organization"),
            ],
            ignore: names("Feedzai|Porto Tech Summit|Porto"),
        },
    }
}

pub fn docs() -> Vec<Doc> {
    vec![email(), slack(), meeting()]
}

pub fn person(name: &str, aliases: &[&str]) -> GoldPerson {
    GoldPerson {
        name: name.into(),
        aliases: aliases.iter().map(|a| (*a).to_owned()).collect(),
    }
}

pub fn entity(name: &str, entity_type: &'static str) -> GoldEntity {
    GoldEntity {
        name: name.into(),
        entity_type,
    }
}

pub fn names(list: &str) -> Vec<String> {
    list.split('|').map(str::to_owned).collect()
}
