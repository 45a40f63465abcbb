//! Repeated log lines, bounded. During an outage every request and every job fails the
//! same way; one line per failure would flood the log (and its disk) while saying
//! nothing new. [`admit`] lets the first line of a kind through, then at most one per
//! [`EVERY`] per kind, and says how many were dropped since the last one written
//! (the line's `repeated` field). A kind is the call site and the message.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// At most one line per kind this often.
pub const EVERY: Duration = Duration::from_secs(10);

/// Kinds remembered at once; beyond that, a call site's messages share one kind.
const KINDS: usize = 512;

/// The part of a message that names its kind (ids and details past it do not).
const KEY_CHARS: usize = 160;

#[derive(Debug)]
struct Seen {
    written: Instant,
    dropped: u64,
}

/// The limiter, apart from the process-wide instance and the clock.
#[derive(Debug)]
pub struct Repeats {
    every: Duration,
    seen: HashMap<String, Seen>,
}

impl Repeats {
    pub fn new(every: Duration) -> Self {
        Self {
            every,
            seen: HashMap::new(),
        }
    }

    /// `Some(dropped since the last line written)` if this line is to be written.
    pub fn admit(&mut self, site: &str, message: &str, now: Instant) -> Option<u64> {
        let mut key: String = site.to_owned();
        key.push('\u{1f}');
        key.extend(message.chars().take(KEY_CHARS));
        if self.seen.len() >= KINDS && !self.seen.contains_key(&key) {
            let every = self.every;
            self.seen
                .retain(|_, s| now.duration_since(s.written) < every);
            if self.seen.len() >= KINDS {
                key.truncate(site.len());
            }
        }
        match self.seen.get_mut(&key) {
            Some(s) if now.duration_since(s.written) < self.every => {
                s.dropped += 1;
                None
            }
            Some(s) => {
                let dropped = std::mem::take(&mut s.dropped);
                s.written = now;
                Some(dropped)
            }
            None => {
                self.seen.insert(
                    key,
                    Seen {
                        written: now,
                        dropped: 0,
                    },
                );
                Some(0)
            }
        }
    }
}

/// The process-wide limiter: `Some(dropped)` if the line is to be written now, with
/// how many of its kind were dropped since the last one.
pub fn admit(site: &str, message: &str) -> Option<u64> {
    static REPEATS: OnceLock<Mutex<Repeats>> = OnceLock::new();
    REPEATS
        .get_or_init(|| Mutex::new(Repeats::new(EVERY)))
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .admit(site, message, Instant::now())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_line_of_a_kind_is_written_then_one_per_interval_with_the_count() {
        let mut r = Repeats::new(Duration::from_secs(10));
        let t = Instant::now();
        assert_eq!(r.admit("api", "pool timed out", t), Some(0));
        for i in 1..=50 {
            assert_eq!(
                r.admit("api", "pool timed out", t + Duration::from_millis(i * 100)),
                None
            );
        }
        assert_eq!(
            r.admit("api", "pool timed out", t + Duration::from_secs(11)),
            Some(50),
            "the next line says how many were dropped"
        );
        assert_eq!(
            r.admit("api", "pool timed out", t + Duration::from_secs(12)),
            None
        );
    }

    #[test]
    fn other_messages_and_sites_are_their_own_kinds() {
        let mut r = Repeats::new(Duration::from_secs(10));
        let t = Instant::now();
        assert_eq!(r.admit("api", "pool timed out", t), Some(0));
        assert_eq!(r.admit("api", "no such table: sources", t), Some(0));
        assert_eq!(r.admit("jobs", "pool timed out", t), Some(0));
        // Past the first 160 characters a message is the same kind.
        let long = "x".repeat(200);
        assert_eq!(r.admit("api", &format!("{long}1"), t), Some(0));
        assert_eq!(r.admit("api", &format!("{long}2"), t), None);
    }

    #[test]
    fn memory_stays_bounded_under_many_kinds() {
        let mut r = Repeats::new(Duration::from_secs(10));
        let t = Instant::now();
        for i in 0..10_000 {
            r.admit("jobs", &format!("job {i} failed"), t);
        }
        assert!(r.seen.len() <= KINDS + 1, "{}", r.seen.len());
        // Past the bound, the site's lines share one kind: still limited.
        assert_eq!(r.admit("jobs", "job 20000 failed", t), None);
    }
}
