//! A second hand-checked sample, written after the offline model's rules were tuned on
//! the generated corpus and [`super::sample`] and never tuned on: a catch-up chat
//! between two friends and a Slack welcome thread. The same gold rule: each person and
//! thing named or referred to in at least three sentences; names in passing ignored.

use cosmo_shared::domain::SourceType;
use cosmo_shared::domain::raw::{RawContent, SlackMessage, SlackThread, Transcript, Turn};

use super::sample::{entity, names, person};
use super::{Doc, Gold};

const CHAT: &[(&str, &str)] = &[
    ("Danielle", "Hey Marco! Long time no see. How's everything?"),
    (
        "Marco",
        "Danielle! Things are good. I just got back from Montreal, my sister Giulia lives there now.",
    ),
    ("Danielle", "Oh nice, how is Giulia doing?"),
    (
        "Marco",
        "She's great. Giulia started at Hydro-Québec in the spring and loves it.",
    ),
    (
        "Danielle",
        "That's awesome. Speaking of work, I finally quit Pinecrest Media.",
    ),
    ("Marco", "Whoa, really? What happened?"),
    (
        "Danielle",
        "Long story. My manager Trevor kept taking credit for my work. Trevor never listened to anyone.",
    ),
    ("Marco", "Ugh, Trevor sounds awful. Good for you, Dani."),
    (
        "Danielle",
        "Thanks Marco. I'm freelancing now, mostly design work for small bakeries.",
    ),
    ("Marco", "Love that. Are you still painting too?"),
    (
        "Danielle",
        "Yes! I'm doing a series inspired by The Secret Garden. I reread it last month.",
    ),
    (
        "Marco",
        "Such a classic. Giulia and I read The Secret Garden as kids.",
    ),
    (
        "Danielle",
        "Haha, I remember you telling me. How's Rocco, by the way?",
    ),
    (
        "Marco",
        "Rocco is getting old, but he still chases every squirrel in the park. Best dog ever.",
    ),
    ("Danielle", "Aww Rocco! Give him a belly rub from me."),
    (
        "Marco",
        "Will do. Oh, and Giulia says hi. She wants us to visit Montreal in the winter.",
    ),
    (
        "Danielle",
        "Montreal in winter sounds freezing, but I'm in. Maybe we can catch a Canadiens game.",
    ),
    ("Marco", "Deal. I'll ask Giulia about dates."),
    ("Danielle", "Perfect. Talk soon, Marco!"),
];

fn chat() -> Doc {
    let turns = CHAT
        .iter()
        .map(|(speaker, text)| Turn {
            speaker: Some((*speaker).into()),
            text: (*text).into(),
            timestamp: None,
        })
        .collect();
    Doc {
        label: "held-out chat".into(),
        source_type: SourceType::Conversation,
        raw: RawContent::Transcript(Transcript { title: None, turns }),
        owner: Some("Danielle".into()),
        gold: Gold {
            people: vec![
                person("Danielle", &["Dani"]),
                person("Marco", &[]),
                person("Giulia", &[]),
                person("Trevor", &[]),
            ],
            entities: vec![entity("Montreal", "place"), entity("Rocco", "pet")],
            ignore: names("Pinecrest Media|Hydro-Québec|Secret Garden|The Secret Garden|Canadiens"),
        },
    }
}

const SLACK: &[(&str, &str)] = &[
    (
        "Olu Adeyemi",
        "Welcome aboard, Beatriz! Beatriz joins us from Globant as our new data engineer.",
    ),
    ("Beatriz Costa", "Thanks Olu! Excited to be here."),
    (
        "Kai Tanaka",
        "Welcome Bea! You'll be working with me on the Meridian pipeline.",
    ),
    (
        "Beatriz Costa",
        "Sounds great, Kai. Is Meridian the reporting platform?",
    ),
    (
        "Kai Tanaka",
        "Yep. Meridian feeds every dashboard in the Toronto office.",
    ),
    (
        "Olu Adeyemi",
        "Bea, Farah from IT will set up your laptop tomorrow morning.",
    ),
    ("Beatriz Costa", "Perfect. Should I ping Farah directly?"),
    (
        "Olu Adeyemi",
        "Yes, Farah is usually in by 8. She sits next to the kitchen.",
    ),
    (
        "Kai Tanaka",
        "Also, the team lunch is Thursday at Nonna's on King Street.",
    ),
    (
        "Beatriz Costa",
        "Love it. I moved to Toronto last month, so I'm still learning the neighbourhoods.",
    ),
];

fn slack() -> Doc {
    let messages = SLACK
        .iter()
        .enumerate()
        .map(|(i, (user, text))| SlackMessage {
            user: (*user).into(),
            text: (*text).into(),
            ts: Some(format!("17100000{i:02}.000200")),
        })
        .collect();
    Doc {
        label: "held-out slack".into(),
        source_type: SourceType::SlackThread,
        raw: RawContent::Slack(SlackThread {
            channel: "general".into(),
            messages,
        }),
        owner: Some("Kai Tanaka".into()),
        gold: Gold {
            people: vec![
                person("Olu Adeyemi", &["Olu"]),
                person("Beatriz Costa", &["Beatriz", "Bea"]),
                person("Kai Tanaka", &["Kai"]),
                person("Farah", &[]),
            ],
            entities: vec![entity("Meridian", "product")],
            ignore: names("Globant|Toronto|Nonna|Nonna's|King Street|IT"),
        },
    }
}

pub fn docs() -> Vec<Doc> {
    vec![chat(), slack()]
}
