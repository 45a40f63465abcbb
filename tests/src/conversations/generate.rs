//! The generator: speakers, session dates, the chat of each session around the events
//! `plan.rs` placed in it (tracking which turns tell each event), and the questions with
//! their evidence. Deterministic: one seeded `StdRng` per size; the planted relative
//! times (an option) come from generators of their own, so that the corpus without
//! them stays the same.

use std::collections::HashSet;

use chrono::{DateTime, Duration, TimeZone, Utc};
use rand::rngs::StdRng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};

use super::chat::{self, CALLBACKS, CLOSINGS, GREETING_REPLIES, GREETINGS, SMALL_TALK};
use super::plan::{Instance, plan};
use super::relative::{self, Relative};
use super::vocab::{MEN, SURNAMES, WOMEN, list, render};
use super::{Conversation, Corpus, Options, Session, Size, Speaker, Turn};

/// The seed of every corpus: change it and every figure measured on the corpus changes.
const SEED: u64 = 0xC050_2023;

pub(super) type Slots = Vec<(&'static str, String)>;

/// The corpus of `size`, the same on every call.
pub fn generate(size: Size) -> Corpus {
    generate_with(size, Options::default())
}

/// The corpus of `size` with `options`, the same on every call; the chats and questions
/// differ from [`generate`]'s only by what the options plant.
pub fn generate_with(size: Size, options: Options) -> Corpus {
    let mut rng = StdRng::seed_from_u64(SEED + size as u64);
    let (count, sessions) = match size {
        Size::Quick => (3, 20..=20),
        Size::Full => (12, 20..=30),
    };
    let mut names = HashSet::new();
    let conversations = (0..count)
        .map(|index| {
            let n = rng.random_range(sessions.clone());
            conversation(&mut rng, index, n, &mut names, options)
        })
        .collect();
    Corpus {
        size,
        options,
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

/// A step as a session told it.
struct Told {
    instance: usize,
    step: usize,
    /// Indexes into the session's turns before merging: `say`, the ask, the answer.
    raw: [usize; 3],
    relative: Option<Relative>,
}

fn conversation(
    rng: &mut StdRng,
    index: usize,
    n: usize,
    names: &mut HashSet<&'static str>,
    options: Options,
) -> Conversation {
    let speakers = [speaker(rng, names), speaker(rng, names)];
    let dates = dates(rng, n);
    let (mut instances, placed) = plan(rng, n, &speakers);
    let mut relative = options
        .relative_times
        .then(|| relative::generator(dates[0]));
    let mut sessions = Vec::with_capacity(n);
    for s in 0..n {
        let (generated, told) = session(
            rng,
            relative.as_mut(),
            s,
            dates[s],
            &speakers,
            &instances,
            &placed[s],
        );
        for t in told {
            let inst = &mut instances[t.instance];
            let steps = inst.sessions.len();
            inst.turns.resize(steps, Vec::new());
            inst.relative.resize(steps, None);
            inst.turns[t.step] = t.raw.iter().map(|&r| generated.merged[r]).collect();
            inst.relative[t.step] = t.relative;
        }
        sessions.push(generated.session);
    }
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

/// Renders a template as `who` would say it to the other speaker.
fn line(speakers: &[Speaker; 2], who: usize, template: &str) -> String {
    render(template, &speaker_slots(&speakers[who], &speakers[1 - who]))
}

/// A generated session, and where each turn before merging went.
struct Generated {
    session: Session,
    /// By index before merging, the index of the merged turn holding it.
    merged: Vec<usize>,
}

fn session(
    rng: &mut StdRng,
    mut relative: Option<&mut StdRng>,
    s: usize,
    started_at: DateTime<Utc>,
    speakers: &[Speaker; 2],
    instances: &[Instance],
    here: &[usize],
) -> (Generated, Vec<Told>) {
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
    let mut told = Vec::new();
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
        let planted = relative
            .as_deref_mut()
            .filter(|_| !relative::tells_a_time(&say))
            .and_then(|r| relative::draw(r, started_at));
        events.push(format!(
            "{} ({} step {}): {}",
            speakers[owner].first,
            inst.arc.id,
            step_index + 1,
            planted
                .as_ref()
                .map_or_else(|| say.clone(), |p| relative::told(&say, p))
        ));
        let (ask, answer) = step.chat[0];
        let reaction = chat::reaction(rng, step.tone);
        turns.push((other, format!("{reaction} {}", render(ask, &inst.slots))));
        turns.push((owner, render(answer, &inst.slots)));
        let at = turns.len();
        told.push(Told {
            instance: i,
            step: step_index,
            raw: [at - 3, at - 2, at - 1],
            relative: planted,
        });
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
    // One message per speaker at a time, as a chat log shows it; a planted relative
    // time joins its line after the roughening, which draws as if it were not there.
    let mut merged: Vec<Turn> = Vec::new();
    let mut merged_index = Vec::with_capacity(turns.len());
    for (raw, (who, text)) in turns.into_iter().enumerate() {
        let mut text = chat::roughen(rng, text);
        if let Some(t) = told.iter().find(|t| t.raw[0] == raw)
            && let Some(r) = &t.relative
        {
            text = relative::told(&text, r);
        }
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
        merged_index.push(merged.len() - 1);
    }
    let session = Session {
        index: s,
        started_at,
        turns: merged,
        events,
    };
    let generated = Generated {
        session,
        merged: merged_index,
    };
    (generated, told)
}
