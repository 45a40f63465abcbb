//! The chat around the events: greetings and goodbyes with the other's name, small talk
//! shared by every session, reactions by tone, and the odd typo or lower-case line.
//! `{Q}` is the name of the one spoken to, `{P}` the speaker's own.

use rand::Rng;
use rand::seq::IndexedRandom;

use super::templates::Tone;

/// The first line of a session, to the other speaker.
pub const GREETINGS: &[&str] = &[
    "Hey {Q}! how's it going?",
    "{Q}!! it's been forever, how are you?",
    "Hi {Q}, got a minute to catch up?",
    "hey {Q} :) how was your week?",
    "Morning {Q}! you around?",
    "Hey hey {Q}, what's new with you?",
    "{Q}! I was just thinking about you, how are things?",
    "hi {Q}! sorry I went quiet, life got busy. how are you?",
    "Evening {Q}! tell me something good",
    "Hey {Q}, finally a free moment. how've you been?",
];

/// The answer to a greeting.
pub const GREETING_REPLIES: &[&str] = &[
    "Hey {Q}! I'm good, tired but good. you?",
    "{Q}! so good to hear from you. I'm hanging in there",
    "hi!! doing alright, it's been a week though",
    "Hey! I'm great actually, lots going on. you first though",
    "oh hey {Q}! yeah I'm here, just made coffee",
    "Hi {Q}! all good here, can't complain. well I can but I won't",
    "hey you! surviving, barely. what's up?",
    "{Q}!! perfect timing, I needed a break",
];

/// Small talk: (one speaker, the other). No events, no facts anyone asks about.
pub const SMALL_TALK: &[(&str, &str)] = &[
    (
        "the weather has been so weird lately, sunny one day and freezing the next",
        "right? I never know what to wear anymore",
    ),
    (
        "work has been absolutely nuts this week",
        "ugh I feel that, hang in there",
    ),
    (
        "I've been binge watching that baking competition show again",
        "haha which season? I love the one with the tent",
    ),
    (
        "I slept eleven hours last night and still feel tired",
        "that's the worst, maybe you're catching something",
    ),
    (
        "traffic this morning was a nightmare, took me an hour to go five miles",
        "I don't miss commuting at all",
    ),
    (
        "I made a huge pot of soup on sunday and I'm still eating it",
        "lol soup week, the best kind of week",
    ),
    (
        "have you seen that video of the raccoon stealing a whole pizza?",
        "YES I've watched it like ten times",
    ),
    (
        "I really need a vacation, even just a long weekend",
        "same, let's both take one and not answer emails",
    ),
    (
        "my neighbor has been mowing his lawn at 7am every saturday",
        "that should be illegal honestly",
    ),
    (
        "I finally cleaned out my closet, found three scarves I forgot I had",
        "ha, free new scarves",
    ),
    (
        "I'm trying to drink less coffee but it's not going well",
        "why would you do that to yourself",
    ),
    (
        "I reorganized my whole spice rack alphabetically last night",
        "that's the most you thing I've ever heard",
    ),
    (
        "did you end up watching that movie I told you about?",
        "not yet! it's on my list, I promise",
    ),
    (
        "my phone screen cracked again, third time this year",
        "time for one of those ugly rugged cases",
    ),
    (
        "the grocery store moved everything around and I was lost for an hour",
        "they do it on purpose I swear",
    ),
    (
        "I started using a planner to be more organized",
        "how long did that last? be honest",
    ),
    (
        "I've had the same song stuck in my head for three days",
        "tell me which one so I can avoid it",
    ),
    (
        "it's been so hot, my apartment feels like an oven",
        "fans everywhere, that's my only advice",
    ),
    (
        "I tried a new coffee place near work, pretty good",
        "better than our old spot?",
    ),
    (
        "honestly I've just been resting a lot, nothing exciting",
        "that's allowed, rest is good",
    ),
    (
        "my inbox has four hundred unread emails and I'm choosing peace",
        "a bold strategy, I respect it",
    ),
    (
        "I went to bed at nine last night like a grandma",
        "honestly goals",
    ),
    (
        "the farmer's market had the best peaches this weekend",
        "ooh I need to go before they're gone",
    ),
    (
        "I've been trying to read more before bed instead of scrolling",
        "how's that going? I always fail",
    ),
    (
        "I keep forgetting to water my plants, they're judging me",
        "plants are very forgiving, mostly",
    ),
    (
        "sorry I vanished after we last talked, things got hectic",
        "no worries at all, I get it",
    ),
    (
        "it's been raining for like five days straight here",
        "same here, I forgot what the sun looks like",
    ),
    (
        "I ordered takeout three times this week, no regrets",
        "takeout is self care",
    ),
];

/// A quick exchange that refers back to an earlier chat, with no new facts.
pub const CALLBACKS: &[(&str, &str)] = &[
    (
        "I keep thinking about what you told me last time",
        "haha which part? I tell you a lot",
    ),
    (
        "thanks again for listening last time, it helped",
        "anytime, that's what friends are for",
    ),
    (
        "did you ever try that recipe I sent you?",
        "not yet, it's bookmarked though!",
    ),
];

/// Closing exchanges: (one speaker, the other).
pub const CLOSINGS: &[(&str, &str)] = &[
    ("anyway I gotta run, talk soon!", "bye {Q}! talk soon"),
    (
        "ok I should sleep, this was fun",
        "night {Q}! same time next week?",
    ),
    (
        "I have to get back to work but let's catch up again soon",
        "for sure, take care {Q}!",
    ),
    (
        "gotta go make dinner, love chatting with you",
        "you too {Q}, bye!",
    ),
    (
        "alright, I'll let you go. take care of yourself",
        "you too! talk later",
    ),
    (
        "ok my break is over, bye {Q}!",
        "bye! keep me posted on everything",
    ),
    (
        "this was nice, we should do this more often",
        "agreed! talk soon {Q}",
    ),
];

/// What joins a change of subject to the message before it.
pub fn segue(rng: &mut impl Rng) -> &'static str {
    [
        "anyway,",
        "oh and",
        "totally unrelated but",
        "also",
        "",
        "",
        "btw",
    ]
    .choose(rng)
    .copied()
    .unwrap_or("")
}

/// What comes before telling news.
pub fn lead_in(rng: &mut impl Rng, tone: Tone) -> &'static str {
    let options: &[&str] = match tone {
        Tone::Good => &[
            "guess what!",
            "ok I have news.",
            "so, update:",
            "oh! I have to tell you,",
            "",
            "",
        ],
        Tone::Bad => &["ugh,", "so this week was rough.", "ok so bad news,", "", ""],
        Tone::Plain => &["oh btw,", "random update:", "so,", "", ""],
    };
    options.choose(rng).copied().unwrap_or("")
}

/// The other's first reaction to news.
pub fn reaction(rng: &mut impl Rng, tone: Tone) -> &'static str {
    let options: &[&str] = match tone {
        Tone::Good => &[
            "no way!!",
            "that's awesome!",
            "omg congrats!",
            "ahh I love that",
            "wait seriously? amazing",
            "that's so exciting!",
            "yay!!",
            "good for you!",
        ],
        Tone::Bad => &[
            "oh no",
            "oh no, I'm so sorry",
            "ugh that's awful",
            "yikes",
            "oh man",
            "that's so stressful",
        ],
        Tone::Plain => &[
            "oh nice",
            "huh, interesting",
            "oh cool",
            "ha, ok",
            "wow",
            "oh really?",
        ],
    };
    options.choose(rng).copied().unwrap_or("")
}

/// The other's last word on the news.
pub fn wrap_up(rng: &mut impl Rng, tone: Tone) -> &'static str {
    let options: &[&str] = match tone {
        Tone::Good => &[
            "love that for you",
            "so happy for you!",
            "you deserve it",
            "haha amazing",
            "keep me posted!",
        ],
        Tone::Bad => &[
            "sending hugs",
            "let me know if you need anything",
            "hope it gets better soon",
            "ugh, hang in there",
        ],
        Tone::Plain => &["haha fair", "makes sense", "keep me posted", "ha, classic"],
    };
    options.choose(rng).copied().unwrap_or("")
}

/// Chat style: now and then a line all in lower case, a dropped apostrophe, or two
/// letters swapped in a longer all-lower-case word (capitalised names are left alone).
pub fn roughen(rng: &mut impl Rng, text: String) -> String {
    let mut text = text;
    if rng.random_bool(0.12) {
        text = text.to_lowercase();
    }
    if rng.random_bool(0.15) {
        text = text
            .replace("I'm", "im")
            .replace("don't", "dont")
            .replace("can't", "cant")
            .replace("it's", "its");
    }
    if rng.random_bool(0.06) {
        let words: Vec<&str> = text.split(' ').collect();
        let candidates: Vec<usize> = (0..words.len())
            .filter(|&i| words[i].len() >= 6 && words[i].chars().all(|c| c.is_ascii_lowercase()))
            .collect();
        if let Some(&i) = candidates.choose(rng) {
            let mut chars: Vec<char> = words[i].chars().collect();
            let at = rng.random_range(1..chars.len() - 2);
            chars.swap(at, at + 1);
            let swapped: String = chars.into_iter().collect();
            let mut out: Vec<String> = words.iter().map(|w| (*w).to_owned()).collect();
            out[i] = swapped;
            text = out.join(" ");
        }
    }
    text
}
