//! When each turn of a transcript or message of a Slack thread was said, where the raw
//! content gives it: an absolute time (RFC 3339, or seconds since the epoch as Slack's
//! `ts`), or an offset from the start of the recording (`01:02:03`, `02:03`, seconds
//! with a fraction) counted from the Source's event time. A note taken from a turn is
//! dated by it ([`RawContent::said_at`]).

use chrono::{DateTime, Duration, Utc};

use super::RawContent;

impl RawContent {
    /// Each dated turn or message (its text and when it was said), in order; `start` is
    /// the Source's event time, which offsets count from. Turns without a readable
    /// time are left out.
    pub fn dated_lines(&self, start: DateTime<Utc>) -> Vec<(&str, DateTime<Utc>)> {
        let lines: Vec<(&str, Option<&str>)> = match self {
            Self::Transcript(t) => t
                .turns
                .iter()
                .map(|t| (t.text.as_str(), t.timestamp.as_deref()))
                .collect(),
            Self::Slack(s) => s
                .messages
                .iter()
                .map(|m| (m.text.as_str(), m.ts.as_deref()))
                .collect(),
            Self::Email(_) | Self::Text(_) => Vec::new(),
        };
        lines
            .into_iter()
            .filter_map(|(text, stamp)| Some((text, time_of(stamp?, start)?)))
            .collect()
    }

    /// When `note` (a sentence or passage taken from the content) was said: the time
    /// of the first dated turn that holds it (compared without case and extra spaces),
    /// else `event_time`.
    pub fn said_at(&self, note: &str, event_time: DateTime<Utc>) -> DateTime<Utc> {
        let wanted = squeeze(note.trim_end_matches('…'));
        if wanted.is_empty() {
            return event_time;
        }
        self.dated_lines(event_time)
            .into_iter()
            .find(|(text, _)| squeeze(text).contains(&wanted))
            .map_or(event_time, |(_, at)| at)
    }
}

fn squeeze(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// A timestamp as a time: absolute, or an offset from `start`.
fn time_of(stamp: &str, start: DateTime<Utc>) -> Option<DateTime<Utc>> {
    let stamp = stamp.trim();
    if let Ok(t) = DateTime::parse_from_rfc3339(stamp) {
        return Some(t.with_timezone(&Utc));
    }
    if stamp.contains(':') {
        // [[h:]m:]s, the seconds perhaps with a fraction.
        let mut seconds = 0.0;
        for part in stamp.split(':') {
            let v: f64 = part.parse().ok().filter(|v: &f64| *v >= 0.0)?;
            seconds = seconds * 60.0 + v;
        }
        return offset(start, seconds);
    }
    let v: f64 = stamp.parse().ok()?;
    // Seconds since the epoch from 2001 on (Slack's `ts`); smaller numbers are offsets.
    if v >= 1e9 {
        DateTime::from_timestamp_micros((v * 1e6) as i64)
    } else {
        offset(start, v)
    }
}

fn offset(start: DateTime<Utc>, seconds: f64) -> Option<DateTime<Utc>> {
    (seconds.is_finite() && seconds < 1e7)
        .then(|| start + Duration::milliseconds((seconds * 1000.0) as i64))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::raw::{SlackMessage, SlackThread, Transcript, Turn};

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    fn transcript(turns: &[(&str, Option<&str>)]) -> RawContent {
        RawContent::Transcript(Transcript {
            title: None,
            turns: turns
                .iter()
                .map(|(text, stamp)| Turn {
                    speaker: Some("Alice".into()),
                    text: (*text).into(),
                    timestamp: stamp.map(Into::into),
                })
                .collect(),
        })
    }

    #[test]
    fn a_note_is_said_when_its_turn_was() {
        let start = at("2023-05-08T18:00:00Z");
        let raw = transcript(&[
            ("Morning all.", Some("00:00:05")),
            (
                "We ship the   beta on Friday. Any objections?",
                Some("01:02:03"),
            ),
            ("None from me.", Some("2023-05-08T19:30:00Z")),
        ]);
        assert_eq!(
            raw.said_at("we ship the beta on Friday.", start),
            at("2023-05-08T19:02:03Z")
        );
        assert_eq!(
            raw.said_at("None from me.", start),
            at("2023-05-08T19:30:00Z")
        );
        // Not in a dated turn: the Source's event time.
        assert_eq!(raw.said_at("Something else.", start), start);
        let undated = transcript(&[("We ship on Friday.", None)]);
        assert_eq!(undated.said_at("We ship on Friday.", start), start);
    }

    #[test]
    fn slack_ts_is_seconds_since_the_epoch() {
        let raw = RawContent::Slack(SlackThread {
            channel: "eng".into(),
            messages: vec![SlackMessage {
                user: "bob".into(),
                text: "Deploy is green.".into(),
                ts: Some("1700000001.000200".into()),
            }],
        });
        let start = at("2023-11-14T00:00:00Z");
        assert_eq!(
            raw.said_at("Deploy is green.", start).timestamp(),
            1_700_000_001
        );
        assert_eq!(time_of("not a time", start), None);
        assert_eq!(time_of("12:xx", start), None);
        assert_eq!(time_of("90", start), Some(start + Duration::seconds(90)));
    }
}
