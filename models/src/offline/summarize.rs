//! Extractive summaries for Storylines, Macros and node and relationship descriptions:
//! the sentences that share the most terms with the rest of the inputs. An insight is
//! extractive too, but keeps what each memory said ([`insight`]).

use std::collections::{HashMap, HashSet};

use super::describe::overlap;
use super::text;
use crate::SummaryTask;

const MAX_SENTENCE_CHARS: usize = 300;

/// (fewest, most) sentences for a task.
fn length(task: SummaryTask) -> (usize, usize) {
    match task {
        SummaryTask::Storyline => (2, 3),
        SummaryTask::Macro => (2, 4),
        SummaryTask::NodeDescription | SummaryTask::RelationshipDescription => (1, 1),
        SummaryTask::Insight => (1, 2),
    }
}

struct Candidate {
    input: usize,
    text: String,
    words: Vec<String>,
}

/// Longest insight, in characters.
const MAX_INSIGHT_CHARS: usize = 2_000;
/// Longest statement an insight keeps of one memory, in characters.
const MAX_STATEMENT_CHARS: usize = 400;

/// The insight of consolidated memories, given one line each (`On 8 May 2023: what
/// was said`): every memory's own line, in order, each at most
/// [`MAX_STATEMENT_CHARS`], while the insight stays within [`MAX_INSIGHT_CHARS`] (the
/// latest memories kept first when it must choose). What the archived memories said,
/// specific and dated, stays findable by its words: a summary of 1–2 sentences would
/// keep one memory's words and lose the rest.
fn insight(inputs: &[String]) -> String {
    let lines: Vec<String> = inputs
        .iter()
        .map(|i| i.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|i| !i.is_empty())
        .map(|i| text::truncate(&i, MAX_STATEMENT_CHARS))
        .collect();
    let mut kept: Vec<&String> = Vec::new();
    let mut chars = 0;
    for line in lines.iter().rev() {
        let len = line.chars().count() + 1;
        if chars + len > MAX_INSIGHT_CHARS && !kept.is_empty() {
            break;
        }
        chars += len;
        kept.push(line);
    }
    kept.reverse();
    kept.iter()
        .map(|l| l.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

pub fn summarize(task: SummaryTask, current: Option<&str>, inputs: &[String]) -> String {
    if task == SummaryTask::Insight {
        return insight(inputs);
    }
    let (min, max) = length(task);
    let mut candidates: Vec<Candidate> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    for (input, body) in inputs.iter().enumerate() {
        for line in body.lines() {
            for sentence in text::split_sentences(line) {
                if seen.insert(sentence.to_lowercase()) {
                    let mut words = text::content_words(&sentence);
                    words.sort_unstable();
                    words.dedup();
                    candidates.push(Candidate {
                        input,
                        text: sentence,
                        words,
                    });
                }
            }
        }
    }
    if candidates.is_empty() {
        let fallback = current
            .unwrap_or("")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let joined = inputs
            .join(" ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let text = if joined.is_empty() { fallback } else { joined };
        return text::truncate(&text, MAX_SENTENCE_CHARS);
    }
    let scores = centrality(&candidates, inputs.len());
    let mut ranked: Vec<usize> = (0..candidates.len()).collect();
    ranked.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));

    let mut chosen: Vec<(Option<usize>, String, Vec<String>)> = Vec::new();
    if let Some(first) = current.and_then(|c| text::split_sentences(c).into_iter().next()) {
        let words = text::content_words(&first);
        let known: HashSet<&str> = candidates
            .iter()
            .flat_map(|c| c.words.iter().map(String::as_str))
            .collect();
        let covered = words.iter().filter(|w| known.contains(w.as_str())).count();
        if !words.is_empty() && covered as f64 / words.len() as f64 >= 0.3 {
            chosen.push((None, first, words));
        }
    }
    let top = scores[ranked[0]];
    for &i in &ranked {
        if chosen.len() >= max || (chosen.len() >= min && scores[i] < 0.6 * top) {
            break;
        }
        let c = &candidates[i];
        if chosen.iter().any(|(_, text, words)| {
            overlap(words, &c.words) >= 0.6 || text.eq_ignore_ascii_case(&c.text)
        }) {
            continue;
        }
        chosen.push((Some(i), c.text.clone(), c.words.clone()));
    }
    if chosen.is_empty() {
        chosen.push((
            Some(ranked[0]),
            candidates[ranked[0]].text.clone(),
            Vec::new(),
        ));
    }
    // The kept current sentence first, then the rest in the order they happened.
    chosen.sort_by_key(|(i, _, _)| i.map_or((0, 0), |i| (1, i)));
    chosen
        .iter()
        .map(|(_, text, _)| text::truncate(text, MAX_SENTENCE_CHARS))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Each sentence's share of terms that recur across inputs, favouring later inputs a
/// little and penalising fragments.
fn centrality(candidates: &[Candidate], inputs: usize) -> Vec<f64> {
    let mut df: HashMap<&str, HashSet<usize>> = HashMap::new();
    let mut tf: HashMap<&str, f64> = HashMap::new();
    for c in candidates {
        for w in &c.words {
            df.entry(w.as_str()).or_default().insert(c.input);
            *tf.entry(w.as_str()).or_default() += 1.0;
        }
    }
    let span = inputs.saturating_sub(1).max(1) as f64;
    candidates
        .iter()
        .map(|c| {
            let sum: f64 = c
                .words
                .iter()
                .map(|w| (df[w.as_str()].len() as f64 + 0.5 * tf[w.as_str()]).ln_1p())
                .sum();
            let mut score = sum / (c.words.len().max(3) as f64).sqrt();
            score *= 1.0 + 0.1 * c.input as f64 / span;
            if text::tokens(&c.text).len() < 4 {
                score *= 0.3;
            }
            score
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs() -> Vec<String> {
        vec![
            "Sarah Chen drafted the hiring plan for the Berlin launch. Lunch was late.".to_owned(),
            "The hiring plan for Berlin gained two backend roles. Priya reviewed the budget."
                .to_owned(),
            "Acme Corp approved the Berlin launch date and the hiring plan budget.".to_owned(),
        ]
    }

    #[test]
    fn lengths_follow_the_task() {
        let count = |task| text::split_sentences(&summarize(task, None, &inputs())).len();
        assert!((2..=3).contains(&count(SummaryTask::Storyline)));
        assert!((2..=4).contains(&count(SummaryTask::Macro)));
        assert_eq!(count(SummaryTask::NodeDescription), 1);
        assert_eq!(count(SummaryTask::RelationshipDescription), 1);
    }

    #[test]
    fn an_insight_keeps_what_each_memory_said_in_order() {
        let dated = vec![
            "On 8 May 2023: Caroline went to a support group yesterday (7 May 2023).".to_owned(),
            "On 20 May 2023: Caroline   leads the support group now.".to_owned(),
        ];
        assert_eq!(
            summarize(SummaryTask::Insight, None, &dated),
            "On 8 May 2023: Caroline went to a support group yesterday (7 May 2023).\n\
             On 20 May 2023: Caroline leads the support group now."
        );
        // Within its length: the latest memories when it must choose, none cut mid-word.
        let many: Vec<String> = (1..=40)
            .map(|d| {
                format!(
                    "On {d} May 2023: {}",
                    "something long was said here ".repeat(4)
                )
            })
            .collect();
        let long = summarize(SummaryTask::Insight, None, &many);
        assert!(long.chars().count() <= MAX_INSIGHT_CHARS, "{}", long.len());
        assert!(long.ends_with("was said here") && long.contains("On 40 May"));
        assert!(!long.contains("On 1 May 2023"));
    }

    #[test]
    fn representative_sentences_win() {
        let summary = summarize(SummaryTask::NodeDescription, None, &inputs());
        assert!(
            summary.contains("hiring plan") && summary.contains("Berlin"),
            "{summary}"
        );
        assert!(!summarize(SummaryTask::Macro, None, &inputs()).contains("Lunch was late"));
    }

    #[test]
    fn a_representative_current_description_keeps_its_first_sentence() {
        let current = "The Berlin hiring plan is on track. Old detail nobody repeats.";
        let summary = summarize(SummaryTask::Storyline, Some(current), &inputs());
        assert!(
            summary.starts_with("The Berlin hiring plan is on track."),
            "{summary}"
        );
        assert!(!summary.contains("Old detail"));
        let stale = summarize(
            SummaryTask::Storyline,
            Some("Quantum gardening rules."),
            &inputs(),
        );
        assert!(!stale.contains("Quantum"));
    }

    #[test]
    fn never_empty_for_non_empty_input() {
        assert_eq!(
            summarize(SummaryTask::Insight, None, &["ok".to_owned()]),
            "ok"
        );
        assert_eq!(
            summarize(SummaryTask::Insight, None, &["—".to_owned()]),
            "—"
        );
        assert_eq!(summarize(SummaryTask::Insight, None, &[]), "");
    }
}
