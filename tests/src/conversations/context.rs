//! The run of `cosmo-bench context`: the corpus with relative times, ingested as the
//! retrieval benchmark ingests it; then, on copies of the store fresh and after each
//! chosen number of quiet nights (every maintenance job at its slots, nobody asking),
//! every question's `context` at each budget (a copy per budget, questions in order) and
//! its `explore`, scored by what the text holds (`presence.rs`) beside the baseline of
//! BM25 over single turns (`turns.rs`) at the same budget.

use std::collections::HashMap;
use std::io::Write as _;
use std::path::PathBuf;
use std::time::{Duration as StdDuration, Instant};

use chrono::Duration;
use cosmo_pipeline::retrieval;
use cosmo_shared::domain::input::read::{ContextInput, ExploreInput};
use serde_json::{Value, json};

use super::figures::{Measured, Recall};
use super::presence::Context;
use super::store::{self, Setup, Snapshot, Store};
use super::turns::{Packed, Turns};
use super::{Conversation, Corpus, Options, Question, Size};

/// What to run.
#[derive(Debug, Clone)]
pub struct Settings {
    pub size: Size,
    /// all-MiniLM-L6-v2's folder: local embeddings; `None`: the offline model.
    pub model_dir: Option<PathBuf>,
    pub config_file: Option<PathBuf>,
    /// Keep the ingested store here and reuse it (as `cosmo-bench retrieval --keep`).
    pub keep: Option<PathBuf>,
    /// One JSON line per question and pass.
    pub dump: Option<PathBuf>,
    pub budgets: Vec<u64>,
    /// The passes: after this many quiet nights each (0: fresh).
    pub nights: Vec<u32>,
}

/// One pass: the store after `nights` quiet nights.
#[derive(Debug, Clone)]
pub struct Pass {
    pub nights: u32,
    /// Cosmo's figures at each budget, with the context calls' p50 and p95 (ms).
    pub budgets: Vec<(u64, Measured, f64, f64)>,
    pub explore: Recall,
    /// How long the nights before this pass took (from the pass before).
    pub nights_seconds: f64,
    /// The corpus' Sources archived when the pass asked.
    pub sources_archived: usize,
}

/// Everything a run measured.
#[derive(Debug, Clone)]
pub struct Report {
    pub conversations: usize,
    pub sessions: usize,
    pub questions: usize,
    /// Temporal questions whose answer is a planted relative time's date.
    pub relative_questions: usize,
    pub ingest_seconds: f64,
    pub reused: bool,
    /// The baseline at each budget (it has no state: the same in every pass).
    pub baseline: Vec<(u64, Measured)>,
    pub passes: Vec<Pass>,
}

/// The corpus this benchmark measures: relative times planted.
pub fn corpus(size: Size) -> Corpus {
    super::generate_with(
        size,
        Options {
            relative_times: true,
        },
    )
}

pub async fn run(settings: &Settings) -> anyhow::Result<Report> {
    let setup = Setup {
        config_file: settings.config_file.clone(),
        model_dir: settings.model_dir.clone(),
        ..Setup::default()
    };
    let corpus = corpus(settings.size);
    let questions = corpus.questions();
    let turns: Vec<Turns> = corpus.conversations.iter().map(Turns::new).collect();
    let baseline_contexts: Vec<Vec<Packed>> = settings
        .budgets
        .iter()
        .map(|&b| {
            let pack = |(c, q): &(&Conversation, &Question)| turns[c.index].pack(&q.text, b);
            questions.iter().map(pack).collect()
        })
        .collect();
    let baseline = settings
        .budgets
        .iter()
        .zip(&baseline_contexts)
        .map(|(&b, packed)| {
            (
                b,
                measured(&questions, packed.iter().map(|p| (&*p.text, p.tokens))),
            )
        })
        .collect();

    let now = super::run::next_morning(corpus.last_session_at());
    let fresh = store::snapshot(&corpus, &setup, now, settings.keep.as_deref()).await?;
    eprintln!(
        "context: {} sessions {} in {:.1} s",
        corpus.sessions(),
        if fresh.reused { "reused" } else { "ingested" },
        fresh.seconds
    );
    let mut dump = match &settings.dump {
        Some(path) => Some(std::io::BufWriter::new(std::fs::File::create(path)?)),
        None => None,
    };
    let mut nights = settings.nights.clone();
    nights.sort_unstable();
    nights.dedup();
    let (mut aged, mut at, mut done) = (None::<Snapshot>, now, 0);
    let mut passes = Vec::new();
    for n in nights {
        let started = Instant::now();
        if n > done {
            let from = aged.as_ref().unwrap_or(&fresh);
            let (next, runs) = store::aged(from, &setup, at, n - done).await?;
            eprintln!(
                "context: {} nights ({} job runs) in {:.1} s",
                n - done,
                runs.len(),
                next.seconds
            );
            (aged, at, done) = (Some(next), at + Duration::days(i64::from(n - done)), n);
        }
        let nights_seconds = started.elapsed().as_secs_f64();
        let snapshot = aged.as_ref().unwrap_or(&fresh);
        let mut budgets = Vec::new();
        let mut texts: Vec<Vec<(String, u64)>> = Vec::new();
        for &budget in &settings.budgets {
            let on = store::open(snapshot, &setup, at).await?;
            let (contexts, took) = ask_context(&on, &corpus, budget).await?;
            let m = measured(&questions, contexts.iter().map(|(t, n)| (t.as_str(), *n)));
            let (p50, p95) = (percentile(&took, 0.5), percentile(&took, 0.95));
            eprintln!(
                "context: {n} nights, {budget} tokens: evidence {:.3}, p95 {p95:.1} ms",
                m.all.evidence
            );
            budgets.push((budget, m, p50, p95));
            texts.push(contexts);
        }
        let on = store::open(snapshot, &setup, at).await?;
        let sources_archived = store::archived_sources(&on, &corpus).await?;
        let found = ask_explore(&on, &corpus, snapshot).await?;
        let explore = Recall::of(
            questions
                .iter()
                .zip(&found)
                .map(|((_, q), (s, i))| (&q.evidence[..], &s[..], &i[..])),
        );
        if let Some(out) = dump.as_mut() {
            let dumped = Dumped {
                nights: n,
                budgets: &settings.budgets,
                cosmo: &texts,
                baseline: &baseline_contexts,
                explore: &found,
            };
            dumped.write(out, &corpus)?;
        }
        passes.push(Pass {
            nights: n,
            budgets,
            explore,
            nights_seconds,
            sources_archived,
        });
    }
    if let Some(mut out) = dump {
        out.flush()?;
    }
    Ok(Report {
        conversations: corpus.conversations.len(),
        sessions: corpus.sessions(),
        questions: questions.len(),
        relative_questions: questions
            .iter()
            .filter(|(_, q)| {
                q.category == super::Category::Temporal && !q.answer.starts_with("around ")
            })
            .count(),
        ingest_seconds: fresh.seconds,
        reused: fresh.reused,
        baseline,
        passes,
    })
}

/// The texts of a question's evidence turns.
pub fn evidence_texts<'a>(c: &'a Conversation, q: &Question) -> Vec<&'a str> {
    q.evidence_turns
        .iter()
        .map(|&(s, t)| c.sessions[s].turns[t].text.as_str())
        .collect()
}

/// Every question's figures from its context (text and tokens), in question order.
fn measured<'a>(
    questions: &[(&Conversation, &Question)],
    contexts: impl Iterator<Item = (&'a str, u64)>,
) -> Measured {
    Measured::of(
        questions
            .iter()
            .zip(contexts)
            .map(|((c, q), (text, tokens))| {
                let read = Context::new(text);
                (
                    q.category,
                    read.turns_share(&evidence_texts(c, q)),
                    read.answer_share(&q.answer),
                    tokens,
                )
            }),
    )
}

/// Every question's context at `budget`, in order, as its conversation's owner: the
/// markdown and its tokens, and how long each call took.
async fn ask_context(
    store: &Store,
    corpus: &Corpus,
    budget: u64,
) -> anyhow::Result<(Vec<(String, u64)>, Vec<StdDuration>)> {
    let (mut out, mut took) = (Vec::new(), Vec::new());
    for (c, q) in corpus.questions() {
        let input = ContextInput::parse(json!({
            "user_id": c.a.user_id(),
            "message": q.text,
            "budget_tokens": budget,
            "format": "markdown",
        }))
        .map_err(|e| anyhow::anyhow!("{q:?}: {e}"))?;
        let started = Instant::now();
        let context = retrieval::context::build(&store.svc, &input, None).await?;
        took.push(started.elapsed());
        out.push((context.context, context.tokens_used));
    }
    Ok((out, took))
}

/// Every question's explore (granularity 1, limit 10) in order: the evidence-session
/// indexes returned as Sources, and those the returned insights were derived from.
async fn ask_explore(
    store: &Store,
    corpus: &Corpus,
    snapshot: &Snapshot,
) -> anyhow::Result<Vec<(Vec<usize>, Vec<usize>)>> {
    let session_of: HashMap<&str, usize> = snapshot
        .keys
        .iter()
        .flat_map(|c| c.iter().enumerate().map(|(s, k)| (k.as_str(), s)))
        .collect();
    let sessions = |keys: Vec<&Value>| -> Vec<usize> {
        keys.into_iter()
            .filter_map(|k| k.as_str().and_then(|k| session_of.get(k)).copied())
            .collect()
    };
    let mut out = Vec::new();
    for (c, q) in corpus.questions() {
        let input = ExploreInput::parse(json!({
            "user_id": c.a.user_id(),
            "queries": [{ "query": q.text }],
            "limit": 10,
        }))
        .map_err(|e| anyhow::anyhow!("{q:?}: {e}"))?;
        // Read as the API returns it: a Source's key, an insight's `derived_from`.
        let found = serde_json::to_value(retrieval::explore(&store.svc, &input, None).await?)?;
        let list = |field: &str| found[field].as_array().cloned().unwrap_or_default();
        let sources = list("sources");
        let notes = list("notes");
        let derived: Vec<&Value> = notes
            .iter()
            .filter_map(|n| n["derived_from"].as_array())
            .flatten()
            .map(|m| &m["entity_key"])
            .collect();
        out.push((
            sessions(sources.iter().map(|s| &s["entity_key"]).collect()),
            sessions(derived),
        ));
    }
    Ok(out)
}

/// The `p`-quantile (nearest rank) of durations, in milliseconds.
fn percentile(took: &[StdDuration], p: f64) -> f64 {
    let mut sorted = took.to_vec();
    sorted.sort();
    let at = ((sorted.len().max(1) - 1) as f64 * p).round() as usize;
    sorted.get(at).map_or(f64::NAN, |d| d.as_secs_f64() * 1e3)
}

/// One pass's lines of the dump.
struct Dumped<'a> {
    nights: u32,
    budgets: &'a [u64],
    /// By budget, by question: Cosmo's context and tokens.
    cosmo: &'a [Vec<(String, u64)>],
    baseline: &'a [Vec<Packed>],
    explore: &'a [(Vec<usize>, Vec<usize>)],
}

impl Dumped<'_> {
    /// One JSON line per question: the question, its evidence turns, and at each budget
    /// both contexts with what each holds of them.
    fn write(&self, out: &mut impl std::io::Write, corpus: &Corpus) -> anyhow::Result<()> {
        for (i, (c, q)) in corpus.questions().into_iter().enumerate() {
            let evidence = evidence_texts(c, q);
            let scored = |text: &str, tokens: u64| {
                let read = Context::new(text);
                json!({
                    "tokens": tokens,
                    "turns_present": evidence.iter().map(|t| read.has_turn(t)).collect::<Vec<_>>(),
                    "answer_in_context": read.answer_share(&q.answer),
                    "context": text,
                })
            };
            let budgets: Vec<Value> = self
                .budgets
                .iter()
                .enumerate()
                .map(|(b, budget)| {
                    let (text, tokens) = &self.cosmo[b][i];
                    let packed = &self.baseline[b][i];
                    json!({
                        "budget": budget,
                        "cosmo": scored(text, *tokens),
                        "bm25_turns": scored(&packed.text, packed.tokens),
                    })
                })
                .collect();
            let line = json!({
                "nights": self.nights,
                "index": i,
                "conversation": c.index,
                "owner": c.a.full_name(),
                "question": q.text,
                "answer": q.answer,
                "category": q.category.name(),
                "evidence_sessions": q.evidence,
                "evidence_turns": q.evidence_turns.iter().map(|&(s, t)| json!({
                    "session": s,
                    "turn": t,
                    "date": c.sessions[s].started_at.format("%Y-%m-%d").to_string(),
                    "speaker": c.sessions[s].turns[t].speaker,
                    "text": c.sessions[s].turns[t].text,
                })).collect::<Vec<_>>(),
                "explore_sources": self.explore[i].0,
                "explore_insight_sessions": self.explore[i].1,
                "budgets": budgets,
            });
            writeln!(out, "{line}")?;
        }
        Ok(())
    }
}
