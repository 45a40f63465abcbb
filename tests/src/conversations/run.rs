//! The benchmark run: BM25 over every question, then Cosmo on copies of one ingestion —
//! the questions in the generated order, the same after a week of nightly maintenance,
//! and in reverse order on a second copy (explore records accesses, which may move
//! later rankings) — scored alike, with an optional per-question dump.

use std::collections::HashMap;
use std::io::Write as _;
use std::path::PathBuf;
use std::time::{Duration as StdDuration, Instant};

use chrono::{DateTime, Duration, Timelike, Utc};
use cosmo_pipeline::retrieval;
use cosmo_pipeline::retrieval::rank::Signal;
use cosmo_shared::domain::input::read::ExploreInput;
use serde_json::{Value, json};

use super::bm25::Bm25;
use super::store::{self, Setup, Snapshot, Store};
use super::{Asked, Category, Corpus, Scores, Size};

/// What to run.
#[derive(Debug, Clone)]
pub struct Settings {
    pub size: Size,
    /// all-MiniLM-L6-v2's folder (see [`crate::minilm::model_dir`]): Cosmo runs with
    /// local embeddings; `None`: the offline model (the default configuration).
    pub model_dir: Option<PathBuf>,
    /// A TOML file merged over the test configuration (retrieval tuning).
    pub config_file: Option<PathBuf>,
    /// Keep the ingested store under this folder (one subfolder per size and embedding
    /// model) and reuse it while the corpus and the model settings stay the same.
    pub keep: Option<PathBuf>,
    /// Write one JSON line per question here.
    pub dump: Option<PathBuf>,
    /// Skip the reverse-order pass and the week of maintenance.
    pub forward_only: bool,
    /// Rank by this signal alone (see [`Setup::only_signal`]).
    pub only_signal: Option<Signal>,
}

impl Settings {
    /// Every pass, offline embeddings, the test configuration, nothing kept or dumped.
    pub fn new(size: Size) -> Self {
        Self {
            size,
            model_dir: None,
            config_file: None,
            keep: None,
            dump: None,
            forward_only: false,
            only_signal: None,
        }
    }
}

/// Everything a run measured.
#[derive(Debug, Clone)]
pub struct Report {
    pub conversations: usize,
    pub sessions: usize,
    pub questions: usize,
    pub ingest_seconds: f64,
    pub reused: bool,
    pub bm25: Scores,
    pub forward: Scores,
    /// The forward order on a fresh copy with intent routing off
    /// (`retrieval.intent_routing = false`): what routing adds, measured in the same run.
    pub unrouted: Scores,
    pub reverse: Option<Scores>,
    pub after_week: Option<Scores>,
    /// Memories the week's maintenance runs reported archiving.
    pub week_archived: i64,
    /// The corpus' Sources archived at the end of that week (out of default retrieval).
    pub week_sources_archived: usize,
    pub week_seconds: f64,
}

/// One explore call's result.
struct Answer {
    sessions: Vec<usize>,
    hits: Vec<Value>,
    took: StdDuration,
}

/// Runs the benchmark.
pub async fn run(settings: &Settings) -> anyhow::Result<Report> {
    let setup = Setup {
        config_file: settings.config_file.clone(),
        model_dir: settings.model_dir.clone(),
        only_signal: settings.only_signal,
        unrouted: false,
    };
    let corpus = super::generate(settings.size);
    let questions = corpus.questions();
    let bm25 = bm25_rankings(&corpus);
    let bm25_scores = Scores::of(
        questions
            .iter()
            .zip(&bm25)
            .map(|((_, q), top)| (q.category, Asked::of(&q.text), &q.evidence[..], &top[..])),
        &[],
    );

    // A back-fill: the whole history imported the morning after its last session.
    let now = next_morning(corpus.last_session_at());
    let snapshot = store::snapshot(&corpus, &setup, now, settings.keep.as_deref()).await?;
    eprintln!(
        "retrieval: {} sessions {} in {:.1} s",
        corpus.sessions(),
        if snapshot.reused {
            "reused"
        } else {
            "ingested"
        },
        snapshot.seconds
    );

    let order: Vec<usize> = (0..questions.len()).collect();
    let forward_store = store::open(&snapshot, &setup, now).await?;
    let forward = ask(&forward_store, &corpus, &snapshot, &order).await?;
    let forward_scores = scores(&corpus, &forward);
    if let Some(path) = &settings.dump {
        dump(path, &corpus, &snapshot, &forward, &bm25)?;
    }
    let unrouted = {
        let setup = Setup {
            unrouted: true,
            ..setup.clone()
        };
        let store = store::open(&snapshot, &setup, now).await?;
        scores(&corpus, &ask(&store, &corpus, &snapshot, &order).await?)
    };
    let (mut reverse, mut after_week, mut week_seconds) = (None, None, 0.0);
    let (mut week_archived, mut week_sources_archived) = (0, 0);
    if !settings.forward_only {
        let started = Instant::now();
        let runs = store::week_of_nights(&forward_store, now).await?;
        week_seconds = started.elapsed().as_secs_f64();
        week_archived = runs.iter().map(|r| r.archived).sum();
        week_sources_archived = store::archived_sources(&forward_store, &corpus).await?;
        let later = ask(&forward_store, &corpus, &snapshot, &order).await?;
        after_week = Some(scores(&corpus, &later));
        drop(forward_store);
        let reverse_store = store::open(&snapshot, &setup, now).await?;
        let backwards: Vec<usize> = order.iter().rev().copied().collect();
        let answers = ask(&reverse_store, &corpus, &snapshot, &backwards).await?;
        reverse = Some(scores(&corpus, &answers));
    }
    Ok(Report {
        conversations: corpus.conversations.len(),
        sessions: corpus.sessions(),
        questions: questions.len(),
        ingest_seconds: snapshot.seconds,
        reused: snapshot.reused,
        bm25: bm25_scores,
        forward: forward_scores,
        unrouted,
        reverse,
        after_week,
        week_archived,
        week_sources_archived,
        week_seconds,
    })
}

/// 09:00 UTC of the day after `t`.
pub(super) fn next_morning(t: DateTime<Utc>) -> DateTime<Utc> {
    let day = t + Duration::days(1);
    day.with_hour(9)
        .and_then(|d| d.with_minute(0))
        .and_then(|d| d.with_second(0))
        .and_then(|d| d.with_nanosecond(0))
        .unwrap_or(day)
}

/// BM25's ranking of its conversation's sessions for every question.
fn bm25_rankings(corpus: &Corpus) -> Vec<Vec<usize>> {
    let indexes: Vec<Bm25> = corpus
        .conversations
        .iter()
        .map(|c| Bm25::new(&c.sessions.iter().map(|s| s.text()).collect::<Vec<_>>()))
        .collect();
    corpus
        .questions()
        .iter()
        .map(|(c, q)| indexes[c.index].rank(&q.text))
        .collect()
}

/// Asks the questions in `order` (indexes into `corpus.questions()`) as each
/// conversation's owner; answers are returned by question index.
async fn ask(
    store: &Store,
    corpus: &Corpus,
    snapshot: &Snapshot,
    order: &[usize],
) -> anyhow::Result<Vec<Answer>> {
    let session_of: HashMap<&str, usize> = snapshot
        .keys
        .iter()
        .flat_map(|c| c.iter().enumerate().map(|(s, k)| (k.as_str(), s)))
        .collect();
    let questions = corpus.questions();
    let mut answers: Vec<Option<Answer>> = (0..questions.len()).map(|_| None).collect();
    for &i in order {
        let (c, q) = questions[i];
        let input = ExploreInput::parse(json!({
            "user_id": c.a.user_id(),
            "queries": [{ "query": q.text }],
            "limit": 10,
        }))
        .map_err(|e| anyhow::anyhow!("{q:?}: {e}"))?;
        let started = Instant::now();
        let found = retrieval::explore(&store.svc, &input, None).await?;
        let took = started.elapsed();
        let sources = found.sources.unwrap_or_default();
        let sessions = sources
            .iter()
            .map(|s| {
                session_of
                    .get(s.item.entity_key.as_str())
                    .copied()
                    .unwrap_or(usize::MAX)
            })
            .collect();
        let hits = sources
            .iter()
            .map(|s| {
                json!({
                    "key": s.item.entity_key,
                    "session": session_of.get(s.item.entity_key.as_str()),
                    "score": s.score,
                    "why": s.why,
                })
            })
            .collect();
        answers[i] = Some(Answer {
            sessions,
            hits,
            took,
        });
    }
    answers
        .into_iter()
        .map(|a| a.ok_or_else(|| anyhow::anyhow!("a question was not asked")))
        .collect()
}

fn scores(corpus: &Corpus, answers: &[Answer]) -> Scores {
    let took: Vec<StdDuration> = answers.iter().map(|a| a.took).collect();
    Scores::of(
        corpus.questions().iter().zip(answers).map(|((_, q), a)| {
            (
                q.category,
                Asked::of(&q.text),
                &q.evidence[..],
                &a.sessions[..],
            )
        }),
        &took,
    )
}

/// One JSON line per question: the question, its evidence (sessions, keys, the events
/// planted there), Cosmo's top 10 with `why`, BM25's top 10 with scores.
fn dump(
    path: &std::path::Path,
    corpus: &Corpus,
    snapshot: &Snapshot,
    cosmo: &[Answer],
    bm25: &[Vec<usize>],
) -> anyhow::Result<()> {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    let indexes: Vec<Bm25> = corpus
        .conversations
        .iter()
        .map(|c| Bm25::new(&c.sessions.iter().map(|s| s.text()).collect::<Vec<_>>()))
        .collect();
    for (i, ((c, q), (answer, ranked))) in corpus
        .questions()
        .iter()
        .zip(cosmo.iter().zip(bm25))
        .enumerate()
    {
        let scores = indexes[c.index].scores(&q.text);
        let line = json!({
            "index": i,
            "conversation": c.index,
            "owner": c.a.full_name(),
            "other": c.b.full_name(),
            "question": q.text,
            "answer": q.answer,
            "category": q.category.name(),
            "asked": Asked::of(&q.text).name(),
            "evidence_sessions": q.evidence,
            "evidence_keys": q.evidence.iter().map(|&s| &snapshot.keys[c.index][s]).collect::<Vec<_>>(),
            "evidence_events": q.evidence.iter().map(|&s| &c.sessions[s].events).collect::<Vec<_>>(),
            "cosmo_recall_at_10": super::score::recall(&q.evidence, &answer.sessions, 10),
            "cosmo": answer.hits,
            "bm25_recall_at_10": super::score::recall(&q.evidence, ranked, 10),
            "bm25": ranked.iter().take(10).map(|&s| json!({ "session": s, "score": scores[s] })).collect::<Vec<_>>(),
        });
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    Ok(())
}

/// Every category, including those without questions (as zero questions).
pub fn categories(scores: &Scores) -> Vec<(Category, super::CategoryScores)> {
    Category::ALL
        .iter()
        .map(|c| (*c, scores.by_category.get(c).copied().unwrap_or_default()))
        .collect()
}

/// Every intent, including those without questions (as zero questions).
pub fn intents(scores: &Scores) -> Vec<(Asked, super::CategoryScores)> {
    Asked::ALL
        .iter()
        .map(|a| (*a, scores.by_asked.get(a).copied().unwrap_or_default()))
        .collect()
}
