//! `cosmo import <PATH>`: posts the items of a JSONL file or a folder to a running Cosmo
//! (`POST /api/sources`), several at a time, with a progress bar; resumable.
//!
//! * [`items`] — what is posted, and each item's stable key and `external_id`;
//! * [`eml`] — `.eml` files to `email` Sources;
//! * [`checkpoint`] — accepted items, recorded as they are accepted;
//! * [`client`] — HTTP with retries;
//! * [`progress`] — the bar, or plain lines when stderr is not a terminal.
//!
//! Interrupted (Ctrl-C, SIGTERM, a kill), the same command continues: the checkpoint
//! skips what was accepted, and Cosmo's `external_id` de-duplication answers
//! "duplicate" for anything posted but not yet recorded. Refused items are reported
//! with their place and Cosmo's error, are not recorded, and make the exit code 1.

pub mod checkpoint;
pub mod client;
pub mod eml;
pub mod items;
pub mod progress;

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use futures::StreamExt;

use self::checkpoint::{Checkpoint, Target};
use self::client::{Client, Fatal, Posted};
use self::items::{Body, Item, Scan};
use self::progress::Progress;

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// A `.jsonl` file (one source body per line) or a folder (`.txt`, `.md`, `.eml`,
    /// `.json`, `.jsonl` files; see docs/operations.md).
    pub path: PathBuf,
    /// The owner of items that name none (required for `.txt`, `.md` and `.eml`).
    #[arg(long)]
    pub user: Option<String>,
    /// The Cosmo to import into.
    #[arg(long, env = "COSMO_URL", default_value = "http://127.0.0.1:8080")]
    pub url: String,
    /// A tenant API key of that Cosmo.
    #[arg(long, env = "COSMO_API_KEY", hide_env_values = true)]
    pub api_key: Option<String>,
    /// Items posted at once.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub concurrency: u16,
    /// Where to record progress (default: `<PATH>.cosmo-import` beside PATH).
    #[arg(long)]
    pub checkpoint: Option<PathBuf>,
    /// Then wait until every imported Source is extracted, reporting failures.
    #[arg(long)]
    pub follow: bool,
    /// With `--follow`: give up waiting after this many seconds.
    #[arg(long, requires = "follow")]
    pub follow_timeout: Option<u64>,
}

/// What happened to the items of one run.
#[derive(Debug, Default)]
struct Tally {
    new: usize,
    duplicate: usize,
    skipped: usize,
    refused: usize,
}

impl Tally {
    fn message(&self) -> String {
        format!(
            "accepted {}, skipped {}, refused {}",
            self.new + self.duplicate,
            self.skipped,
            self.refused
        )
    }
}

pub async fn run(args: ImportArgs) -> anyhow::Result<()> {
    let checkpoint_path = match &args.checkpoint {
        Some(p) => p.clone(),
        None => Checkpoint::default_path(&args.path)?,
    };
    if let Some(user) = &args.user {
        cosmo_shared::domain::input::parse_user_id("--user", user)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
    }
    let scan = Scan::of(&args.path, &checkpoint_path)?;
    anyhow::ensure!(
        scan.total > 0,
        "nothing to import in {}: no items in .jsonl, .json, .txt, .md or .eml files",
        args.path.display()
    );
    let unowned = scan.needs_user();
    anyhow::ensure!(
        unowned == 0 || args.user.is_some(),
        "--user is required: {unowned} file(s) (.txt, .md, .eml) carry no user id"
    );
    if !scan.ignored.is_empty() {
        let shown: Vec<&str> = scan.ignored.iter().take(5).map(String::as_str).collect();
        eprintln!(
            "ignoring {} file(s) of other types: {}{}",
            scan.ignored.len(),
            shown.join(", "),
            if scan.ignored.len() > shown.len() {
                ", …"
            } else {
                ""
            }
        );
    }
    let client = Client::new(&args.url, args.api_key.clone())?;
    client.check().await?;
    let target = Target {
        cosmo_import: 1,
        url: args.url.trim_end_matches('/').to_owned(),
        user: args.user.clone(),
    };
    let mut checkpoint = Checkpoint::open(&checkpoint_path, &target)?;
    let done: HashSet<String> = checkpoint.done().keys().cloned().collect();

    let progress = Progress::new("import", scan.total as u64);
    let mut tally = Tally::default();
    let started = Instant::now();
    let posts = futures::stream::iter(scan.items(args.user.as_deref(), &done))
        .map(|item| {
            let client = &client;
            async move {
                let outcome = match &item.body {
                    Body::Ready(body) => Some(client.post_source(body).await),
                    _ => None,
                };
                (item, outcome)
            }
        })
        .buffered(usize::from(args.concurrency));
    futures::pin_mut!(posts);
    let stop = stop_signal();
    futures::pin_mut!(stop);
    let mut fatal: Option<Fatal> = None;
    let mut interrupted = false;
    loop {
        let next = tokio::select! {
            next = posts.next() => next,
            () = &mut stop => {
                interrupted = true;
                break;
            }
        };
        let Some((item, outcome)) = next else { break };
        match handle(&item, outcome, &mut checkpoint, &mut tally) {
            Ok(Some(refusal)) => progress.println(&refusal),
            Ok(None) => {}
            Err(e) => {
                fatal = Some(e);
                break;
            }
        }
        progress.inc(tally.message());
    }
    progress.finish();
    println!(
        "import: {} accepted ({} new, {} already in Cosmo), {} skipped (already imported), \
         {} refused, in {:.1}s; checkpoint {}",
        tally.new + tally.duplicate,
        tally.new,
        tally.duplicate,
        tally.skipped,
        tally.refused,
        started.elapsed().as_secs_f64(),
        checkpoint.path.display()
    );
    if let Some(Fatal(e)) = fatal {
        anyhow::bail!("import stopped: {e}; re-run the same command to continue");
    }
    if interrupted {
        anyhow::bail!("import interrupted; re-run the same command to continue");
    }
    let mut failed = tally.refused;
    if args.follow {
        let sources: HashMap<String, String> = checkpoint
            .done()
            .iter()
            .map(|(item, source)| (source.clone(), item.clone()))
            .collect();
        let timeout = args.follow_timeout.map(Duration::from_secs);
        failed += follow(&client, sources, args.concurrency, timeout).await?;
    }
    if tally.refused > 0 {
        anyhow::bail!(
            "{} item(s) refused; fix them and re-run (accepted items are skipped)",
            tally.refused
        );
    }
    anyhow::ensure!(failed == 0, "{failed} source(s) failed in the pipeline");
    Ok(())
}

/// Records one item's outcome; returns the refusal line to print, if refused.
fn handle(
    item: &Item,
    outcome: Option<Result<Posted, Fatal>>,
    checkpoint: &mut Checkpoint,
    tally: &mut Tally,
) -> Result<Option<String>, Fatal> {
    let refused = |tally: &mut Tally, why: &str| {
        tally.refused += 1;
        Some(format!("refused {}: {why}", item.place))
    };
    Ok(match (&item.body, outcome) {
        (Body::Skipped, _) => {
            tally.skipped += 1;
            None
        }
        (Body::Invalid(why), _) => refused(tally, why),
        (
            Body::Ready(_),
            Some(Ok(Posted::Accepted {
                entity_key,
                duplicate,
            })),
        ) => {
            checkpoint
                .record(&item.key, &entity_key)
                .map_err(|e| Fatal(e.to_string()))?;
            if duplicate {
                tally.duplicate += 1;
            } else {
                tally.new += 1;
            }
            None
        }
        (Body::Ready(_), Some(Ok(Posted::Refused(why)))) => refused(tally, &why),
        (Body::Ready(_), Some(Err(fatal))) => return Err(fatal),
        (Body::Ready(_), None) => unreachable!("ready items are posted"),
    })
}

/// Polls every Source (entity key → item key) until it is extracted or failed for
/// good; returns how many failed (or were still unfinished at the timeout).
async fn follow(
    client: &Client,
    sources: HashMap<String, String>,
    concurrency: u16,
    timeout: Option<Duration>,
) -> anyhow::Result<usize> {
    let progress = Progress::new("extract", sources.len() as u64);
    let started = Instant::now();
    let mut pending: Vec<String> = sources.keys().cloned().collect();
    pending.sort();
    let mut last_error: HashMap<String, String> = HashMap::new();
    let (mut extracted, mut failed) = (0usize, 0usize);
    let stop = stop_signal();
    futures::pin_mut!(stop);
    while !pending.is_empty() {
        let round = futures::stream::iter(pending.clone())
            .map(|key| async move {
                let state = client.source_progress(&key).await;
                (key, state)
            })
            .buffer_unordered(usize::from(concurrency))
            .collect::<Vec<_>>();
        let results = tokio::select! {
            r = round => r,
            () = &mut stop => anyhow::bail!("--follow interrupted; the import itself is complete"),
        };
        let mut still = Vec::new();
        for (key, state) in results {
            let place = sources.get(&key).map_or(key.as_str(), String::as_str);
            match state.map_err(|Fatal(e)| anyhow::anyhow!(e))? {
                client::Progress::Extracted => {
                    extracted += 1;
                    progress.inc(format!("extracted {extracted}, failed {failed}"));
                }
                client::Progress::Failed(why) => {
                    failed += 1;
                    progress.println(&format!("failed {place} (source {key}): {why}"));
                    progress.inc(format!("extracted {extracted}, failed {failed}"));
                }
                client::Progress::Working(error) => {
                    if let Some(error) = error
                        && last_error.get(&key) != Some(&error)
                    {
                        progress.println(&format!("retrying {place} (source {key}): {error}"));
                        last_error.insert(key.clone(), error);
                    }
                    still.push(key);
                }
            }
        }
        pending = still;
        if pending.is_empty() {
            break;
        }
        if timeout.is_some_and(|t| started.elapsed() >= t) {
            progress.finish();
            println!(
                "follow: {extracted} extracted, {failed} failed, {} still in the pipeline after the timeout",
                pending.len()
            );
            return Ok(failed + pending.len());
        }
        tokio::select! {
            () = tokio::time::sleep(Duration::from_secs(1)) => {}
            () = &mut stop => anyhow::bail!("--follow interrupted; the import itself is complete"),
        }
    }
    progress.finish();
    println!("follow: {extracted} extracted, {failed} failed");
    Ok(failed)
}

/// Ctrl-C or SIGTERM.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
