//! Calendar arithmetic and the number words of dates: years, ordinals, counts
//! ("three months ago"), seasons, and the bounds of days, months and calendar units.

use chrono::{DateTime, Datelike, Duration, NaiveDate, TimeZone, Utc};

/// A four-digit year from 1900 to 2199.
pub(super) fn year(word: &str) -> Option<i32> {
    (word.len() == 4)
        .then(|| word.parse::<i32>().ok())
        .flatten()
        .filter(|y| (1900..2200).contains(y))
}

/// An optional year after a month or season ("May 2023", "summer of 2023").
pub(super) fn year_after(words: &[String], k: usize) -> (Option<i32>, usize) {
    let w = |k: usize| words.get(k).map_or("", String::as_str);
    if let Some(y) = year(w(k)) {
        (Some(y), 1)
    } else if w(k) == "of"
        && let Some(y) = year(w(k + 1))
    {
        (Some(y), 2)
    } else {
        (None, 0)
    }
}

/// A day of the month: "5", "5th", "21st".
pub(super) fn ordinal(word: &str) -> Option<u32> {
    let digits = word.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let suffix = &word[digits.len()..];
    if !matches!(suffix, "" | "st" | "nd" | "rd" | "th") || digits.is_empty() || digits.len() > 2 {
        return None;
    }
    digits.parse().ok().filter(|d| (1..=31).contains(d))
}

/// A count and the words it took: "3", "three", "a", "a few", "a couple of".
pub(super) fn count(words: &[String], i: usize) -> Option<(i64, usize)> {
    let w = |k: usize| words.get(k).map_or("", String::as_str);
    let numbers = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
        "twelve",
    ];
    match (w(i), w(i + 1), w(i + 2)) {
        ("a", "few", _) | ("few", _, _) => Some((3, if w(i) == "a" { 2 } else { 1 })),
        ("a", "couple", "of") => Some((2, 3)),
        ("a" | "an", _, _) => Some((1, 1)),
        (n, _, _) => n
            .parse::<i64>()
            .ok()
            .filter(|n| (1..=1000).contains(n))
            .or_else(|| numbers.iter().position(|x| *x == n).map(|p| p as i64 + 1))
            .map(|n| (n, 1)),
    }
}

/// The first month of a season (meteorological, northern hemisphere).
pub(super) fn season(word: &str) -> Option<u32> {
    match word {
        "spring" => Some(3),
        "summer" => Some(6),
        "autumn" | "fall" => Some(9),
        "winter" => Some(12),
        _ => None,
    }
}

/// This or last week, weekend, month or year.
pub(super) fn calendar(
    last: bool,
    unit: &str,
    now: DateTime<Utc>,
) -> Option<(DateTime<Utc>, DateTime<Utc>)> {
    let today = now.date_naive();
    let days = Duration::days;
    match unit {
        "week" => {
            let monday = today - days(i64::from(today.weekday().num_days_from_monday()));
            let s = day_start(monday) - days(if last { 7 } else { 0 });
            Some((s, s + days(7)))
        }
        "weekend" => {
            let monday = today - days(i64::from(today.weekday().num_days_from_monday()));
            let saturday = day_start(monday) + days(5) - days(if last { 7 } else { 0 });
            Some((saturday, saturday + days(2)))
        }
        "month" => {
            let (y, m) = months_back(now.year(), now.month(), i64::from(last));
            Some((month_start(y, m)?, month_end(y, m)?))
        }
        "year" => {
            let y = now.year() - i32::from(last);
            Some((month_start(y, 1)?, month_start(y + 1, 1)?))
        }
        _ => None,
    }
}

/// The year and month `n` months before (negative: after) `year`-`month`.
pub(super) fn months_back(year: i32, month: u32, n: i64) -> (i32, u32) {
    let index = i64::from(year) * 12 + i64::from(month) - 1 - n;
    (
        (index.div_euclid(12)) as i32,
        (index.rem_euclid(12)) as u32 + 1,
    )
}

pub(super) fn day_start(d: NaiveDate) -> DateTime<Utc> {
    Utc.from_utc_datetime(&d.and_hms_opt(0, 0, 0).unwrap_or_default())
}

pub(super) fn month_start(year: i32, month: u32) -> Option<DateTime<Utc>> {
    NaiveDate::from_ymd_opt(year, month, 1).map(day_start)
}

pub(super) fn month_end(year: i32, month: u32) -> Option<DateTime<Utc>> {
    let (y, m) = months_back(year, month, -1);
    month_start(y, m)
}
