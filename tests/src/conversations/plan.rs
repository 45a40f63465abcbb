//! Which events go into which session: each speaker's arcs (most shared with the other's
//! pool, a few of their own) and one-offs, 2–4 steps a session, an arc's next step a few
//! sessions after the one before.

use std::collections::HashSet;

use rand::Rng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

use super::Speaker;
use super::generate::{Slots, speaker_slots};
use super::relative::Relative;
use super::templates::{self, Arc};
use super::vocab;

/// One arc told by one speaker: its slot values and the session of each step so far.
pub(super) struct Instance {
    pub who: usize,
    pub arc: &'static Arc,
    pub slots: Slots,
    pub sessions: Vec<usize>,
    /// Each step's evidence turns (indexes into its session's merged turns): its `say`
    /// line and its first chat exchange.
    pub turns: Vec<Vec<usize>>,
    /// Each step's planted relative time, if any.
    pub relative: Vec<Option<Relative>>,
    next_due: usize,
}

/// Which steps go into which session: 2–4 per session, from both speakers; an arc's next
/// step comes 2–6 sessions after the previous one.
pub(super) fn plan(
    rng: &mut StdRng,
    n: usize,
    speakers: &[Speaker; 2],
) -> (Vec<Instance>, Vec<Vec<usize>>) {
    let mut arcs = templates::arcs();
    arcs.shuffle(rng);
    let mut shared: Vec<&Arc> = arcs[..9].to_vec();
    shared.shuffle(rng);
    let mut pools: [Vec<&'static Arc>; 2] = [arcs[..9].to_vec(), arcs[9..18].to_vec()];
    pools[1].extend(shared.into_iter().take(rng.random_range(0..=2)));
    let mut singles = templates::one_offs();
    singles.shuffle(rng);
    let half = singles.len() / 2;
    let mut singles: [Vec<&'static Arc>; 2] = [singles[..half].to_vec(), singles[half..].to_vec()];
    for pool in pools.iter_mut().chain(singles.iter_mut()) {
        pool.shuffle(rng);
    }
    let mut spare: Vec<&'static Arc> = arcs[18..].to_vec();
    let mut used = HashSet::new();
    let mut instances: Vec<Instance> = Vec::new();
    let mut placed: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (s, here) in placed.iter_mut().enumerate() {
        let cap = [2, 2, 2, 3, 3, 3, 3, 4, 4, 4][rng.random_range(0..10)];
        let first = rng.random_range(0..2);
        for k in 0..cap {
            // This speaker's turn to have news; the other's if this one has none left.
            for who in [(first + k) % 2, (first + k + 1) % 2] {
                let open = |i: &usize| {
                    let inst: &Instance = &instances[*i];
                    inst.who == who
                        && inst.sessions.len() < inst.arc.steps.len()
                        && !here.contains(i)
                };
                let due = (0..instances.len())
                    .filter(open)
                    .filter(|&i| instances[i].next_due <= s)
                    .min_by_key(|&i| instances[i].next_due);
                let chosen = match due {
                    Some(i) => Some(i),
                    None => {
                        let new_arc = rng.random_bool(0.5) || singles[who].is_empty();
                        let arc = (if new_arc {
                            pools[who].pop().or_else(|| spare.pop())
                        } else {
                            None
                        })
                        .or_else(|| singles[who].pop());
                        match arc {
                            Some(arc) => {
                                let mut slots = speaker_slots(&speakers[who], &speakers[1 - who]);
                                vocab::fill(rng, arc.slots, &mut used, &mut slots);
                                let inst = Instance {
                                    who,
                                    arc,
                                    slots,
                                    sessions: Vec::new(),
                                    turns: Vec::new(),
                                    relative: Vec::new(),
                                    next_due: s,
                                };
                                instances.push(inst);
                                Some(instances.len() - 1)
                            }
                            None => (0..instances.len()).find(open),
                        }
                    }
                };
                if let Some(i) = chosen {
                    instances[i].sessions.push(s);
                    instances[i].next_due = s + rng.random_range(2..=6);
                    here.push(i);
                    break;
                }
            }
        }
    }
    (instances, placed)
}
