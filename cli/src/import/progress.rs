//! Progress on stderr: an indicatif bar (count, rate, ETA) on a terminal; otherwise
//! (logs, tests, CI) a plain line every few seconds and one at the end.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

/// How often the plain reporter prints a line.
const PLAIN_EVERY: Duration = Duration::from_secs(2);

#[derive(Debug)]
pub struct Progress {
    label: &'static str,
    total: u64,
    bar: Option<ProgressBar>,
    plain: Mutex<Plain>,
}

#[derive(Debug)]
struct Plain {
    started: Instant,
    last_line: Instant,
    position: u64,
    message: String,
}

impl Progress {
    pub fn new(label: &'static str, total: u64) -> Self {
        let bar = std::io::stderr().is_terminal().then(|| {
            let style = ProgressStyle::with_template(
                "{prefix} [{bar:25}] {pos}/{len} {rate} ETA {eta} {wide_msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .with_key(
                "rate",
                |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.1}/s", s.per_sec());
                },
            )
            .progress_chars("=> ");
            let bar = ProgressBar::new(total).with_style(style).with_prefix(label);
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        let now = Instant::now();
        Self {
            label,
            total,
            bar,
            plain: Mutex::new(Plain {
                started: now,
                last_line: now,
                position: 0,
                message: String::new(),
            }),
        }
    }

    /// One more item done; `message` is the running tally.
    pub fn inc(&self, message: String) {
        if let Some(bar) = &self.bar {
            bar.inc(1);
            bar.set_message(message);
            return;
        }
        let mut p = self.plain.lock().unwrap_or_else(|e| e.into_inner());
        p.position += 1;
        p.message = message;
        if p.last_line.elapsed() >= PLAIN_EVERY {
            p.last_line = Instant::now();
            eprintln!("{}", self.line(&p));
        }
    }

    /// A message above the bar (or on its own line).
    pub fn println(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.println(line),
            None => eprintln!("{line}"),
        }
    }

    pub fn finish(&self) {
        match &self.bar {
            // The caller prints the summary in its place.
            Some(bar) => bar.finish_and_clear(),
            None => {
                let p = self.plain.lock().unwrap_or_else(|e| e.into_inner());
                eprintln!("{}", self.line(&p));
            }
        }
    }

    fn line(&self, p: &Plain) -> String {
        let secs = p.started.elapsed().as_secs_f64().max(0.001);
        let rate = p.position as f64 / secs;
        let left = self.total.saturating_sub(p.position);
        let eta = if rate > 0.0 {
            format!("{:.0}s", left as f64 / rate)
        } else {
            "?".into()
        };
        format!(
            "{}: {}/{} ({rate:.1}/s, ETA {eta}) {}",
            self.label, p.position, self.total, p.message
        )
    }
}
