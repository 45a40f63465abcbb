//! Relative times grounded: "yesterday", "two days ago", "last Friday", "next month" in
//! something said on a known day, followed by the date or period they refer to —
//! `I went to a support group yesterday (7 May 2023)` for a chat of 8 May 2023. What
//! Cosmo shows of a note or a passage is grounded against when it was said, so an agent
//! reading it months later sees the day, not a word that has lost its anchor.
//!
//! Rules, English, without a model:
//! * days: today, tonight, this morning/afternoon/evening, last night, yesterday, the
//!   day before yesterday, tomorrow, the day after tomorrow, N days ago, in N days;
//! * weekdays: `last Friday` (the Friday before the day it was said), `next Friday` or
//!   `this Friday` (the coming one), and a bare `on Friday` by the sentence's tense: the
//!   coming one where it speaks of the future (will, going to, 'll, gonna, plan …), else
//!   the one before;
//! * weeks, weekends, months, years: last/this/next week (`the week of 1 May 2023`),
//!   weekend (`the weekend of 6 May 2023`), month (`April 2023`), year (`2022`), and
//!   N weeks/months/years ago, in N weeks/months/years.
//!
//! An expression already followed by a date in parentheses is left alone, so grounding
//! twice changes nothing.

use chrono::{DateTime, Datelike, Duration, Months, NaiveDate, Utc, Weekday};

/// `text` with each relative time it holds followed by what it refers to, resolved
/// against `said` (when the text was said).
pub fn ground(text: &str, said: DateTime<Utc>) -> String {
    let words = words(text);
    if words.is_empty() {
        return text.to_owned();
    }
    let lower: Vec<String> = words.iter().map(|w| w.text.to_lowercase()).collect();
    let future = speaks_of_future(&lower);
    let day = said.date_naive();
    let mut inserts: Vec<(usize, String)> = Vec::new();
    let mut i = 0;
    while i < lower.len() {
        match expression(&lower, i, day, future) {
            Some((len, when)) => {
                let end = words[i + len - 1].end;
                if !already_dated(&text[end..]) {
                    inserts.push((end, format!(" ({when})")));
                }
                i += len;
            }
            None => i += 1,
        }
    }
    let mut out = text.to_owned();
    for (at, insert) in inserts.into_iter().rev() {
        out.insert_str(at, &insert);
    }
    out
}

/// A day as Cosmo writes it for people and agents: `7 May 2023`.
pub fn date(day: NaiveDate) -> String {
    day.format("%-d %B %Y").to_string()
}

struct Word<'a> {
    text: &'a str,
    end: usize,
}

/// Words (letters, digits and apostrophes) with the byte offset where each ends.
fn words(text: &str) -> Vec<Word<'_>> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        let part = c.is_alphanumeric() || c == '\'' || c == '’';
        match (part, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push(Word {
                    text: &text[s..i],
                    end: i,
                });
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push(Word {
            text: &text[s..],
            end: text.len(),
        });
    }
    out
}

/// Whether what follows an expression is a date in parentheses already (grounded).
fn already_dated(rest: &str) -> bool {
    let Some(inside) = rest.trim_start().strip_prefix('(') else {
        return false;
    };
    inside.starts_with(|c: char| c.is_ascii_digit())
        || inside.starts_with("the week")
        || inside.starts_with("the weekend")
        || MONTHS.iter().any(|m| inside.starts_with(m))
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

fn speaks_of_future(words: &[String]) -> bool {
    words.iter().enumerate().any(|(i, w)| {
        matches!(
            w.as_str(),
            "will" | "gonna" | "plan" | "planning" | "planned" | "tomorrow" | "upcoming"
        ) || w.ends_with("'ll")
            || w.ends_with("’ll")
            || (w == "going" && words.get(i + 1).is_some_and(|n| n == "to"))
    })
}

fn weekday(word: &str) -> Option<Weekday> {
    Some(match word.trim_end_matches("'s").trim_end_matches('s') {
        "monday" => Weekday::Mon,
        "tuesday" => Weekday::Tue,
        "wednesday" => Weekday::Wed,
        "thursday" => Weekday::Thu,
        "friday" => Weekday::Fri,
        "saturday" => Weekday::Sat,
        "sunday" => Weekday::Sun,
        _ => return None,
    })
}

/// "3", "three", "a", "a few", "a couple of" → (count, words taken).
fn count(words: &[String], i: usize) -> Option<(i64, usize)> {
    const NUMBERS: [&str; 12] = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
        "twelve",
    ];
    let w = |k: usize| words.get(k).map_or("", String::as_str);
    match (w(i), w(i + 1), w(i + 2)) {
        ("a", "few", _) => Some((3, 2)),
        ("a", "couple", "of") => Some((2, 3)),
        ("a", "couple", _) => Some((2, 2)),
        ("a" | "an", _, _) => Some((1, 1)),
        ("couple", "of", _) => Some((2, 2)),
        ("few", _, _) => Some((3, 1)),
        (n, _, _) => n
            .parse::<i64>()
            .ok()
            .filter(|n| (1..=60).contains(n))
            .or_else(|| NUMBERS.iter().position(|x| *x == n).map(|p| p as i64 + 1))
            .map(|n| (n, 1)),
    }
}

fn monday_of(day: NaiveDate) -> NaiveDate {
    day - Duration::days(i64::from(day.weekday().num_days_from_monday()))
}

fn week_of(day: NaiveDate) -> String {
    format!("the week of {}", date(monday_of(day)))
}

fn weekend_of(saturday: NaiveDate) -> String {
    format!("the weekend of {}", date(saturday))
}

fn month_of(day: NaiveDate) -> String {
    day.format("%B %Y").to_string()
}

fn shift_months(day: NaiveDate, n: i64) -> Option<NaiveDate> {
    let first = day.with_day(1)?;
    if n >= 0 {
        first.checked_add_months(Months::new(n as u32))
    } else {
        first.checked_sub_months(Months::new((-n) as u32))
    }
}

/// The weekday `target` before `day` (a week back when `day` is one), or after it.
fn nearest(day: NaiveDate, target: Weekday, forward: bool) -> NaiveDate {
    let (from, to) = (
        i64::from(day.weekday().num_days_from_monday()),
        i64::from(target.num_days_from_monday()),
    );
    if forward {
        let ahead = (to - from).rem_euclid(7);
        day + Duration::days(if ahead == 0 { 7 } else { ahead })
    } else {
        let back = (from - to).rem_euclid(7);
        day - Duration::days(if back == 0 { 7 } else { back })
    }
}

/// The relative time starting at word `i`: how many words it spans and what it means.
fn expression(w: &[String], i: usize, day: NaiveDate, future: bool) -> Option<(usize, String)> {
    let at = |k: usize| w.get(k).map_or("", String::as_str);
    let d = Duration::days;
    let (a, b, c) = (at(i), at(i + 1), at(i + 2));
    // Whole phrases first, longest first.
    match (a, b, c, at(i + 3)) {
        ("the", "day", "before", "yesterday") => return Some((4, date(day - d(2)))),
        ("the", "day", "after", "tomorrow") => return Some((4, date(day + d(2)))),
        _ => {}
    }
    match (a, b) {
        ("last", "night") => return Some((2, date(day - d(1)))),
        ("this", "morning" | "afternoon" | "evening") => return Some((2, date(day))),
        _ => {}
    }
    match a {
        "yesterday" => return Some((1, date(day - d(1)))),
        "today" | "tonight" => return Some((1, date(day))),
        "tomorrow" => return Some((1, date(day + d(1)))),
        _ => {}
    }
    // last / this / next + weekday or unit.
    if matches!(a, "last" | "this" | "next" | "past" | "coming") {
        if let Some(wd) = weekday(b) {
            let when = match a {
                "last" | "past" => nearest(day, wd, false),
                "this" if !future && day.weekday() != wd => {
                    // "this Monday" said later in the week, of something done.
                    let back = nearest(day, wd, false);
                    if monday_of(back) == monday_of(day) {
                        back
                    } else {
                        nearest(day, wd, true)
                    }
                }
                "this" if day.weekday() == wd => day,
                _ => nearest(day, wd, true),
            };
            return Some((2, date(when)));
        }
        let step = match a {
            "last" | "past" => -1,
            "this" => 0,
            _ => 1,
        };
        let when = match b {
            "week" => week_of(day + d(7 * step)),
            "weekend" => {
                // The Saturday of the week it was said in; "this weekend" of something
                // done, said on a weekday, is the one just gone.
                let saturday = monday_of(day) + d(5);
                let weekday = day.weekday().num_days_from_monday() < 5;
                let back = step == -1 || (step == 0 && weekday && !future);
                weekend_of(match step {
                    1 => saturday + d(7),
                    _ if back => saturday - d(7),
                    _ => saturday,
                })
            }
            "month" => month_of(shift_months(day, step)?),
            "year" => (day.year() + step as i32).to_string(),
            _ => return None,
        };
        return Some((2, when));
    }
    // "on Friday", bare: the sentence's tense decides.
    if a == "on"
        && let Some(wd) = weekday(b)
    {
        return Some((2, date(nearest(day, wd, future))));
    }
    // N units ago / in N units.
    if a == "in"
        && let Some((n, taken)) = count(w, i + 1)
        && let Some(when) = offset(at(i + 1 + taken), n, day)
    {
        return Some((1 + taken + 1, when));
    }
    if let Some((n, taken)) = count(w, i)
        && at(i + taken + 1) == "ago"
        && let Some(when) = offset(at(i + taken), -n, day)
    {
        return Some((taken + 2, when));
    }
    None
}

/// `n` units (day, week, weekend, month, year) from `day`.
fn offset(unit: &str, n: i64, day: NaiveDate) -> Option<String> {
    let unit = unit.strip_suffix('s').unwrap_or(unit);
    Some(match unit {
        "day" => date(day + Duration::days(n)),
        "week" => week_of(day + Duration::days(7 * n)),
        "weekend" => weekend_of(monday_of(day) + Duration::days(5 + 7 * n)),
        "month" => month_of(shift_months(day, n)?),
        "year" => (day.year() + n as i32).to_string(),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Monday 8 May 2023, in the evening.
    fn may_8() -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2023-05-08T18:00:00Z")
            .unwrap()
            .to_utc()
    }

    fn g(text: &str) -> String {
        ground(text, may_8())
    }

    #[test]
    fn days_around_the_day_it_was_said() {
        assert_eq!(
            g("I went to a LGBTQ support group yesterday"),
            "I went to a LGBTQ support group yesterday (7 May 2023)"
        );
        assert_eq!(
            g("Yesterday was rough."),
            "Yesterday (7 May 2023) was rough."
        );
        assert_eq!(
            g("we got back last night and today I rested"),
            "we got back last night (7 May 2023) and today (8 May 2023) I rested"
        );
        assert_eq!(
            g("two days ago we adopted a pup"),
            "two days ago (6 May 2023) we adopted a pup"
        );
        assert_eq!(
            g("the day before yesterday, and a few days ago"),
            "the day before yesterday (6 May 2023), and a few days ago (5 May 2023)"
        );
        assert_eq!(g("see you tomorrow!"), "see you tomorrow (9 May 2023)!");
        assert_eq!(g("in 3 days we fly"), "in 3 days (11 May 2023) we fly");
    }

    #[test]
    fn weekdays_by_last_next_and_the_sentences_tense() {
        assert_eq!(g("we met last Friday"), "we met last Friday (5 May 2023)");
        assert_eq!(g("next Friday works"), "next Friday (12 May 2023) works");
        assert_eq!(
            g("I ran a 5k on Saturday"),
            "I ran a 5k on Saturday (6 May 2023)"
        );
        assert_eq!(
            g("I'm going to run a 5k on Saturday"),
            "I'm going to run a 5k on Saturday (13 May 2023)"
        );
        // Said on a Monday: last Monday is a week back.
        assert_eq!(g("last Monday"), "last Monday (1 May 2023)");
    }

    #[test]
    fn weeks_weekends_months_and_years() {
        assert_eq!(
            g("last week was busy"),
            "last week (the week of 1 May 2023) was busy"
        );
        assert_eq!(
            g("we went camping last weekend"),
            "we went camping last weekend (the weekend of 6 May 2023)"
        );
        assert_eq!(g("next month I start"), "next month (June 2023) I start");
        assert_eq!(
            g("three months ago and last year"),
            "three months ago (February 2023) and last year (2022)"
        );
        assert_eq!(
            g("a couple of weeks ago"),
            "a couple of weeks ago (the week of 24 April 2023)"
        );
    }

    #[test]
    fn grounding_twice_changes_nothing_and_plain_text_stays() {
        let once = g("I went yesterday and last week");
        assert_eq!(g(&once), once);
        for plain in [
            "No times here.",
            "The last days of summer",
            "in a way, a few of us",
            "",
        ] {
            assert_eq!(g(plain), plain);
        }
    }
}
