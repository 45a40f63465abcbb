//! Metadata tags without a model: cue words from a small lexicon vote for tags such as
//! `hiring` or `finance`; the source type and per-type fallbacks make sure there are
//! always three to five.

use std::collections::HashMap;
use std::sync::LazyLock;

use super::text::{self, Sentence};
use cosmo_core::domain::SourceType;

/// Cue words behind the metadata tags, in the order ties are broken.
pub const TAG_CUES: &[(&str, &str)] = &[
    (
        "work",
        "work project projects client clients office colleague colleagues manager boss deliverable \
            deliverables roadmap stakeholder stakeholders company team",
    ),
    (
        "meeting",
        "meeting meetings sync standup agenda call calls discussed minutes attendees",
    ),
    (
        "planning",
        "plan plans planning roadmap schedule timeline milestone milestones strategy priorities \
            prioritize goals quarter quarterly next",
    ),
    (
        "decision",
        "decided decide decision decisions agreed approve approved approval conclusion go-ahead \
            sign-off",
    ),
    (
        "deadline",
        "deadline deadlines due eod eow asap urgent overdue",
    ),
    (
        "hiring",
        "hiring hire hired hires recruit recruiting recruiter candidate candidates interview \
            interviews onboarding headcount roles",
    ),
    (
        "product",
        "product products launch launches launched feature features release releases roadmap \
            customers users pilot beta",
    ),
    (
        "engineering",
        "engineering engineer engineers code bug bugs deploy deployment backend frontend api \
            infrastructure architecture database server tests migration migrations backup outage \
            incident schema query staging production refactor repo postgres kubernetes",
    ),
    (
        "sales",
        "sales deal deals revenue pipeline prospect prospects contract contracts pricing quota \
            signed renewal",
    ),
    (
        "marketing",
        "marketing campaign campaigns brand launch social ads seo audience newsletter",
    ),
    (
        "finance",
        "budget budgets cost costs money invoice invoices payment payments expense expenses salary \
            tax taxes funding investment bank loan finance financial spend",
    ),
    (
        "personal",
        "personal myself feel feeling home weekend birthday hobby",
    ),
    (
        "family",
        "family mom dad mother father sister brother wife husband kids children son daughter \
            parents grandma grandpa",
    ),
    (
        "health",
        "health doctor appointment sick illness hospital medication allergic allergy exercise gym \
            workout diet sleep therapy",
    ),
    (
        "travel",
        "travel trip trips flight flights hotel vacation holiday visit visiting airport itinerary \
            abroad",
    ),
    (
        "learning",
        "learn learning course courses study studying book books reading class training tutorial \
            research",
    ),
    (
        "social",
        "party dinner friends friend drinks birthday wedding hangout lunch",
    ),
    (
        "customer",
        "customer customers client clients support feedback complaint ticket tickets",
    ),
    (
        "design",
        "design designer designs mockup mockups prototype ux ui wireframe",
    ),
    (
        "legal",
        "legal contract lawyer compliance gdpr privacy policy terms",
    ),
];

/// Cue word → indices into [`TAG_CUES`].
static CUE_INDEX: LazyLock<HashMap<&'static str, Vec<usize>>> = LazyLock::new(|| {
    let mut index: HashMap<&'static str, Vec<usize>> = HashMap::new();
    for (i, (_, cues)) in TAG_CUES.iter().enumerate() {
        for cue in cues.split_whitespace() {
            index.entry(cue).or_default().push(i);
        }
    }
    index
});

/// Up to four lexicon tags by cue count, then the source type, then per-type fallbacks
/// so there are always three to five.
pub fn tags(source_type: SourceType, sentences: &[Sentence]) -> Vec<String> {
    let mut hits = vec![0usize; TAG_CUES.len()];
    let mut total = 0;
    for sentence in sentences {
        for token in text::tokens(&sentence.text) {
            total += 1;
            if let Some(tags) = CUE_INDEX.get(text::norm(token.text).as_str()) {
                for &t in tags {
                    hits[t] += 1;
                }
            }
        }
    }
    let min_hits = if total < 200 { 1 } else { 2 };
    let mut ranked: Vec<usize> = (0..TAG_CUES.len())
        .filter(|&i| hits[i] >= min_hits)
        .collect();
    ranked.sort_by(|&a, &b| hits[b].cmp(&hits[a]).then(a.cmp(&b)));
    let mut out: Vec<String> = ranked
        .into_iter()
        .take(4)
        .map(|i| TAG_CUES[i].0.to_owned())
        .collect();
    let fallbacks: &[&str] = match source_type {
        SourceType::Conversation => &["conversation", "discussion", "notes"],
        SourceType::Meeting => &["meeting", "work", "discussion"],
        SourceType::VoiceMemo => &["voice-memo", "personal", "notes"],
        SourceType::Email => &["email", "correspondence", "communication"],
        SourceType::SlackThread => &["slack-thread", "chat", "work"],
        SourceType::TextNote => &["text-note", "notes", "personal"],
    };
    for (i, tag) in fallbacks.iter().enumerate() {
        if (i == 0 || out.len() < 3) && out.len() < 5 && !out.iter().any(|t| t == tag) {
            out.push((*tag).to_owned());
        }
    }
    out
}
