//! The notion of "now". Every job and every write takes its time from a [`Clock`], so
//! tests and back-fills can move time.

use std::sync::{Arc, Mutex};

use chrono::{DateTime, Duration, Utc};

/// A source of the current time.
pub trait Clock: Send + Sync + std::fmt::Debug {
    fn now(&self) -> DateTime<Utc>;
}

/// The wall clock, truncated to microseconds so that times survive a round trip through
/// every store unchanged (Neo4j and SQLite keep microseconds, not nanoseconds).
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        truncate_to_micros(Utc::now())
    }
}

/// A clock that only moves when told to. Shared by clones.
#[derive(Debug, Clone)]
pub struct ManualClock(Arc<Mutex<DateTime<Utc>>>);

impl ManualClock {
    pub fn new(start: DateTime<Utc>) -> Self {
        Self(Arc::new(Mutex::new(truncate_to_micros(start))))
    }

    pub fn set(&self, to: DateTime<Utc>) {
        *self.0.lock().expect("clock lock") = truncate_to_micros(to);
    }

    pub fn advance(&self, by: Duration) {
        let mut now = self.0.lock().expect("clock lock");
        *now += by;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> DateTime<Utc> {
        *self.0.lock().expect("clock lock")
    }
}

pub fn truncate_to_micros(t: DateTime<Utc>) -> DateTime<Utc> {
    DateTime::from_timestamp_micros(t.timestamp_micros()).unwrap_or(t)
}
