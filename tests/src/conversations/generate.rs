//! The generator: speakers, session dates, which events go into which session (arcs
//! spread over the conversation, one-offs in between), the chat of each session, and the
//! questions with their evidence. Deterministic: one seeded `StdRng` per size.

use std::collections::HashSet;

use chrono::{DateTime, Duration, TimeZone, Utc};
use rand::rngs::StdRng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};

use super::chat::{self, CALLBACKS, CLOSINGS, GREETING_REPLIES, GREETINGS, SMALL_TALK};
use super::templates::{self, Arc};
use super::vocab::{self, MEN, SURNAMES, WOMEN, list, render};
use super::{Conversation, Corpus, Session, Size, Speaker, Turn};

/// The seed of every corpus: change it and every figure measured on the corpus changes.
const SEED: u64 = 0xC050_2023;

pub(super) type Slots = Vec<(&'static str, String)>;

/// The corpus of `size`, the same on every call.
pub fn generate(size: Size) -> Corpus {
    let mut rng = StdRng::seed_from_u64(SEED + size as u64);
    let (count, sessions) = match size {
        Size::Quick => (3, 20..=20),
        Size::Full => (12, 20..=30),
    };
    let mut names = HashSet::new();
    let conversations = (0..count)
        .map(|index| {
            let n = rng.random_range(sessions.clone());
            conversation(&mut rng, index, n, &mut names)
        })
        .collect();
    Corpus {
        size,
        conversations,
    }
}

fn speaker(rng: &mut StdRng, taken: &mut HashSet<&'static str>) -> Speaker {
    let female = rng.random_bool(0.5);
    let pick = |rng: &mut StdRng, pool: &'static str, taken: &mut HashSet<&'static str>| {
        let pool = list(pool);
        let free: Vec<&'static str> = pool
            .iter()
            .copied()
            .filter(|n| !taken.contains(n))
            .collect();
        let name = free.choose(rng).copied().unwrap_or(pool[0]);
        taken.insert(name);
        name
    };
    let first = pick(rng, if female { WOMEN } else { MEN }, taken);
    let last = pick(rng, SURNAMES, taken);
    Speaker {
        first: first.to_owned(),
        last: last.to_owned(),
        female,
    }
}

/// The keys every template of a speaker's event can use.
pub(super) fn speaker_slots(owner: &Speaker, other: &Speaker) -> Slots {
    let (pro, pos, obj, auntuncle) = if owner.female {
        ("she", "her", "her", "aunt")
    } else {
        ("he", "his", "him", "uncle")
    };
    vec![
        ("P", owner.first.clone()),
        ("Q", other.first.clone()),
        ("pro", pro.into()),
        ("pos", pos.into()),
        ("obj", obj.into()),
        ("auntuncle", auntuncle.into()),
    ]
}

/// One arc told by one speaker: its slot values and the session of each step so far.
pub(super) struct Instance {
    pub who: usize,
    pub arc: &'static Arc,
    pub slots: Slots,
    pub sessions: Vec<usize>,
    next_due: usize,
}

fn conversation(
    rng: &mut StdRng,
    index: usize,
    n: usize,
    names: &mut HashSet<&'static str>,
) -> Conversation {
    let speakers = [speaker(rng, names), speaker(rng, names)];
    let dates = dates(rng, n);
    let (instances, placed) = plan(rng, n, &speakers);
    let sessions = (0..n)
        .map(|s| session(rng, s, dates[s], &speakers, &instances, &placed[s]))
        .collect();
    let questions = super::questions::questions(rng, &speakers, &instances, &dates);
    let [a, b] = speakers;
    Conversation {
        index,
        a,
        b,
        sessions,
        questions,
    }
}

/// Session times: a start in the first half of 2023, then 3 to 21 days apart, in the
/// afternoon or evening.
fn dates(rng: &mut StdRng, n: usize) -> Vec<DateTime<Utc>> {
    let base = Utc
        .with_ymd_and_hms(2023, 1, 2, 0, 0, 0)
        .single()
        .unwrap_or_default();
    let mut day = rng.random_range(0..150);
    (0..n)
        .map(|i| {
            if i > 0 {
                day += rng.random_range(3..=21);
            }
            base + Duration::days(day)
                + Duration::hours(rng.random_range(12..22))
                + Duration::minutes(rng.random_range(0..60))
        })
        .collect()
}

/// Which steps go into which session: 2–4 per session, from both speakers; an arc's next
/// step comes 2–6 sessions after the previous one.
fn plan(rng: &mut StdRng, n: usize, speakers: &[Speaker; 2]) -> (Vec<Instance>, Vec<Vec<usize>>) {
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

/// Renders a template as `who` would say it to the other speaker.
fn line(speakers: &[Speaker; 2], who: usize, template: &str) -> String {
    render(template, &speaker_slots(&speakers[who], &speakers[1 - who]))
}

fn session(
    rng: &mut StdRng,
    s: usize,
    started_at: DateTime<Utc>,
    speakers: &[Speaker; 2],
    instances: &[Instance],
    here: &[usize],
) -> Session {
    let mut turns: Vec<(usize, String)> = Vec::new();
    let opener = rng.random_range(0..2);
    let mut talk: Vec<&(&str, &str)> = SMALL_TALK.iter().collect();
    talk.shuffle(rng);
    // The next unused small-talk exchange, opened by whoever spoke last (so it joins
    // their message, as chat messages run on); false when none is left.
    let mut small_talk = |rng: &mut StdRng, turns: &mut Vec<(usize, String)>| {
        let Some((a, b)) = talk.pop() else {
            return false;
        };
        let who = turns.last().map_or(0, |(w, _)| *w);
        let joined = format!("{} {}", chat::segue(rng), line(speakers, who, a));
        turns.push((who, joined.trim().to_owned()));
        turns.push((1 - who, line(speakers, 1 - who, b)));
        true
    };
    let greeting = GREETINGS.choose(rng).copied().unwrap_or_default();
    turns.push((opener, line(speakers, opener, greeting)));
    let reply = GREETING_REPLIES.choose(rng).copied().unwrap_or_default();
    turns.push((1 - opener, line(speakers, 1 - opener, reply)));
    if rng.random_bool(0.7) {
        small_talk(rng, &mut turns);
    }
    // Asking after earlier news: the same pets, people and hobbies come back.
    let mut earlier: Vec<&Instance> = instances
        .iter()
        .enumerate()
        .filter(|(i, inst)| {
            inst.sessions.first().is_some_and(|&f| f < s)
                && !here.contains(i)
                && !inst.arc.recall.is_empty()
        })
        .map(|(_, inst)| inst)
        .collect();
    earlier.shuffle(rng);
    let recalls = if here.len() > 3 {
        0
    } else {
        [0, 1, 1, 2][rng.random_range(0..4)]
    };
    for inst in earlier.into_iter().take(recalls) {
        let (ask, answer) = inst.arc.recall.choose(rng).copied().unwrap_or_default();
        turns.push((1 - inst.who, render(ask, &inst.slots)));
        turns.push((inst.who, render(answer, &inst.slots)));
    }
    if rng.random_bool(0.15) {
        let (a, b) = CALLBACKS.choose(rng).copied().unwrap_or_default();
        let who = turns.last().map_or(0, |(w, _)| *w);
        turns.push((who, line(speakers, who, a)));
        turns.push((1 - who, line(speakers, 1 - who, b)));
    }
    let mut order: Vec<usize> = here.to_vec();
    order.shuffle(rng);
    let mut events = Vec::new();
    for (n, &i) in order.iter().enumerate() {
        let inst = &instances[i];
        let step_index = inst.sessions.iter().position(|&x| x == s).unwrap_or(0);
        let step = &inst.arc.steps[step_index];
        let (owner, other) = (inst.who, 1 - inst.who);
        let say = render(
            step.say.choose(rng).copied().unwrap_or_default(),
            &inst.slots,
        );
        let lead = chat::lead_in(rng, step.tone);
        turns.push((owner, format!("{lead} {say}").trim().to_owned()));
        events.push(format!(
            "{} ({} step {}): {say}",
            speakers[owner].first,
            inst.arc.id,
            step_index + 1
        ));
        let (ask, answer) = step.chat[0];
        let reaction = chat::reaction(rng, step.tone);
        turns.push((other, format!("{reaction} {}", render(ask, &inst.slots))));
        turns.push((owner, render(answer, &inst.slots)));
        if step.chat.len() > 1 && here.len() < 4 && rng.random_bool(0.35) {
            let (ask, answer) = step.chat[rng.random_range(1..step.chat.len())];
            turns.push((other, render(ask, &inst.slots)));
            turns.push((owner, render(answer, &inst.slots)));
        }
        if rng.random_bool(0.6) {
            turns.push((other, chat::wrap_up(rng, step.tone).to_owned()));
        }
        if n + 1 < order.len() && rng.random_bool(0.3) {
            small_talk(rng, &mut turns);
        }
    }
    let chars = |turns: &[(usize, String)]| turns.iter().map(|(_, t)| t.len()).sum::<usize>();
    let messages =
        |turns: &[(usize, String)]| 1 + turns.windows(2).filter(|w| w[0].0 != w[1].0).count();
    let target = rng.random_range(1_650..2_400);
    while (chars(&turns) < 1_600 || (chars(&turns) < target && messages(&turns) < 26))
        && small_talk(rng, &mut turns)
    {}
    let closer = turns.last().map_or(0, |(w, _)| *w);
    let (bye, bye_back) = CLOSINGS.choose(rng).copied().unwrap_or_default();
    turns.push((closer, line(speakers, closer, bye)));
    turns.push((1 - closer, line(speakers, 1 - closer, bye_back)));
    // One message per speaker at a time, as a chat log shows it.
    let mut merged: Vec<Turn> = Vec::new();
    for (who, text) in turns {
        let text = chat::roughen(rng, text);
        let name = speakers[who].full_name();
        match merged.last_mut() {
            Some(last) if last.speaker == name => {
                last.text.push(' ');
                last.text.push_str(&text);
            }
            _ => merged.push(Turn {
                speaker: name,
                text,
            }),
        }
    }
    Session {
        index: s,
        started_at,
        turns: merged,
        events,
    }
}
