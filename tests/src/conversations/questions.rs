//! The questions of a conversation and their evidence: single-hop, why- and temporal
//! ones per event, multi-hop ones over two steps of an arc (what came next, or why: the
//! cause told in an earlier step) or over events of one kind, open ones over a whole arc,
//! and dated ones: what went on with an arc in a named month.

use std::collections::BTreeSet;

use chrono::{DateTime, Datelike, Utc};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};

use super::generate::{Slots, speaker_slots};
use super::plan::Instance;
use super::templates::Group;
use super::vocab::render;
use super::{Category, Question, Speaker};

/// A step of an arc: the instance and the step's index.
type Step<'a> = (&'a Instance, usize);

/// How often an event with why-questions gets one (single-hop, evidence its session).
const WHY: f64 = 0.45;
/// How often a step whose cause an earlier step told gets that why-question (multi-hop).
const WHY_EARLIER: f64 = 0.6;
/// How often an event gets a dated question ("In May 2023, what did Maya tell Leo about
/// her dog?"); its evidence is every session of the arc in that month.
const DATED: f64 = 0.2;

/// Dated questions: the period is named, the event is not.
const DATED_TEMPLATES: [&str; 3] = [
    "What happened with {P}'s {noun} in {month}?",
    "In {month}, what did {P} tell {Q} about the {noun}?",
    "What news did {P} share about the {noun} during {month}?",
];

pub(super) fn questions(
    rng: &mut StdRng,
    speakers: &[Speaker; 2],
    instances: &[Instance],
    dates: &[DateTime<Utc>],
) -> Vec<Question> {
    let mut out = Vec::new();
    // The evidence: the sessions and turns of the steps the question is about.
    let mut push = |text: &str, answer: String, category, steps: Vec<Step>, slots: &Slots| {
        let mut evidence: Vec<usize> = steps.iter().map(|(i, n)| i.sessions[*n]).collect();
        evidence.sort_unstable();
        evidence.dedup();
        let mut evidence_turns: Vec<(usize, usize)> = steps
            .iter()
            .flat_map(|(i, n)| i.turns[*n].iter().map(|&t| (i.sessions[*n], t)))
            .collect();
        evidence_turns.sort_unstable();
        evidence_turns.dedup();
        out.push(Question {
            text: render(text, slots),
            answer,
            category,
            evidence,
            evidence_turns,
        });
    };
    for inst in instances {
        let steps = &inst.arc.steps[..inst.sessions.len()];
        for (n, (step, &s)) in steps.iter().zip(&inst.sessions).enumerate() {
            let count = if rng.random_bool(0.78) { 1 } else { 2 };
            for (q, a) in step.qs.choose_multiple(rng, count) {
                push(
                    q,
                    render(a, &inst.slots),
                    Category::SingleHop,
                    vec![(inst, n)],
                    &inst.slots,
                );
            }
            if !step.why.is_empty()
                && rng.random_bool(WHY)
                && let Some((q, a)) = step.why.choose(rng)
            {
                let answer = render(a, &inst.slots);
                push(q, answer, Category::SingleHop, vec![(inst, n)], &inst.slots);
            }
            for &(cause, q, a) in step.why_earlier.iter().filter(|(c, _, _)| *c < n) {
                if rng.random_bool(WHY_EARLIER) {
                    let evidence = vec![(inst, cause), (inst, n)];
                    let answer = render(a, &inst.slots);
                    push(q, answer, Category::MultiHop, evidence, &inst.slots);
                }
            }
            if rng.random_bool(0.4) {
                // A relative time told with the step names the day itself.
                let answer = match &inst.relative[n] {
                    Some(r) => r.answer.clone(),
                    None => format!("around {}", dates[s].format("%-d %B %Y")),
                };
                push(
                    step.when,
                    answer,
                    Category::Temporal,
                    vec![(inst, n)],
                    &inst.slots,
                );
            }
        }
        for k in 1..steps.len() {
            if rng.random_bool(0.5) {
                let template = if rng.random_bool(0.5) {
                    "What happened with {P}'s {noun} after {after}?"
                } else {
                    "After {after}, what was the next development with {P}'s {noun}?"
                };
                let mut slots = inst.slots.clone();
                slots.push(("noun", render(inst.arc.noun, &inst.slots)));
                slots.push(("after", render(steps[k - 1].after, &inst.slots)));
                let next = if steps[k].after.is_empty() {
                    steps[k].qs[0].1
                } else {
                    steps[k].after
                };
                let answer = render(next, &inst.slots);
                push(
                    template,
                    answer,
                    Category::MultiHop,
                    vec![(inst, k - 1), (inst, k)],
                    &slots,
                );
            }
        }
        if steps.len() >= 3 && rng.random_bool(0.85) {
            let template = inst.arc.open.choose(rng).copied().unwrap_or_default();
            let answer: Vec<String> = steps
                .iter()
                .map(|st| {
                    render(
                        if st.after.is_empty() {
                            st.when
                        } else {
                            st.after
                        },
                        &inst.slots,
                    )
                })
                .collect();
            push(
                template,
                answer.join("; "),
                Category::Open,
                (0..steps.len()).map(|n| (inst, n)).collect(),
                &inst.slots,
            );
        }
    }
    // Drawn from a generator of their own, so that the other questions stay as they were.
    let mut dated = StdRng::seed_from_u64(dates.first().map_or(0, |d| d.timestamp() as u64));
    for inst in instances {
        let steps = &inst.arc.steps[..inst.sessions.len()];
        for (step, &s) in steps.iter().zip(&inst.sessions) {
            if !dated.random_bool(DATED) {
                continue;
            }
            let month = |d: &DateTime<Utc>| (d.year(), d.month());
            let evidence: Vec<Step> = (0..steps.len())
                .filter(|&o| month(&dates[inst.sessions[o]]) == month(&dates[s]))
                .map(|o| (inst, o))
                .collect();
            let mut slots = inst.slots.clone();
            slots.push(("noun", render(inst.arc.noun, &inst.slots)));
            slots.push(("month", dates[s].format("%B %Y").to_string()));
            let template = DATED_TEMPLATES
                .choose(&mut dated)
                .copied()
                .unwrap_or_default();
            let answer = render(
                if step.after.is_empty() {
                    step.when
                } else {
                    step.after
                },
                &inst.slots,
            );
            push(template, answer, Category::Dated, evidence, &slots);
        }
    }
    // The same kind of event across arcs: "What pets does Maya have?".
    for who in 0..2 {
        let mut groups: Vec<(Group, usize, String, Step)> = Vec::new();
        for inst in instances.iter().filter(|i| i.who == who) {
            for (n, (step, &s)) in inst.arc.steps.iter().zip(&inst.sessions).enumerate() {
                if let Some((group, label)) = step.group {
                    groups.push((group, s, render(label, &inst.slots), (inst, n)));
                }
            }
        }
        groups.sort_by_key(|(g, s, _, _)| (*g, *s));
        let slots = speaker_slots(&speakers[who], &speakers[1 - who]);
        for group in groups
            .iter()
            .map(|(g, _, _, _)| *g)
            .collect::<BTreeSet<_>>()
        {
            let members: Vec<&(Group, usize, String, Step)> =
                groups.iter().filter(|(g, _, _, _)| *g == group).collect();
            if members.len() >= 2 {
                let template = group.questions().choose(rng).copied().unwrap_or_default();
                let answer = members
                    .iter()
                    .map(|(_, _, l, _)| l.as_str())
                    .collect::<Vec<_>>()
                    .join("; ");
                let evidence = members.iter().map(|(_, _, _, step)| *step).collect();
                push(template, answer, Category::MultiHop, evidence, &slots);
            }
        }
    }
    // Asked in the order the conversation makes them answerable.
    out.sort_by_key(|q| q.evidence.last().copied().unwrap_or(0));
    out
}
