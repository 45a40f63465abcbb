//! What a query asks for — a reason (*why*), a time (*when*), a person (*who*), a thing
//! or a fact (*what*), or none of these (*general*). Explore reports it in `routing`
//! (`route.rs`); a *why* question also follows causal links (`chain.rs`). Other
//! strategies tried for *when* and *why* questions did not find more of their evidence
//! in `cosmo-bench retrieval` and were removed (docs/architecture.md, "Routing").
//!
//! Two readings, the surer first:
//! * **The question's form.** An interrogative among its first words decides: "why",
//!   "how come", "what made/caused/led" → why; "when", "what time/day/date/month/year",
//!   "which day…", "how long ago", "since when" → when; "who", "whom", "whose" → who;
//!   "what", "which", "where", "how", "tell me about", "describe" → what. Stated
//!   literally, the form is never wrong, and it costs nothing.
//! * **Similarity to exemplar questions**, with the configured embedder, when the query
//!   has no such form ("reasons we left Denver", "dog adoption date"): the query's
//!   embedding against a few exemplars per intent, nearest wins when it is clearly
//!   nearer than the next intent's. An embedder that does not tell intents apart is not
//!   asked: on first use the exemplars classify each other (leave one out), and unless
//!   at least [`INFORMATIVE`] of them come out right, the embedder's answers are not
//!   used. The offline embedder drops function words ("when", "why"), so it never is;
//!   a sentence model such as all-MiniLM-L6-v2 is.
//!
//! The exemplars are embedded once per process and embedder.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use serde::Serialize;

use crate::retrieval::Recall;

/// What a query asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Intent {
    Why,
    When,
    Who,
    What,
    General,
}

/// How the intent was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReadFrom {
    /// The question's interrogative.
    Form,
    /// The nearest exemplar question (the configured embedder).
    Exemplars,
    /// Neither said anything: general.
    Nothing,
}

/// Leave-one-out accuracy the exemplars must reach for an embedder to be asked.
pub const INFORMATIVE: f64 = 0.75;

/// How much nearer the best intent's exemplar must be than the next intent's (cosine).
const MARGIN: f32 = 0.03;

/// Exemplar questions per intent: varied subjects, so that what they share is the form.
const EXEMPLARS: &[(Intent, &str)] = &[
    (Intent::Why, "Why did she quit her job?"),
    (
        Intent::Why,
        "What was the reason they moved to another city?",
    ),
    (Intent::Why, "How come he stopped going to the gym?"),
    (Intent::Why, "What made them cancel the trip?"),
    (Intent::Why, "Why was the project delayed?"),
    (Intent::Why, "reason for selling the car"),
    (Intent::When, "When did she start her new job?"),
    (Intent::When, "What date was the wedding?"),
    (
        Intent::When,
        "When was the last time he visited his parents?",
    ),
    (Intent::When, "How long ago did they adopt the cat?"),
    (Intent::When, "What year did he graduate?"),
    (Intent::When, "date of the move"),
    (Intent::Who, "Who did she go hiking with?"),
    (Intent::Who, "Who is his manager?"),
    (Intent::Who, "Whose idea was the surprise party?"),
    (Intent::Who, "Who recommended the book to him?"),
    (Intent::Who, "Which friend helped them move?"),
    (Intent::Who, "the person who fixed the roof"),
    (Intent::What, "What is the name of her dog?"),
    (Intent::What, "What did he buy for the kitchen?"),
    (Intent::What, "Where did they go on vacation?"),
    (Intent::What, "What hobbies does she have?"),
    (Intent::What, "How much did the repair cost?"),
    (Intent::What, "list of books he read"),
];

/// A query's intent and how it was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Reading {
    pub intent: Intent,
    pub read_from: ReadFrom,
}

/// The intent of `text`, whose embedding (by the configured embedder) is `embedding`.
pub async fn read(r: &Recall<'_>, text: &str, embedding: &[f32]) -> Reading {
    if let Some(intent) = by_form(text) {
        return Reading {
            intent,
            read_from: ReadFrom::Form,
        };
    }
    // A query the embedder could not embed (it was unavailable) is not compared, and
    // the embedder is not asked for the exemplars.
    let by_exemplars = if embedding.is_empty() {
        None
    } else {
        exemplars(r).await.and_then(|ex| ex.nearest(embedding))
    };
    match by_exemplars {
        Some(intent) => Reading {
            intent,
            read_from: ReadFrom::Exemplars,
        },
        None => Reading {
            intent: Intent::General,
            read_from: ReadFrom::Nothing,
        },
    }
}

/// The intent the question's form states, if any.
pub fn by_form(text: &str) -> Option<Intent> {
    let words: Vec<String> = text
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .take(8)
        .map(str::to_lowercase)
        .collect();
    // Polite or conversational lead-ins before the question proper.
    let lead = [
        "so",
        "and",
        "ok",
        "okay",
        "hey",
        "hi",
        "please",
        "remind",
        "me",
        "tell",
        "can",
        "could",
        "you",
        "do",
        "know",
        "remember",
        "i",
        "wonder",
        "wondering",
        "um",
        "quick",
        "question",
    ];
    let start = words
        .iter()
        .position(|w| !lead.contains(&w.as_str()) || w == "tell")
        .unwrap_or(words.len());
    let w = |i: usize| words.get(start + i).map_or("", String::as_str);
    let time_nouns = [
        "time", "date", "day", "days", "month", "year", "week", "weekend", "season",
    ];
    let asked = match w(0) {
        "why" => Intent::Why,
        "how" if w(1) == "come" => Intent::Why,
        "how" if w(1) == "long" && w(2) == "ago" => Intent::When,
        "when" | "when's" => Intent::When,
        "since" | "until" if w(1) == "when" => Intent::When,
        "who" | "whom" | "whose" | "who's" => Intent::Who,
        "with" | "by" | "for" if w(1) == "whom" || w(1) == "who" => Intent::Who,
        "what" | "which" if time_nouns.contains(&w(1)) => Intent::When,
        "what" if ["made", "caused", "led", "prompted", "motivated"].contains(&w(1)) => Intent::Why,
        "what" if w(1) == "was" && w(3) == "reason" => Intent::Why,
        "what's" | "what" | "which" | "where" | "where's" | "how" => Intent::What,
        "tell" if w(1) == "me" && w(2) == "about" => Intent::What,
        "describe" | "list" => Intent::What,
        _ => return None,
    };
    Some(asked)
}

/// The exemplars embedded by one embedder, and whether it tells intents apart.
struct Exemplars {
    vectors: Vec<(Intent, Vec<f32>)>,
}

impl Exemplars {
    /// The intent of the nearest exemplar, when clearly nearer than any other intent's.
    fn nearest(&self, embedding: &[f32]) -> Option<Intent> {
        nearest(&self.vectors, embedding, None)
    }
}

fn nearest(
    vectors: &[(Intent, Vec<f32>)],
    embedding: &[f32],
    skip: Option<usize>,
) -> Option<Intent> {
    let mut best: HashMap<Intent, f32> = HashMap::new();
    for (i, (intent, v)) in vectors.iter().enumerate() {
        if Some(i) == skip || v.len() != embedding.len() {
            continue;
        }
        let c = cosine(v, embedding);
        let e = best.entry(*intent).or_insert(f32::NEG_INFINITY);
        *e = e.max(c);
    }
    let mut ranked: Vec<(Intent, f32)> = best.into_iter().collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    match ranked.as_slice() {
        [(intent, first), (_, second), ..] if first - second >= MARGIN => Some(*intent),
        [(intent, _)] => Some(*intent),
        _ => None,
    }
}

fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let (mut dot, mut na, mut nb) = (0.0f32, 0.0f32, 0.0f32);
    for (x, y) in a.iter().zip(b) {
        dot += x * y;
        na += x * x;
        nb += y * y;
    }
    if na == 0.0 || nb == 0.0 {
        0.0
    } else {
        dot / (na.sqrt() * nb.sqrt())
    }
}

/// The exemplars for this process's embedder, embedded on first use; `None` when the
/// embedder does not tell intents apart or could not embed them (asked again later).
async fn exemplars(r: &Recall<'_>) -> Option<Arc<Exemplars>> {
    static CACHE: LazyLock<Mutex<HashMap<String, Option<Arc<Exemplars>>>>> =
        LazyLock::new(|| Mutex::new(HashMap::new()));
    let id = r.models_config.embedder_fingerprint();
    if let Some(known) = CACHE.lock().ok()?.get(&id) {
        return known.clone();
    }
    let texts: Vec<String> = EXEMPLARS.iter().map(|(_, t)| (*t).to_owned()).collect();
    let embedded = match r.embedder.embed(&texts).await {
        Ok(e) => e.value,
        Err(e) => {
            tracing::warn!(error = %e, "embedding the intent exemplars failed; intents read from the question's form only");
            return None;
        }
    };
    let vectors: Vec<(Intent, Vec<f32>)> =
        EXEMPLARS.iter().map(|(i, _)| *i).zip(embedded).collect();
    let right = (0..vectors.len())
        .filter(|&i| nearest(&vectors, &vectors[i].1, Some(i)) == Some(vectors[i].0))
        .count();
    let informative = right as f64 >= INFORMATIVE * vectors.len() as f64;
    tracing::info!(
        embedder = %id,
        right,
        of = vectors.len(),
        informative,
        "intent exemplars classified each other"
    );
    let out = informative.then(|| Arc::new(Exemplars { vectors }));
    if let Ok(mut cache) = CACHE.lock() {
        cache.insert(id, out.clone());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_form_states_the_intent() {
        for (q, want) in [
            ("When did Maya get her dog?", Some(Intent::When)),
            ("what year did he graduate", Some(Intent::When)),
            ("How long ago did they move?", Some(Intent::When)),
            ("Why did she quit?", Some(Intent::Why)),
            ("How come the trip was cancelled?", Some(Intent::Why)),
            ("What made him sell the car?", Some(Intent::Why)),
            ("Who did Sam go hiking with?", Some(Intent::Who)),
            ("Whose idea was it?", Some(Intent::Who)),
            ("With whom did she travel?", Some(Intent::Who)),
            ("What is the name of her dog?", Some(Intent::What)),
            ("Where did they go on vacation?", Some(Intent::What)),
            ("How much did it cost?", Some(Intent::What)),
            (
                "Can you remind me when the dentist appointment is?",
                Some(Intent::When),
            ),
            ("Do you remember why we picked Lisbon?", Some(Intent::Why)),
            ("Tell me about the hiring plan", Some(Intent::What)),
            ("hiring plan at Acme", None),
            ("reasons we left Denver", None),
        ] {
            assert_eq!(by_form(q), want, "{q}");
        }
    }

    #[test]
    fn nearest_needs_a_margin() {
        let v = vec![
            (Intent::Why, vec![1.0, 0.0, 0.0]),
            (Intent::When, vec![0.0, 1.0, 0.0]),
        ];
        assert_eq!(nearest(&v, &[0.9, 0.1, 0.0], None), Some(Intent::Why));
        assert_eq!(
            nearest(&v, &[0.5, 0.5, 0.1], None),
            None,
            "a tie says nothing"
        );
        assert_eq!(nearest(&v, &[0.1, 0.9, 0.0], Some(1)), Some(Intent::Why));
    }
}
