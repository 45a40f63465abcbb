//! The budget shared between the parts of a context: which share each item draws on,
//! and what fits ([`fit`]).

use super::Item;
use super::render::render;
use cosmo_shared::domain::input::read::ContextFormat;
use cosmo_shared::llm::estimate_tokens;

/// The parts of a context, in the order they are rendered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Section {
    Profile,
    Facts,
    Entities,
    Storylines,
    Episodes,
    Recent,
}

impl Section {
    pub(super) fn title(self) -> &'static str {
        match self {
            Self::Profile => "About the user",
            Self::Facts => "Facts",
            Self::Entities => "People and topics",
            Self::Storylines => "Storylines",
            Self::Episodes => "Episodes",
            Self::Recent => "Recent conversation",
        }
    }

    pub(super) fn tag(self) -> &'static str {
        match self {
            Self::Profile => "profile",
            Self::Facts => "facts",
            Self::Entities => "entities",
            Self::Storylines => "storylines",
            Self::Episodes => "episodes",
            Self::Recent => "recent_conversation",
        }
    }

    fn share(self) -> Share {
        match self {
            Self::Profile => Share::Profile,
            Self::Facts => Share::Facts,
            Self::Entities => Share::Entities,
            Self::Storylines | Self::Episodes => Share::Temporal,
            Self::Recent => Share::Recent,
        }
    }
}

/// Which share of the budget an item draws on (the profile comes off the top).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Share {
    Profile,
    Facts,
    Entities,
    Temporal,
    Evidence,
    Recent,
}

/// What goes in, as rendered items, and whether something was left out. The profile
/// first; then each item in priority order if it fits in what is left of the budget
/// and of its share (`shares` of the budget the profile left), an episode first without
/// its quote; then the quotes, within the evidence share; then, in priority order, what
/// was left out (items, then quotes) while the whole budget allows: what a share left
/// unused goes to the rest. An item is never cut: it fits whole or not at all.
pub(super) fn fit(
    format: ContextFormat,
    items: &[Item],
    budget: u64,
    shares: &cosmo_shared::config::ContextShares,
) -> (Vec<Item>, bool) {
    let n = items.len();
    let (mut kept, mut quoted) = (vec![false; n], vec![false; n]);
    let compose = |kept: &[bool], quoted: &[bool]| -> Vec<Item> {
        (0..n)
            .filter(|&i| kept[i])
            .map(|i| {
                let mut item = items[i].clone();
                match item.quote.take() {
                    Some(q) if quoted[i] => item.text.push_str(&format!(" — “{q}”")),
                    _ => {}
                }
                item
            })
            .collect()
    };
    let tokens = |kept: &[bool], quoted: &[bool]| {
        let composed = compose(kept, quoted);
        estimate_tokens(&render(format, &composed.iter().collect::<Vec<_>>()))
    };
    let mut used = 0;
    for i in 0..n {
        if items[i].section.share() == Share::Profile {
            kept[i] = true;
            let t = tokens(&kept, &quoted);
            if t <= budget {
                used = t;
            } else {
                kept[i] = false;
            }
        }
    }
    // The conversation at hand, after the profile: its latest turns first, within half
    // the budget, and no older turn once one is left out.
    let recent_cap = budget.min(used + budget / 2);
    for i in (0..n)
        .rev()
        .filter(|&i| items[i].section == Section::Recent)
    {
        kept[i] = true;
        let t = tokens(&kept, &quoted);
        if t <= recent_cap {
            used = t;
        } else {
            kept[i] = false;
            break;
        }
    }
    let rest = budget.saturating_sub(used) as f64;
    let cap = |share: Share| match share {
        Share::Profile | Share::Recent => 0.0,
        Share::Facts => shares.facts * rest,
        Share::Entities => shares.entities * rest,
        Share::Temporal => shares.temporal * rest,
        Share::Evidence => shares.evidence * rest,
    };
    let mut spent = std::collections::HashMap::<Share, f64>::new();
    // Tries one change: kept when the total fits, and within its share when one is given.
    let mut attempt = |kept: &mut Vec<bool>,
                       quoted: &mut Vec<bool>,
                       used: &mut u64,
                       i: usize,
                       quote: bool,
                       share: Option<Share>| {
        if quote {
            quoted[i] = true;
        } else {
            kept[i] = true;
        }
        let t = tokens(kept, quoted);
        let delta = t.saturating_sub(*used) as f64;
        let within = share.is_none_or(|s| spent.get(&s).copied().unwrap_or(0.0) + delta <= cap(s));
        if t <= budget && within {
            if let Some(s) = share {
                *spent.entry(s).or_default() += delta;
            }
            *used = t;
        } else if quote {
            quoted[i] = false;
        } else {
            kept[i] = false;
        }
    };
    let share_of = |i: usize| items[i].section.share();
    for i in (0..n).filter(|&i| !matches!(share_of(i), Share::Profile | Share::Recent)) {
        attempt(
            &mut kept,
            &mut quoted,
            &mut used,
            i,
            false,
            Some(share_of(i)),
        );
    }
    for i in 0..n {
        if kept[i] && items[i].quote.is_some() {
            attempt(
                &mut kept,
                &mut quoted,
                &mut used,
                i,
                true,
                Some(Share::Evidence),
            );
        }
    }
    for i in (0..n).filter(|&i| !matches!(share_of(i), Share::Profile | Share::Recent)) {
        if !kept[i] {
            attempt(&mut kept, &mut quoted, &mut used, i, false, None);
        }
    }
    for i in 0..n {
        if kept[i] && items[i].quote.is_some() && !quoted[i] {
            attempt(&mut kept, &mut quoted, &mut used, i, true, None);
        }
    }
    let truncated = (0..n).any(|i| !kept[i] || (items[i].quote.is_some() && !quoted[i]));
    (compose(&kept, &quoted), truncated)
}
