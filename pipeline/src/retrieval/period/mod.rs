//! Dates a query names — "yesterday", "last week", "three months ago", "in May",
//! "on 5 May 2023", "last summer", "since March", "before 2024" — resolved to a period
//! of event time, so that explore can prefer what happened then (see `route.rs`).
//!
//! Resolution is against the request's clock, in UTC (Cosmo keeps no time zone per
//! user): "last week" is the Monday-to-Sunday week before this one; a month or season
//! without a year is the latest one that began by now ("in May", asked in March 2025, is
//! May 2024); "N days ago" is a day with a margin of a quarter of N on either side (at
//! least one day), "N weeks ago" a week each side, "N months/years ago" that calendar
//! month or year. Weekdays ("last Tuesday", "on Tuesday") are the latest such day before
//! today. A month name counts as a date only beside a preposition or a number ("in
//! May", "May 5") — "may" and "march" are also verbs. The first phrase found wins.

mod calendar;
#[cfg(test)]
mod tests;

use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc, Weekday};
use serde::Serialize;

use self::calendar::{
    calendar, count, day_start, month_end, month_start, months_back, ordinal, season, year,
    year_after,
};

/// A period of event time a query named; either bound may be open.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Period {
    /// The words that named it, as the query has them (lower-cased).
    pub phrase: String,
    /// At or after.
    pub since: Option<DateTime<Utc>>,
    /// Before.
    pub until: Option<DateTime<Utc>>,
}

const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// Their usual abbreviations, in the same order.
const MONTHS_SHORT: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// The month a word names (1–12): a month's name, its abbreviation, or "sept".
fn month(word: &str) -> Option<u32> {
    MONTHS
        .iter()
        .position(|m| *m == word)
        .or_else(|| MONTHS_SHORT.iter().position(|m| *m == word))
        .or_else(|| (word == "sept").then_some(8))
        .map(|i| i as u32 + 1)
}

const WEEKDAYS: [(&str, Weekday); 7] = [
    ("monday", Weekday::Mon),
    ("tuesday", Weekday::Tue),
    ("wednesday", Weekday::Wed),
    ("thursday", Weekday::Thu),
    ("friday", Weekday::Fri),
    ("saturday", Weekday::Sat),
    ("sunday", Weekday::Sun),
];

/// Words before a month name that make it a date.
const DATE_LEAD: &[&str] = &[
    "in",
    "during",
    "early",
    "late",
    "mid",
    "last",
    "this",
    "of",
    "since",
    "until",
    "before",
    "after",
    "on",
    "from",
    "through",
    "throughout",
];

/// The first period `text` names, resolved at `now`.
pub fn find(text: &str, now: DateTime<Utc>) -> Option<Period> {
    let words: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    (0..words.len()).find_map(|i| at(&words, i, now))
}

/// A period named starting at word `i`, with "since/after/before/until" opening it.
fn at(words: &[String], i: usize, now: DateTime<Utc>) -> Option<Period> {
    let w = |k: usize| words.get(k).map_or("", String::as_str);
    let open = match w(i) {
        "since" | "after" => Some(true),
        "before" | "until" => Some(false),
        _ => None,
    };
    let start = if open.is_some() { i + 1 } else { i };
    let (len, since, until) = named(words, start, now, open.is_some())?;
    let (since, until) = match open {
        // Since May: from its start on; after May: once it is over.
        Some(true) if w(i) == "since" => (Some(since), None),
        Some(true) => (Some(until), None),
        Some(false) => (None, Some(since)),
        None => (Some(since), Some(until)),
    };
    Some(Period {
        phrase: words[i..start + len].join(" "),
        since,
        until,
    })
}

/// The period named at `i`: words taken, start, end (exclusive).
fn named(
    words: &[String],
    i: usize,
    now: DateTime<Utc>,
    after_preposition: bool,
) -> Option<(usize, DateTime<Utc>, DateTime<Utc>)> {
    let w = |k: usize| words.get(k).map_or("", String::as_str);
    let today = day_start(now.date_naive());
    let days = Duration::days;
    match (w(i), w(i + 1)) {
        ("today" | "tonight", _) => return Some((1, today, today + days(1))),
        ("this", "morning" | "afternoon" | "evening") => {
            return Some((2, today, today + days(1)));
        }
        ("yesterday", _) => return Some((1, today - days(1), today)),
        ("last", "night") => return Some((2, today - days(1), today)),
        ("last" | "this", "week" | "month" | "year" | "weekend") => {
            return calendar(w(i) == "last", w(i + 1), now).map(|(s, u)| (2, s, u));
        }
        ("earlier", "this") if matches!(w(i + 2), "week" | "month" | "year") => {
            let (s, _) = calendar(false, w(i + 2), now)?;
            return Some((3, s, today + days(1)));
        }
        _ => {}
    }
    // "N days/weeks/months/years ago", "a few days ago", "a couple of weeks ago".
    if let Some((n, taken)) = count(words, i) {
        let unit = w(i + taken);
        let unit = unit.strip_suffix('s').unwrap_or(unit);
        if w(i + taken + 1) == "ago" {
            let len = taken + 2;
            return match unit {
                "day" => {
                    let slack = (n / 4).max(1);
                    let centre = today - days(n);
                    Some((len, centre - days(slack), centre + days(1 + slack)))
                }
                "week" => {
                    let centre = today - days(7 * n);
                    Some((len, centre - days(7), centre + days(8)))
                }
                "month" => {
                    let (y, m) = months_back(now.year(), now.month(), n);
                    Some((len, month_start(y, m)?, month_end(y, m)?))
                }
                "year" => {
                    let y = now.year() - i32::try_from(n).ok()?;
                    Some((len, month_start(y, 1)?, month_start(y + 1, 1)?))
                }
                _ => None,
            };
        }
    }
    // Weekdays: "last Tuesday", "on Tuesday".
    let (lead, wd_at) = match w(i) {
        "last" | "on" => (1, i + 1),
        _ => (0, i),
    };
    if let Some((_, wd)) = WEEKDAYS.iter().find(|(n, _)| *n == w(wd_at))
        && (lead == 1 || after_preposition)
    {
        let mut d = now.date_naive() - days(1);
        while d.weekday() != *wd {
            d -= days(1);
        }
        let s = day_start(d);
        return Some((lead + 1, s, s + days(1)));
    }
    // Seasons: "last summer", "this winter", "in the summer of 2023", "summer 2023".
    let (lead, season_at) = match (w(i), w(i + 1)) {
        ("last" | "this", _) => (1, i + 1),
        ("in" | "during", "the") => (2, i + 2),
        ("in" | "during", _) => (1, i + 1),
        _ => (0, i),
    };
    if let Some(first_month) = season(w(season_at)) {
        let (year, taken) = year_after(words, season_at + 1);
        if lead > 0 || year.is_some() || after_preposition {
            let start_of = |y: i32| month_start(y, first_month);
            let year = match year {
                Some(y) => y,
                None => {
                    // The latest such season that began by now; "last": the one before.
                    let mut y = now.year();
                    while start_of(y)? > now {
                        y -= 1;
                    }
                    if w(i) == "last" && now < start_of(y)? + days(91) {
                        y -= 1;
                    }
                    y
                }
            };
            let s = start_of(year)?;
            let (ey, em) = months_back(year, first_month, -3);
            return Some((lead + 1 + taken, s, month_start(ey, em)?));
        }
    }
    if let Some(found) = year_only(words, i, after_preposition) {
        return Some(found);
    }
    // Dates and months: "in May", "May 2023", "5 May 2023", "May 5th", "on the 5th of May".
    let (lead, at) = match (w(i), w(i + 1)) {
        ("on", "the") => (2, i + 2),
        (l, _) if DATE_LEAD.contains(&l) => (1, i + 1),
        _ => (0, i),
    };
    let day_before = ordinal(w(at));
    let month_at = if day_before.is_some() {
        if w(at + 1) == "of" { at + 2 } else { at + 1 }
    } else {
        at
    };
    let month = month(w(month_at))?;
    let day_after = if day_before.is_none() {
        ordinal(w(month_at + 1))
    } else {
        None
    };
    let day = day_before.or(day_after);
    let after_month = month_at + 1 + usize::from(day_after.is_some());
    let (year, taken) = year_after(words, after_month);
    if lead == 0 && day.is_none() && year.is_none() && !after_preposition {
        return None; // "may", "march" as verbs
    }
    let year = match year {
        Some(y) => y,
        None => {
            let mut y = now.year();
            let began = |y: i32| match day {
                Some(d) => NaiveDate::from_ymd_opt(y, month, d).map(day_start),
                None => month_start(y, month),
            };
            while began(y)? > now {
                y -= 1;
            }
            y
        }
    };
    let len = after_month + taken - i;
    match day {
        Some(d) => {
            let s = day_start(NaiveDate::from_ymd_opt(year, month, d)?);
            Some((len, s, s + days(1)))
        }
        None => Some((len, month_start(year, month)?, month_end(year, month)?)),
    }
}

/// "in 2023", "during 2023", "since 2021": a year after a preposition.
fn year_only(
    words: &[String],
    i: usize,
    after_preposition: bool,
) -> Option<(usize, DateTime<Utc>, DateTime<Utc>)> {
    let w = |k: usize| words.get(k).map_or("", String::as_str);
    let (lead, at) = if DATE_LEAD.contains(&w(i)) {
        (1, i + 1)
    } else {
        (0, i)
    };
    let y = year(w(at))?;
    if lead == 0 && !after_preposition {
        return None;
    }
    Some((lead + 1, month_start(y, 1)?, month_start(y + 1, 1)?))
}
