//! How long a note stays relevant, from cue words: near-future items a week, lasting
//! facts forever, life events and long projects a year, everything else a month.

use super::text;
use cosmo_core::domain::NoteLifetime;

/// Transient: tomorrow's meeting, tonight's plan, a deadline.
const WEEK: &str = "tomorrow|tonight|today|next week|this week|this weekend|deadline|eod|asap|\
    this afternoon|this evening|this morning";
/// Foundational: family, allergies, habits, favourites, home.
const FOREVER: &str = "born|allergic|allergy|married|sister|brother|mother|father|daughter|son|\
    wife|husband|always|never|favorite|favourite|lives in|grew up|birthday|vegetarian|vegan";
/// Major life events and long projects.
const YEAR: &str = "joined|promoted|promotion|moved|graduated|launched|launch|project|hired|\
    new job|retired|engaged|pregnant|acquired";

/// The lifetime of a note; near-future cues win over lasting facts ("my sister visits
/// tomorrow" is a week).
pub fn lifetime(note: &str) -> NoteLifetime {
    let words: Vec<String> = text::tokens(note)
        .iter()
        .map(|t| t.text.to_lowercase().replace('’', "'"))
        .collect();
    let padded = format!(" {} ", words.join(" "));
    let has = |cues: &str| cues.split('|').any(|c| padded.contains(&format!(" {c} ")));
    if has(WEEK) {
        NoteLifetime::Week
    } else if has(FOREVER) {
        NoteLifetime::Forever
    } else if has(YEAR) {
        NoteLifetime::Year
    } else {
        NoteLifetime::Month
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use NoteLifetime::*;

    #[test]
    fn cues_decide_the_lifetime() {
        assert_eq!(lifetime("The report is due tomorrow."), Week);
        assert_eq!(lifetime("Sarah: the deadline moved to Friday"), Week);
        assert_eq!(lifetime("My sister visits this weekend."), Week);
        assert_eq!(lifetime("She is allergic to peanuts."), Forever);
        assert_eq!(lifetime("His favourite food is ramen."), Forever);
        assert_eq!(lifetime("Dana lives in Denver."), Forever);
        assert_eq!(lifetime("He joined Acme in March."), Year);
        assert_eq!(lifetime("The Atlas project starts in Q3."), Year);
        assert_eq!(lifetime("The budget looks fine."), Month);
        assert_eq!(
            lifetime("Personal reasons"),
            Month,
            "no substring matches (son ⊄ reasons)"
        );
    }
}
