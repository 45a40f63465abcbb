//! One-off events (part two).

use super::{Arc, E, Event, Group, Slot, Tone, one};

pub const ARCS: &[Arc] = &[
    one(
        "outage",
        &[],
        &[Event {
            tone: Tone::Bad,
            say: &[
                "a storm knocked out our power for three days, we grilled everything in the freezer before it spoiled",
                "three days without electricity after the windstorm. we had a freezer barbecue for the whole street",
            ],
            chat: &[(
                "three days!! what did you do?",
                "board games by candlelight, it was kind of nice honestly",
            )],
            qs: &[
                ("How long was {P}'s home without electricity?", "three days"),
                (
                    "How did {P} keep food from going bad during the blackout?",
                    "grilled everything from the freezer",
                ),
            ],
            why: &[(
                "Why did {P} end up cooking a whole freezer's worth of food outdoors?",
                "a storm knocked the power out for three days",
            )],
            when: "When did {P} lose power in the storm?",
            ..E
        }],
    ),
    one(
        "fish",
        &[Slot::Fish],
        &[Event {
            say: &[
                "I got a betta fish for my desk at home, his name is {fish} and he has a little plant to hide in",
                "new roommate alert: a blue betta fish called {fish}",
            ],
            chat: &[(
                "does a fish have a personality?",
                "this one does, he flares at my reflection every morning",
            )],
            qs: &[
                ("What kind of fish does {P} keep?", "a betta"),
                ("What is the name of {P}'s aquarium pet?", "{fish}"),
            ],
            when: "When did {P} get {fish}?",
            group: Some((Group::Pet, "a betta fish, {fish}")),
            ..E
        }],
    ),
    one(
        "chickens",
        &[],
        &[Event {
            say: &[
                "we got three backyard chickens! named them after the golden girls, Rose is the bossy one",
                "I'm a chicken person now. three hens in the backyard named Dorothy, Rose and Blanche",
            ],
            chat: &[(
                "are you getting eggs?",
                "two or three a day, I'm drowning in omelets",
            )],
            qs: &[
                ("What animals live in {P}'s backyard?", "three chickens"),
                (
                    "Which TV show inspired the names of {P}'s hens?",
                    "The Golden Girls",
                ),
            ],
            why: &[(
                "Why is {P} eating so many egg dishes lately?",
                "{pos} three backyard hens lay two or three eggs a day",
            )],
            when: "When did {P} get {pos} chickens?",
            group: Some((Group::Pet, "three backyard chickens")),
            ..E
        }],
    ),
    one(
        "wallet",
        &[],
        &[Event {
            tone: Tone::Plain,
            say: &[
                "I lost my wallet on the train and a total stranger mailed it back with a handwritten note",
                "my wallet fell out on the commuter train and some kind soul mailed it to me, cash still inside",
            ],
            chat: &[(
                "faith in humanity restored",
                "right?? the note said 'have a good week', I'm keeping it forever",
            )],
            qs: &[
                ("Where did {P} misplace {pos} billfold?", "on the train"),
                (
                    "How did {P} get back what {pro} lost?",
                    "a stranger mailed it back with a note",
                ),
            ],
            why: &[(
                "Why is {P} holding on to a few handwritten words from someone {pro} never met?",
                "the note came with {pos} lost wallet, which a stranger mailed back",
            )],
            when: "When did {P} lose {pos} wallet?",
            ..E
        }],
    ),
    one(
        "couch",
        &[],
        &[Event {
            tone: Tone::Plain,
            say: &[
                "sold my old couch online to a guy who wants it for his band's practice space",
                "the ugly brown couch is gone! some drummer bought it for his band's rehearsal room",
            ],
            chat: &[(
                "how much did you get?",
                "forty bucks and a promise of free tickets to their first show",
            )],
            qs: &[
                (
                    "What piece of furniture did {P} get rid of?",
                    "{pos} old couch",
                ),
                (
                    "Who bought {P}'s old sofa?",
                    "a musician, for his band's practice space",
                ),
            ],
            when: "When did {P} sell {pos} couch?",
            ..E
        }],
    ),
    one(
        "knitting",
        &[],
        &[Event {
            say: &[
                "I learned to knit from youtube so I'd stop scrolling my phone every night, and made a very lumpy purple scarf",
                "I've been knitting every night instead of scrolling my phone! first project: one purple scarf, extremely lumpy, I love it",
            ],
            chat: &[("will you make me one?", "get in line, my mom already asked")],
            qs: &[
                ("What craft did {P} pick up from online videos?", "knitting"),
                (
                    "What was the first thing {P} made with yarn?",
                    "a lumpy purple scarf",
                ),
            ],
            why: &[(
                "Why did {P} take up a needlecraft?",
                "to stop scrolling on {pos} phone every night",
            )],
            when: "When did {P} learn to knit?",
            group: Some((Group::Hobby, "knitting")),
            ..E
        }],
    ),
    one(
        "swim",
        &[],
        &[Event {
            tone: Tone::Plain,
            say: &[
                "confession: I never learned to swim, so I'm taking adult lessons at the y. I'm the only one over nine",
                "started swim lessons at the community pool, the instructor is sixteen and very patient with me",
            ],
            chat: &[(
                "that's brave, how's it going?",
                "I can float now! small wins",
            )],
            qs: &[
                (
                    "What basic skill is {P} only learning as a grown-up?",
                    "swimming",
                ),
                ("What can {P} do in the water so far?", "float"),
            ],
            when: "When did {P} start swim lessons?",
            group: Some((Group::Fitness, "swimming lessons")),
            ..E
        }],
    ),
    one(
        "first_aid",
        &[],
        &[Event {
            say: &[
                "I took a CPR and first aid course at the red cross this weekend, I'm certified now",
                "got my first aid certification! full day course, we practiced on creepy plastic dummies",
            ],
            chat: &[(
                "why'd you do it?",
                "a guy collapsed at my gym last year and nobody knew what to do",
            )],
            qs: &[
                ("What certificate did {P} earn?", "CPR and first aid"),
                (
                    "What event made {P} want emergency training?",
                    "a man collapsed at {pos} gym",
                ),
            ],
            when: "When did {P} get first aid certified?",
            group: Some((Group::Learning, "CPR and first aid")),
            ..E
        }],
    ),
    one(
        "meteors",
        &[],
        &[Event {
            say: &[
                "we drove out to the desert to watch the meteor shower, counted over fifty shooting stars",
                "stayed up until 3am in the middle of nowhere watching the perseids, fifty plus shooting stars",
            ],
            chat: &[(
                "did you make wishes?",
                "about fifty of them, the universe is busy now",
            )],
            qs: &[
                ("What did {P} watch in the night sky?", "a meteor shower"),
                ("How many streaks of light did {P} count?", "over fifty"),
            ],
            when: "When did {P} watch the meteor shower?",
            ..E
        }],
    ),
    one(
        "niece",
        &[Slot::Sibling],
        &[Event {
            say: &[
                "my {sibrel} {sib} had a baby girl last night!! I'm an {auntuncle} now",
                "I'm officially an {auntuncle}! {sib} had the baby, a girl, seven pounds of perfect",
            ],
            chat: &[("what's her name?", "June, after our grandma")],
            qs: &[
                (
                    "Who in {P}'s family just had a child?",
                    "{pos} {sibrel} {sib}",
                ),
                ("What is the name of {P}'s newborn niece?", "June"),
            ],
            why: &[(
                "Why did {P}'s {sibrel} call the new baby June?",
                "after their grandma",
            )],
            when: "When did {P} become an {auntuncle}?",
            ..E
        }],
    ),
    one(
        "musical",
        &[],
        &[Event {
            say: &[
                "saw a touring broadway musical downtown last night, the lead's voice gave me chills",
                "went to the theater for a musical, front balcony seats, I cried during the second act",
            ],
            chat: &[(
                "which one?",
                "the one about the lighthouse family, I've had the songs stuck in my head all day",
            )],
            qs: &[
                (
                    "What kind of show did {P} go see?",
                    "a touring Broadway musical",
                ),
                (
                    "What is the stage show {P} saw about?",
                    "a lighthouse family",
                ),
            ],
            why: &[(
                "Why can't {P} get the show tunes out of {pos} head?",
                "{pro} saw the musical about the lighthouse family",
            )],
            when: "When did {P} see the musical?",
            ..E
        }],
    ),
    one(
        "coworker_baby",
        &[],
        &[Event {
            tone: Tone::Plain,
            say: &[
                "I organized the office baby shower for my coworker, I made a diaper cake which is apparently a thing",
                "threw a baby shower at work for a teammate, my diaper cake was the star",
            ],
            chat: &[(
                "a diaper cake??",
                "diapers rolled up and stacked like a wedding cake, very cursed, very cute",
            )],
            qs: &[
                (
                    "What unusual decoration did {P} make for the party?",
                    "a diaper cake",
                ),
                (
                    "What celebration did {P} organize at work?",
                    "a baby shower",
                ),
            ],
            when: "When did {P} throw the office baby shower?",
            ..E
        }],
    ),
];
