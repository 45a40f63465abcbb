//! The offline model end to end on realistic input: render → clean → describe →
//! extract → filter (as the pipeline does) → take notes. The fixtures live here; the
//! meeting tests in [`meeting`], the voice-memo tests in [`memo`].

use super::*;
use crate::cleanup;
use cosmo_core::domain::NodeKind;
use cosmo_core::domain::raw::{RawContent, Transcript, Turn};

const MEETING: &str = "\
Alex Johnson: Okay, um, let's get started. Thanks everyone for joining on Monday morning.\n\
Sarah Chen: Thanks Alex. So, uh, the the main topic is the Acme Corp pilot.\n\
Sarah Chen: Acme Corp signed the pilot contract last week and they want the launch \
    in Berlin by March.\n\
Priya Patel: I I think Berlin is doable, you know, if the hiring plan holds.\n\
Alex Johnson: Right. Sarah, where are we on the hiring plan?\n\
Sarah Chen: The hiring plan has three open roles. We need two backend engineers and one designer.\n\
Sarah Chen: I talked to Acme Corp yesterday and they, um, they asked for a dedicated \
    support engineer too.\n\
Priya Patel: Yesterday I reviewed the quarterly budget.\n\
Priya Patel: The quarterly budget covers the hiring plan but not the Berlin office.\n\
Alex Johnson: Hmm, so the quarterly budget is the real constraint.\n\
Sarah Chen: Like, we could delay the designer role until the launch.\n\
Priya Patel: Uh, I'd rather not. The Berlin launch needs a designer for the local marketing.\n\
Alex Johnson: Priya, can you work with Sarah on a revised hiring plan by Friday?\n\
Priya Patel: Sure. Sarah and I will work together on it tomorrow.\n\
Sarah Chen: Sounds good. I'll also ask Tom Becker from Acme Corp about their launch timeline.\n\
Priya Patel: Tom Becker mentioned a press event in Berlin last time.\n\
Sarah Chen: He also said their team prefers a soft launch.\n\
Alex Johnson: The quarterly budget review is next Tuesday, so let's, um, lock the numbers \
    before then.\n\
Priya Patel: I'll send the updated quarterly budget to everyone tonight.\n\
Sarah Chen: Great. Yesterday Acme Corp also asked about pricing for the second phase.\n\
Alex Johnson: Let's keep pricing out of scope until the pilot is live.\n\
Priya Patel: Agreed. I'm excited about Berlin, honestly.\n\
Alex Johnson: Okay, thanks everyone. Same time next Monday.";

fn meeting() -> RawContent {
    let turns = MEETING
        .lines()
        .map(|line| {
            let (speaker, text) = line.split_once(": ").expect("Speaker: text");
            Turn {
                speaker: Some(speaker.to_owned()),
                text: text.to_owned(),
                timestamp: None,
            }
        })
        .collect();
    RawContent::Transcript(Transcript {
        title: Some("Berlin launch planning".into()),
        turns,
    })
}

fn context(raw: &RawContent) -> ExtractionContext {
    ExtractionContext {
        source_type: Some(SourceType::Meeting),
        owner_name: Some("Alex Johnson".into()),
        speakers: cleanup::speakers(raw),
    }
}

fn cleaned() -> String {
    clean::clean_transcript(&cleanup::render(&meeting()))
}

fn kept(entities: &[ExtractedEntity]) -> Vec<ExtractedEntity> {
    entities
        .iter()
        .filter(|e| e.confidence >= 7.0 && e.subpoints.len() > 2)
        .cloned()
        .collect()
}

fn find<'a>(entities: &'a [ExtractedEntity], name: &str) -> Option<&'a ExtractedEntity> {
    entities.iter().find(|e| e.name == name)
}

mod chat;
mod meeting;
mod memo;

#[tokio::test]
async fn the_traits_are_deterministic_and_report_usage() {
    let model = OfflineModel::new(128);
    let raw = meeting();
    let transcript = cleanup::render(&raw);
    let ctx = context(&raw);
    let run = || async {
        let cleaned = model.clean_transcript(&transcript).await.unwrap();
        let facts = model
            .describe(SourceType::Meeting, &cleaned.value)
            .await
            .unwrap();
        let entities = model.extract(&cleaned.value, &ctx).await.unwrap();
        let actions = model
            .take_notes(&cleaned.value, &entities.value, &ctx)
            .await
            .unwrap();
        let summary = model
            .summarize(
                SummaryTask::Storyline,
                None,
                std::slice::from_ref(&facts.value.summary),
            )
            .await
            .unwrap();
        let vectors = model
            .embed(&[facts.value.summary.clone(), String::new()])
            .await
            .unwrap();
        (cleaned, facts, entities, actions, summary, vectors)
    };
    let first = run().await;
    let second = run().await;
    assert_eq!(format!("{first:?}"), format!("{second:?}"));
    let (cleaned, _, entities, _, summary, vectors) = first;
    assert_eq!(
        (
            cleaned.usage.provider.as_str(),
            cleaned.usage.model.as_str()
        ),
        ("offline", "offline-extractive-v1")
    );
    assert!(cleaned.usage.prompt_tokens > 0 && entities.usage.completion_tokens > 0);
    assert!(!summary.value.is_empty());
    assert_eq!(model.dimensions(), 128);
    assert!(vectors.value.iter().all(|v| v.len() == 128));
}

#[test]
fn odd_input_never_panics_and_keeps_the_contracts() {
    let inputs = [
        "",
        " \n\n",
        "!!!",
        "İstanbul İİ-İİ ümlaut. ÇA-ÇA?",
        "I I I I",
        "um uh hmm",
        "ALL CAPS SHOUTING ABOUT NASA AND IBM AT GOOGLE!!!",
        "Mr. . Dr. ... e.g. i.e. etc. vs. U.S.A. J. K.",
        "[00:01] : : :\n:::\nSarah: \n: hi",
        "#\n#chan\n[1] u: <@U1|x> <https://a|b>",
        "’’’ ’s 's — Hello—world…  done?! Yes!!",
        "Title:\nSubject:\nFrom:\nTo:",
        "The the the the. And and. 🙂 emoji 🙂 test 🙂.",
        "x-x-x y- -z Dr.Lee met Ms.Wong at St.Paul's Cathedral in St. Louis.",
    ];
    let tasks = [
        SummaryTask::Storyline,
        SummaryTask::Macro,
        SummaryTask::NodeDescription,
        SummaryTask::RelationshipDescription,
        SummaryTask::Insight,
    ];
    for input in inputs {
        let cleaned = clean::clean_transcript(input);
        for source_type in SourceType::ALL {
            let facts = describe::describe(*source_type, input);
            assert!(
                (3..=5).contains(&facts.tags.len()),
                "{input:?}: {:?}",
                facts.tags
            );
            let ctx = ExtractionContext {
                source_type: Some(*source_type),
                owner_name: Some("İlker Çelik".into()),
                speakers: vec!["Sarah".into(), String::new()],
            };
            for text in [input, cleaned.as_str()] {
                let entities = extract::extract(text, &ctx);
                assert!(
                    entities
                        .iter()
                        .all(|e| (0.0..=10.0).contains(&e.confidence))
                );
                notes::take_notes(text, &entities, &ctx);
            }
        }
        for task in tasks {
            let out = summarize::summarize(task, Some(input), &[input.to_owned(), cleaned.clone()]);
            assert!(input.trim().is_empty() || !out.is_empty(), "{input:?}");
        }
        let norm = embed::embed(input, 16)
            .iter()
            .map(|x| x * x)
            .sum::<f32>()
            .sqrt();
        assert!((norm - 1.0).abs() < 1e-5, "{input:?}");
    }
}

/// A long input is worked on in the blocking pool: other tasks of the runtime (in the
/// embedded default, the API's requests) go on meanwhile. On a one-thread runtime the
/// task spawned before the call can only have run if the call let go of the thread.
#[tokio::test(flavor = "current_thread")]
async fn a_long_input_leaves_the_runtime_to_other_tasks() {
    let model = OfflineModel::new(64);
    let long = MEETING.repeat(1 + 2 * INLINE_MAX / MEETING.len());
    for short in [false, true] {
        let input = if short {
            MEETING.to_owned()
        } else {
            long.clone()
        };
        let other_ran = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = other_ran.clone();
        tokio::spawn(async move { flag.store(true, std::sync::atomic::Ordering::SeqCst) });
        let entities = model
            .extract(&input, &ExtractionContext::default())
            .await
            .unwrap();
        assert!(!entities.value.is_empty());
        assert_eq!(
            other_ran.load(std::sync::atomic::Ordering::SeqCst),
            !short,
            "short input: {short}"
        );
        tokio::task::yield_now().await;
    }
}
