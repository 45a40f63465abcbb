//! The budget: what goes in, in what order it is tried, and how the parts share it.
//!
//! The user's profile comes off the top; then the session's latest turns, newest first,
//! up to half the budget; then the user's confirmed facts. Everything else competes on
//! one relevance scale: statements of what was said (a Source's lines, notes, an
//! insight's statements, [`super::said`]), relevant facts, people and topics,
//! Storylines and the summaries of episodes no line of which is shown. They are taken
//! best first while they fit, each part at first within its share of what is left
//! (`retrieval.context_shares`); then, best first again, whatever was left out while
//! the whole budget allows, so what one part leaves unused goes to the others. A line
//! next to a chosen one (the question before an answer, the reply after a story) joins
//! the candidates at [`NEIGHBOUR`] of its neighbour's score. Nothing is cut: an item or
//! a line fits whole or not at all.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashSet};

use super::render::render;
use super::said::{Pool, normalise};
use super::{Item, Kept};
use cosmo_shared::config::ContextShares;
use cosmo_shared::domain::input::read::ContextFormat;
use cosmo_shared::llm::estimate_tokens;

/// A line next to a chosen one is worth this share of its score.
const NEIGHBOUR: f64 = 0.85;

/// The parts of a context, in the order they are rendered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) enum Section {
    Profile,
    Facts,
    Said,
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
            Self::Said => "What was said",
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
            Self::Said => "said",
            Self::Entities => "entities",
            Self::Storylines => "storylines",
            Self::Episodes => "episodes",
            Self::Recent => "recent_conversation",
        }
    }

    /// The share of the budget this section draws on.
    fn cap(self, shares: &ContextShares) -> f64 {
        match self {
            Self::Facts => shares.facts,
            Self::Said => shares.evidence,
            Self::Entities => shares.entities,
            Self::Storylines | Self::Episodes => shares.temporal,
            Self::Profile | Self::Recent => 1.0,
        }
    }
}

/// A candidate: a ranked item or a statement of the pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Pick {
    Item(usize),
    Statement(usize),
}

struct Entry {
    score: f64,
    pick: Pick,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        // Best first; ties: statements, then in the order given.
        let order = |p: Pick| match p {
            Pick::Statement(i) => (0, std::cmp::Reverse(i)),
            Pick::Item(i) => (1, std::cmp::Reverse(i)),
        };
        self.score
            .total_cmp(&other.score)
            .then_with(|| order(other.pick).cmp(&order(self.pick)))
    }
}

/// The markdown characters an item, a statement or a section heading adds (exact for
/// markdown; the other formats are checked once rendered).
struct Cost<'a> {
    pool: &'a Pool,
    sections: HashSet<Section>,
    groups: HashSet<usize>,
    chars: u64,
}

impl Cost<'_> {
    fn of(&self, section: Section, group: Option<usize>, text: &str) -> u64 {
        let mut c = 0;
        if !self.sections.contains(&section) {
            c += section.title().chars().count() as u64 + 5;
        }
        match group {
            Some(g) => {
                if !self.groups.contains(&g) {
                    c += self.pool.groups[g].header.chars().count() as u64 + 4;
                }
                c + text.chars().count() as u64 + 3
            }
            None => c + text.chars().count() as u64 + 3,
        }
    }

    fn add(&mut self, section: Section, group: Option<usize>, chars: u64) {
        self.sections.insert(section);
        if let Some(g) = group {
            self.groups.insert(g);
        }
        self.chars += chars;
    }

    fn tokens(&self) -> u64 {
        self.chars.div_ceil(4)
    }
}

/// What fits of `fixed` (profile, confirmed facts, recent turns, in that order of
/// priority), `ranked` (relevant facts, nodes, Storylines, episodes, best first) and
/// the pool's statements; and whether anything relevant was left out.
pub(super) fn fit(
    format: ContextFormat,
    fixed: &[Item],
    ranked: &[Item],
    pool: &Pool,
    budget: u64,
    shares: &ContextShares,
) -> (Kept, bool) {
    let mut cost = Cost {
        pool,
        sections: HashSet::new(),
        groups: HashSet::new(),
        chars: 0,
    };
    let mut kept = Kept::default();
    let mut truncated = false;
    let take_fixed = |kept: &mut Kept, cost: &mut Cost, item: &Item, cap: u64| {
        let c = cost.of(item.section, None, &item.text);
        if (cost.chars + c).div_ceil(4) <= cap {
            cost.add(item.section, None, c);
            kept.items.push(item.clone());
            true
        } else {
            false
        }
    };
    for item in fixed.iter().filter(|i| i.section == Section::Profile) {
        truncated |= !take_fixed(&mut kept, &mut cost, item, budget);
    }
    // The conversation at hand: its latest turns first, within half the budget, and no
    // older turn once one is left out.
    let recent_cap = budget.min(cost.tokens() + budget / 2);
    let mut recent = Vec::new();
    for item in fixed.iter().rev().filter(|i| i.section == Section::Recent) {
        if !take_fixed(&mut Kept::default(), &mut cost, item, recent_cap) {
            truncated = true;
            break;
        }
        recent.push(item.clone());
    }
    recent.reverse();
    kept.items.extend(recent);
    for item in fixed.iter().filter(|i| i.section == Section::Facts) {
        truncated |= !take_fixed(&mut kept, &mut cost, item, budget);
    }

    // Everything else, by relevance: first within each part's share of what is left,
    // then whatever still fits.
    let rest = budget.saturating_sub(cost.tokens()) as f64;
    let mut score: Vec<f64> = pool.statements.iter().map(|s| s.score).collect();
    let mut eligible: Vec<bool> = pool.statements.iter().map(|s| s.matched).collect();
    let mut taken = HashSet::new();
    let mut spent = std::collections::HashMap::<Section, u64>::new();
    let mut said: HashSet<String> = HashSet::new();
    let mut shown_groups: HashSet<usize> = HashSet::new();
    for capped in [true, false] {
        let mut heap: BinaryHeap<Entry> = ranked
            .iter()
            .enumerate()
            .map(|(i, item)| Entry {
                score: item.score,
                pick: Pick::Item(i),
            })
            .chain(
                (0..pool.statements.len())
                    .filter(|&i| eligible[i])
                    .map(|i| Entry {
                        score: score[i],
                        pick: Pick::Statement(i),
                    }),
            )
            .filter(|e| !taken.contains(&e.pick))
            .collect();
        while let Some(Entry { score: s, pick }) = heap.pop() {
            if taken.contains(&pick) {
                continue;
            }
            if let Pick::Statement(i) = pick
                && s < score[i]
            {
                continue; // raised since: its better entry is in the heap
            }
            let (section, group, text) = match pick {
                Pick::Item(i) => (ranked[i].section, None, ranked[i].text.as_str()),
                Pick::Statement(i) => {
                    let st = &pool.statements[i];
                    (Section::Said, Some(st.group), st.text.as_str())
                }
            };
            // Said once: a statement already shown, or an episode with lines shown.
            let repeat = match pick {
                Pick::Statement(_) => said.contains(&normalise(text)),
                Pick::Item(i) => ranked[i]
                    .episode_of
                    .as_ref()
                    .is_some_and(|k| pool_group_shown(pool, &shown_groups, k)),
            };
            if repeat {
                taken.insert(pick);
                continue;
            }
            let c = cost.of(section, group, text);
            let fits = (cost.chars + c).div_ceil(4) <= budget;
            let within = !capped
                || (spent.get(&section).copied().unwrap_or(0) + c).div_ceil(4) as f64
                    <= section.cap(shares) * rest;
            if !(fits && within) {
                continue;
            }
            cost.add(section, group, c);
            *spent.entry(section).or_default() += c;
            taken.insert(pick);
            match pick {
                Pick::Item(i) => kept.items.push(ranked[i].clone()),
                Pick::Statement(i) => {
                    said.insert(normalise(text));
                    shown_groups.insert(pool.statements[i].group);
                    kept.statements.push(i);
                    for n in neighbours(pool, i) {
                        let raised = NEIGHBOUR * score[i];
                        if !taken.contains(&Pick::Statement(n)) && raised > score[n] {
                            score[n] = raised;
                            eligible[n] = true;
                            heap.push(Entry {
                                score: raised,
                                pick: Pick::Statement(n),
                            });
                        } else if !eligible[n] && !taken.contains(&Pick::Statement(n)) {
                            eligible[n] = true;
                            heap.push(Entry {
                                score: score[n],
                                pick: Pick::Statement(n),
                            });
                        }
                    }
                }
            }
        }
    }
    // An episode whose lines came in after it: the lines say more.
    kept.items.retain(|item| {
        item.episode_of
            .as_ref()
            .is_none_or(|k| !pool_group_shown(pool, &shown_groups, k))
    });
    truncated |= ranked.len() + eligible.iter().filter(|e| **e).count() > taken.len();
    // The other formats spend more on markup than markdown: the last chosen go until
    // the rendering fits.
    while estimate_tokens(&render(format, &kept, pool)) > budget {
        truncated = true;
        if kept.statements.pop().is_none() && kept.items.pop().is_none() {
            break;
        }
    }
    (kept, truncated)
}

/// Whether a line of the Source `key` is shown.
fn pool_group_shown(pool: &Pool, shown: &HashSet<usize>, key: &str) -> bool {
    shown
        .iter()
        .any(|&g| pool.groups[g].memory.as_ref().is_some_and(|m| m.key == key))
}

/// The statements just before and after statement `i` in its origin.
fn neighbours(pool: &Pool, i: usize) -> Vec<usize> {
    let s = &pool.statements[i];
    pool.statements
        .iter()
        .enumerate()
        .filter(|(_, o)| o.group == s.group && o.order.abs_diff(s.order) == 1)
        .map(|(k, _)| k)
        .collect()
}
