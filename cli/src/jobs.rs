//! `cosmo jobs list|counts|retry`: the queue as an operator sees it, read and changed
//! directly on the configured database (no running server needed). States are
//! [`JobState`]s: pending, running, done, failed (will retry), dead (failed for good).

use chrono::{DateTime, Utc};
use clap::{ArgGroup, Subcommand};
use cosmo_api::routes::admin::JobView;
use cosmo_shared::queue::{JobCounts, JobFilter, JobKind, JobRecord, JobState, Retry};
use cosmo_shared::services::Services;

#[derive(Debug, Subcommand)]
pub enum JobsCommand {
    /// List jobs, newest first: id, kind, state, attempts, run/done times, last error.
    List {
        /// pending, running, done, failed (will retry) or dead (failed for good).
        #[arg(long, value_parser = parse_state)]
        state: Option<JobState>,
        /// Only this kind, e.g. process-source.
        #[arg(long, value_parser = parse_kind)]
        kind: Option<JobKind>,
        #[arg(long, default_value_t = 50)]
        limit: usize,
        /// One JSON object per line instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// How many jobs each kind has in each state.
    Counts {
        /// JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Put jobs back to pending with fresh attempts: the given ids, or with `--failed`
    /// every job that failed for good (dead).
    #[command(group(ArgGroup::new("which").required(true).args(["job_ids", "failed"])))]
    Retry {
        /// Jobs to retry (failed, dead or done ones).
        job_ids: Vec<String>,
        /// Every dead job (of `--kind`, if given).
        #[arg(long, alias = "dead", conflicts_with = "job_ids")]
        failed: bool,
        /// With `--failed`: only this kind.
        #[arg(long, requires = "failed", value_parser = parse_kind)]
        kind: Option<JobKind>,
    },
}

fn parse_state(s: &str) -> Result<JobState, String> {
    s.parse().map_err(|e| format!("{e}"))
}

fn parse_kind(s: &str) -> Result<JobKind, String> {
    s.parse().map_err(|e| format!("{e}"))
}

pub async fn run(svc: &Services, cmd: JobsCommand) -> anyhow::Result<()> {
    let q = &svc.queue;
    match cmd {
        JobsCommand::List {
            state,
            kind,
            limit,
            json,
        } => {
            let jobs = q.list_jobs(&JobFilter { state, kind, limit }).await?;
            if json {
                for j in &jobs {
                    println!("{}", serde_json::to_string(&JobView::from(j.clone()))?);
                }
            } else if jobs.is_empty() {
                eprintln!("no jobs");
            } else {
                print!("{}", jobs_table(&jobs));
            }
        }
        JobsCommand::Counts { json } => {
            let counts = JobCounts::tally(&q.state_counts().await?);
            if json {
                println!("{}", serde_json::to_string_pretty(&counts)?);
            } else {
                print!("{}", counts_table(&counts));
            }
        }
        JobsCommand::Retry {
            job_ids,
            failed,
            kind,
        } => {
            if failed {
                let n = q.retry_dead(kind).await?;
                let which = kind.map_or(String::new(), |k| format!(" {k}"));
                println!("retried {n} dead{which} job(s)");
                return Ok(());
            }
            let mut refused = 0;
            for id in &job_ids {
                match q.retry(id).await? {
                    Retry::Done(job) => {
                        println!("retried {id} ({}, was {})", job.kind, job.state());
                    }
                    Retry::NotFound => {
                        eprintln!("no job {id}");
                        refused += 1;
                    }
                    refused_one => {
                        eprintln!("{}", refused_one.refusal(id).unwrap_or_default());
                        refused += 1;
                    }
                }
            }
            anyhow::ensure!(
                refused == 0,
                "{refused} of {} job(s) not retried",
                job_ids.len()
            );
        }
    }
    Ok(())
}

/// The error column's width; longer errors end in `…` (`--json` has them whole).
const ERROR_WIDTH: usize = 80;

fn jobs_table(jobs: &[JobRecord]) -> String {
    let time = |t: Option<DateTime<Utc>>| {
        t.map_or_else(
            || "-".to_owned(),
            |t| t.format("%Y-%m-%d %H:%M:%S").to_string(),
        )
    };
    let rows: Vec<[String; 7]> = jobs
        .iter()
        .map(|j| {
            [
                j.job_id.clone(),
                j.kind.to_string(),
                j.state().to_string(),
                format!("{}/{}", j.attempts, j.max_attempts),
                time(j.run_at),
                time(j.done_at),
                one_line(j.last_error.as_deref().unwrap_or(""), ERROR_WIDTH),
            ]
        })
        .collect();
    let header = [
        "ID",
        "KIND",
        "STATE",
        "ATTEMPTS",
        "RUN_AT",
        "DONE_AT",
        "LAST_ERROR",
    ]
    .map(str::to_owned);
    table(&header, &rows)
}

fn counts_table(counts: &JobCounts) -> String {
    let header = ["KIND", "PENDING", "RUNNING", "DONE", "FAILED", "DEAD"].map(str::to_owned);
    let row = |kind: &str, totals: &cosmo_shared::queue::StateTotals| {
        let mut r: [String; 6] = Default::default();
        r[0] = kind.to_owned();
        for (i, s) in JobState::ALL.iter().enumerate() {
            r[i + 1] = totals.get(*s).to_string();
        }
        r
    };
    let mut rows: Vec<[String; 6]> = counts.kinds.iter().map(|(k, t)| row(k, t)).collect();
    rows.push(row("TOTAL", &counts.total));
    table(&header, &rows)
}

/// Left-aligned columns two spaces apart; the last column is not padded.
fn table<const N: usize>(header: &[String; N], rows: &[[String; N]]) -> String {
    let mut widths = header.each_ref().map(|h| h.chars().count());
    for r in rows {
        for (w, cell) in widths.iter_mut().zip(r) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for r in std::iter::once(header).chain(rows) {
        let mut line = String::new();
        for (i, cell) in r.iter().enumerate() {
            if i + 1 == N {
                line.push_str(cell);
            } else {
                line.push_str(&format!("{cell:<width$}  ", width = widths[i]));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// `text` on one line (whitespace runs collapsed), at most `width` characters.
fn one_line(text: &str, width: usize) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= width {
        flat
    } else {
        let mut cut: String = flat.chars().take(width - 1).collect();
        cut.push('…');
        cut
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_are_flattened_and_cut() {
        assert_eq!(one_line("a\n  b\tc", 10), "a b c");
        assert_eq!(one_line("abcdefghijkl", 5), "abcd…");
    }

    #[test]
    fn tables_align_columns() {
        let header = ["A", "BB"].map(str::to_owned);
        let rows = [["xyz", "1"].map(str::to_owned)];
        assert_eq!(table(&header, &rows), "A    BB\nxyz  1\n");
    }
}
