//! Relative times planted in the chat (an option of the corpus): some events are told
//! with when they happened relative to the session ("yesterday", "two days ago", "last
//! Friday", "last week", "this morning" …), so the date a temporal question asks for is
//! in the session only as a phrase a memory system has to resolve against the session's
//! date. Every phrase refers to the past, as every temporal question asks when something
//! happened. What gets a phrase is drawn from a generator of its own, so the corpus
//! without the option is the one the retrieval figures were measured on.

use chrono::{DateTime, Datelike, Duration, Months, NaiveDate, Utc, Weekday};
use rand::Rng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;

/// How often an event's `say` line gets a phrase, when the option is on.
const SHARE: f64 = 0.5;

/// Added to the first session's timestamp to seed a conversation's generator.
const SEED: u64 = 0x7E1A_71BE;

/// A phrase planted in a `say` line and the date it refers to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Relative {
    /// What the speaker says: "yesterday", "last Friday" …
    pub phrase: String,
    /// How the clause with the phrase reads after the line: "that was yesterday".
    pub clause: String,
    /// The expected answer of the step's temporal question: "7 May 2023", "the week of
    /// 1 May 2023", "April 2023".
    pub answer: String,
}

/// What a phrase refers to, relative to the day it is said on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Refers {
    /// That many days before.
    DaysBack(i64),
    /// The calendar week (Monday to Sunday) before the one it is said in.
    LastWeek,
    /// The Saturday and Sunday of the week before.
    LastWeekend,
    /// The calendar month before.
    LastMonth,
}

/// The phrases with fixed meanings; weekday names are added by [`draw`].
const FIXED: &[(&str, Refers)] = &[
    ("this morning", Refers::DaysBack(0)),
    ("yesterday", Refers::DaysBack(1)),
    ("last night", Refers::DaysBack(1)),
    ("the day before yesterday", Refers::DaysBack(2)),
    ("two days ago", Refers::DaysBack(2)),
    ("three days ago", Refers::DaysBack(3)),
    ("a week ago", Refers::DaysBack(7)),
    ("last week", Refers::LastWeek),
    ("last weekend", Refers::LastWeekend),
    ("last month", Refers::LastMonth),
];

/// How the phrase joins the line.
const CLAUSES: &[&str] = &["that was {t}", "this was {t}", "it happened {t}"];

/// Words that tell a time already: a line with one gets no phrase ("had her spay
/// surgery today, that was last month" would contradict itself).
const TIME_WORDS: &[&str] = &[
    "today",
    "tonight",
    "yesterday",
    "tomorrow",
    "ago",
    "morning",
    "evening",
    "night",
    "weekend",
    "week",
    "weeks",
    "month",
    "months",
    "year",
    "years",
    "days",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
];

/// Whether `line` already says when something happened or will.
pub fn tells_a_time(line: &str) -> bool {
    line.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| TIME_WORDS.contains(&w))
}

/// A conversation's own generator for relative times.
pub fn generator(first_session: DateTime<Utc>) -> StdRng {
    rand::SeedableRng::seed_from_u64(SEED.wrapping_add(first_session.timestamp() as u64))
}

/// Whether the next event gets a phrase, and which, said on `at` (never for a line that
/// [`tells_a_time`]: callers leave those out).
pub fn draw(rng: &mut StdRng, at: DateTime<Utc>) -> Option<Relative> {
    if !rng.random_bool(SHARE) {
        return None;
    }
    let (phrase, refers) = if rng.random_bool(0.3) {
        // A weekday two to six days before: "on Tuesday", "last Friday".
        let back = rng.random_range(2..=6);
        let day = weekday_name((at.date_naive() - Duration::days(back)).weekday());
        let phrase = if rng.random_bool(0.5) {
            format!("on {day}")
        } else {
            format!("last {day}")
        };
        (phrase, Refers::DaysBack(back))
    } else {
        let (phrase, refers) = FIXED.choose(rng).copied().unwrap_or(FIXED[1]);
        (phrase.to_owned(), refers)
    };
    let clause = CLAUSES.choose(rng).copied().unwrap_or(CLAUSES[0]);
    Some(Relative {
        clause: clause.replace("{t}", &phrase),
        answer: resolve(refers, at.date_naive()),
        phrase,
    })
}

/// The expected answer for what `refers` to, said on `day`.
fn resolve(refers: Refers, day: NaiveDate) -> String {
    let monday = day - Duration::days(i64::from(day.weekday().num_days_from_monday()));
    match refers {
        Refers::DaysBack(n) => long_date(day - Duration::days(n)),
        Refers::LastWeek => format!("the week of {}", long_date(monday - Duration::days(7))),
        Refers::LastWeekend => format!("the weekend of {}", long_date(monday - Duration::days(2))),
        Refers::LastMonth => {
            let first = day.with_day(1).unwrap_or(day);
            let before = first.checked_sub_months(Months::new(1)).unwrap_or(first);
            before.format("%B %Y").to_string()
        }
    }
}

/// `7 May 2023`.
pub fn long_date(day: NaiveDate) -> String {
    day.format("%-d %B %Y").to_string()
}

/// A line with its clause: `…the shelter, that was yesterday`.
pub fn told(line: &str, relative: &Relative) -> String {
    let line = line.trim_end();
    if line.ends_with(|c: char| c.is_alphanumeric()) {
        format!("{line}, {}", relative.clause)
    } else {
        format!("{line} {}", relative.clause)
    }
}

fn weekday_name(day: Weekday) -> &'static str {
    match day {
        Weekday::Mon => "Monday",
        Weekday::Tue => "Tuesday",
        Weekday::Wed => "Wednesday",
        Weekday::Thu => "Thursday",
        Weekday::Fri => "Friday",
        Weekday::Sat => "Saturday",
        Weekday::Sun => "Sunday",
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    fn day(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    #[test]
    fn phrases_resolve_against_the_day_they_are_said_on() {
        // 8 May 2023 was a Monday.
        let monday = day(2023, 5, 8);
        assert_eq!(resolve(Refers::DaysBack(1), monday), "7 May 2023");
        assert_eq!(resolve(Refers::DaysBack(0), monday), "8 May 2023");
        assert_eq!(resolve(Refers::DaysBack(3), monday), "5 May 2023");
        assert_eq!(resolve(Refers::LastWeek, monday), "the week of 1 May 2023");
        assert_eq!(
            resolve(Refers::LastWeekend, monday),
            "the weekend of 6 May 2023"
        );
        assert_eq!(resolve(Refers::LastMonth, monday), "April 2023");
        // Across a month and a year.
        assert_eq!(
            resolve(Refers::DaysBack(2), day(2024, 3, 1)),
            "28 February 2024"
        );
        assert_eq!(
            resolve(Refers::LastMonth, day(2024, 1, 15)),
            "December 2023"
        );
        // A Sunday is still in the week that began on the Monday before.
        assert_eq!(
            resolve(Refers::LastWeek, day(2023, 5, 14)),
            "the week of 1 May 2023"
        );
    }

    #[test]
    fn a_drawn_weekday_names_the_day_its_answer_gives() {
        let at = Utc.with_ymd_and_hms(2023, 5, 8, 18, 30, 0).unwrap();
        let mut rng = generator(at);
        let mut weekdays = 0;
        for _ in 0..400 {
            let Some(r) = draw(&mut rng, at) else {
                continue;
            };
            assert!(r.clause.ends_with(&r.phrase), "{r:?}");
            let named = r
                .phrase
                .strip_prefix("on ")
                .or(r.phrase.strip_prefix("last "));
            if let Some(name) = named.filter(|n| n.ends_with("day")) {
                weekdays += 1;
                let answer = NaiveDate::parse_from_str(&r.answer, "%-d %B %Y").unwrap();
                assert_eq!(weekday_name(answer.weekday()), name, "{r:?}");
                let back = (at.date_naive() - answer).num_days();
                assert!((2..=6).contains(&back), "{r:?}");
            }
        }
        assert!(weekdays > 10, "{weekdays} weekday phrases");
    }

    #[test]
    fn the_clause_follows_the_line() {
        let r = Relative {
            phrase: "yesterday".into(),
            clause: "that was yesterday".into(),
            answer: "7 May 2023".into(),
        };
        assert_eq!(
            told("I went to a support group", &r),
            "I went to a support group, that was yesterday"
        );
        assert_eq!(
            told("we adopted a pup!! ", &r),
            "we adopted a pup!! that was yesterday"
        );
    }
}
