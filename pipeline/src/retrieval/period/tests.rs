use super::*;

fn at(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

/// The period as `[since, until)` dates, `-` when open.
fn period(q: &str, now: &str) -> Option<(String, String, String)> {
    let d = |t: Option<DateTime<Utc>>| t.map_or("-".into(), |t| t.format("%F").to_string());
    find(q, at(now)).map(|p| (p.phrase, d(p.since), d(p.until)))
}

fn p(phrase: &str, since: &str, until: &str) -> Option<(String, String, String)> {
    Some((phrase.into(), since.into(), until.into()))
}

// Thursday 2025-03-13.
const NOW: &str = "2025-03-13T15:00:00Z";

#[test]
fn days_weeks_months_and_years_around_now() {
    for (q, want) in [
        (
            "What did I eat yesterday?",
            p("yesterday", "2025-03-12", "2025-03-13"),
        ),
        (
            "what happened today",
            p("today", "2025-03-13", "2025-03-14"),
        ),
        (
            "What did we plan last week?",
            p("last week", "2025-03-03", "2025-03-10"),
        ),
        (
            "anything this week",
            p("this week", "2025-03-10", "2025-03-17"),
        ),
        (
            "last weekend's hike",
            p("last weekend", "2025-03-08", "2025-03-10"),
        ),
        (
            "calls last month",
            p("last month", "2025-02-01", "2025-03-01"),
        ),
        (
            "goals for this year",
            p("this year", "2025-01-01", "2026-01-01"),
        ),
        (
            "earlier this month",
            p("earlier this month", "2025-03-01", "2025-03-14"),
        ),
        (
            "what did she say 3 days ago",
            p("3 days ago", "2025-03-09", "2025-03-12"),
        ),
        (
            "a few days ago",
            p("a few days ago", "2025-03-09", "2025-03-12"),
        ),
        (
            "two weeks ago",
            p("two weeks ago", "2025-02-20", "2025-03-07"),
        ),
        (
            "six months ago",
            p("six months ago", "2024-09-01", "2024-10-01"),
        ),
        ("a year ago", p("a year ago", "2024-01-01", "2025-01-01")),
        (
            "last Tuesday",
            p("last tuesday", "2025-03-11", "2025-03-12"),
        ),
        (
            "What did Sam say on Thursday?",
            p("on thursday", "2025-03-06", "2025-03-07"),
        ),
    ] {
        assert_eq!(period(q, NOW), want, "{q}");
    }
}

#[test]
fn months_dates_seasons_and_years() {
    for (q, want) in [
        (
            "What did we decide in May?",
            p("in may", "2024-05-01", "2024-06-01"),
        ),
        ("in March", p("in march", "2025-03-01", "2025-04-01")),
        (
            "the offsite in May 2023",
            p("in may 2023", "2023-05-01", "2023-06-01"),
        ),
        (
            "on 5 May 2023",
            p("on 5 may 2023", "2023-05-05", "2023-05-06"),
        ),
        (
            "on 21 Feb 2024",
            p("on 21 feb 2024", "2024-02-21", "2024-02-22"),
        ),
        ("Sept 2023", p("sept 2023", "2023-09-01", "2023-10-01")),
        ("May 5th", p("may 5th", "2024-05-05", "2024-05-06")),
        (
            "on the 21st of February",
            p("on the 21st of february", "2025-02-21", "2025-02-22"),
        ),
        ("last summer", p("last summer", "2024-06-01", "2024-09-01")),
        (
            "during the winter",
            p("during the winter", "2024-12-01", "2025-03-01"),
        ),
        (
            "summer of 2023",
            p("summer of 2023", "2023-06-01", "2023-09-01"),
        ),
        (
            "What happened in 2023?",
            p("in 2023", "2023-01-01", "2024-01-01"),
        ),
        ("since March", p("since march", "2025-03-01", "-")),
        ("before 2024", p("before 2024", "-", "2024-01-01")),
        ("after May 2023", p("after may 2023", "2023-06-01", "-")),
    ] {
        assert_eq!(period(q, NOW), want, "{q}");
    }
}

#[test]
fn words_that_are_not_dates() {
    for q in [
        "May I ask what the plan is?",
        "Why did the protesters march?",
        "What did Priya say about the pricing decision?",
        "Who won the 1500 meters?",
        "When did Maya get her dog?",
    ] {
        assert_eq!(period(q, NOW), None, "{q}");
    }
}
