//! One-off events (part one): things that happen once and are told in one session.

use super::{Arc, E, Event, Group, Slot, Tone, one};

pub const ARCS: &[Arc] = &[
    one(
        "tattoo",
        &[],
        &[Event {
            tone: Tone::Plain,
            say: &[
                "I finally got my first tattoo, a tiny lighthouse on my ankle",
                "went and got inked!! a little lighthouse on the ankle, it hurt way less than I expected",
            ],
            chat: &[(
                "why a lighthouse?",
                "my grandpa was a lighthouse keeper up north, it's for him",
            )],
            qs: &[
                (
                    "What image did {P} get permanently drawn on {pos} skin?",
                    "a tiny lighthouse",
                ),
                ("Where on {pos} body did {P} get the design?", "the ankle"),
            ],
            why: &[(
                "Why did {P} pick that particular design for {pos} ankle?",
                "it's for {pos} grandpa, who was a lighthouse keeper",
            )],
            when: "When did {P} get {pos} first tattoo?",
            ..E
        }],
    ),
    one(
        "flat_tire",
        &[],
        &[Event {
            tone: Tone::Bad,
            say: &[
                "got a flat on the highway in the pouring rain and a truck driver pulled over to change it for me",
                "my tire blew out on the interstate during a thunderstorm, a trucker pulled over and changed it for me",
            ],
            chat: &[(
                "oh man, were you ok?",
                "soaked and shaken but fine. he wouldn't even take money for it",
            )],
            qs: &[
                (
                    "Who came to {P}'s rescue when {pos} wheel went flat?",
                    "a truck driver",
                ),
                (
                    "What was the weather like when {P} had car trouble on the road?",
                    "pouring rain",
                ),
            ],
            why: &[(
                "Why did a trucker pull over next to {P} in the storm?",
                "{pos} tire went flat and he pulled over to change it",
            )],
            when: "When did {P} get a flat tire?",
            ..E
        }],
    ),
    one(
        "jury",
        &[],
        &[Event {
            tone: Tone::Plain,
            say: &[
                "I got called for jury duty and ended up on a trial about a stolen bulldozer. a BULLDOZER",
                "spent all week on a jury, the case was about someone who stole a bulldozer from a construction site",
            ],
            chat: &[(
                "how do you even steal a bulldozer",
                "slowly, apparently. he drove it through a drive-thru",
            )],
            qs: &[
                (
                    "What was the court case {P} sat on about?",
                    "a stolen bulldozer",
                ),
                ("What civic obligation took up {P}'s week?", "jury duty"),
            ],
            when: "When did {P} serve on a jury?",
            ..E
        }],
    ),
    one(
        "food_poisoning",
        &[],
        &[Event {
            tone: Tone::Bad,
            say: &[
                "never eat gas station sushi. I was sick for two full days",
                "I made the mistake of buying sushi at a gas station and it took me out for two days",
            ],
            chat: &[(
                "why would you do that",
                "I was hungry and it looked fine!! it was not fine",
            )],
            qs: &[
                ("What meal made {P} ill?", "sushi from a gas station"),
                (
                    "How long was {P} unwell after eating something bad?",
                    "two days",
                ),
            ],
            why: &[
                (
                    "Why was {P} laid up sick for a couple of days?",
                    "{pro} ate sushi from a gas station",
                ),
                (
                    "Why did {P} take a chance on raw fish from a fuel stop?",
                    "{pro} was hungry and it looked fine",
                ),
            ],
            when: "When did {P} get food poisoning?",
            ..E
        }],
    ),
    one(
        "raffle",
        &[],
        &[Event {
            say: &[
                "I won a kayak in the library raffle!! I've never won anything in my life",
                "guess who won the grand prize at the library fundraiser raffle, a whole bright red kayak",
            ],
            chat: &[(
                "do you know how to kayak?",
                "not at all, but I bought a life jacket, so that's step one",
            )],
            qs: &[
                ("What prize did {P} win?", "a kayak"),
                ("Which organization's drawing did {P} win?", "the library's"),
            ],
            why: &[(
                "Why did {P} go out and buy a life vest?",
                "{pro} won a kayak in a raffle but doesn't know how to kayak",
            )],
            when: "When did {P} win the kayak?",
            ..E
        }],
    ),
    one(
        "broken_toe",
        &[],
        &[Event {
            tone: Tone::Bad,
            say: &[
                "I kicked the bed frame in the dark and broke my pinky toe. it's purple",
                "walked into the bed frame at 3am and fractured my little toe, now I limp like a pirate",
            ],
            chat: &[(
                "ouch, can they do anything?",
                "nope, just tape it to the next toe and wait six weeks",
            )],
            qs: &[
                ("What bone did {P} break at home?", "{pos} pinky toe"),
                (
                    "What piece of furniture did {P} hurt {obj}self on?",
                    "the bed frame",
                ),
            ],
            why: &[(
                "Why does {P} have two toes strapped together for six weeks?",
                "{pro} broke {pos} little toe on the bed frame",
            )],
            when: "When did {P} break {pos} toe?",
            ..E
        }],
    ),
    one(
        "old_teacher",
        &[],
        &[Event {
            tone: Tone::Plain,
            say: &[
                "ran into my high school chemistry teacher at the grocery store and she remembered my name!",
                "you'll never guess who I saw buying cereal, my old chemistry teacher from high school",
            ],
            chat: &[(
                "did she remember the lab fire lol",
                "she brought it up first!! twenty years later",
            )],
            qs: &[
                (
                    "Who did {P} unexpectedly meet while shopping for food?",
                    "{pos} high school chemistry teacher",
                ),
                (
                    "What incident from school did {P}'s former teacher remember?",
                    "the lab fire",
                ),
            ],
            when: "When did {P} run into {pos} old teacher?",
            ..E
        }],
    ),
    one(
        "bookshelf",
        &[],
        &[Event {
            say: &[
                "I built a floor to ceiling bookshelf from scratch this weekend, my books were piled all over the floor. only cut one board wrong",
                "made my own bookcase!! floor to ceiling, pine, stained it dark walnut. no more books piled on the floor",
            ],
            chat: &[(
                "you own a saw??",
                "I borrowed my neighbor's, and his advice, and his patience",
            )],
            qs: &[
                (
                    "What piece of furniture did {P} make?",
                    "a floor-to-ceiling bookshelf",
                ),
                (
                    "Whose tools did {P} borrow for the woodworking project?",
                    "{pos} neighbor's",
                ),
            ],
            why: &[(
                "Why did {P} take on a carpentry project at home?",
                "{pos} books were piled all over the floor",
            )],
            when: "When did {P} build the bookshelf?",
            ..E
        }],
    ),
    one(
        "podcast",
        &[],
        &[Event {
            say: &[
                "my cousin and I started a podcast where we review terrible movies, we already rant about them every time we talk. episode one is live!",
                "we launched the podcast! me and my cousin roasting the worst movies ever made, since we rant about them every time we talk anyway",
            ],
            chat: &[(
                "how many listeners?",
                "thirty one, and twenty of them are family",
            )],
            qs: &[
                (
                    "What is {P}'s audio show about?",
                    "reviewing terrible movies",
                ),
                ("Who does {P} record episodes with?", "{pos} cousin"),
            ],
            why: &[(
                "Why did {P} and {pos} cousin decide to put their film opinions on the air?",
                "they rant about terrible movies every time they talk anyway",
            )],
            when: "When did {P} launch {pos} podcast?",
            group: Some((Group::Hobby, "a bad-movie podcast")),
            ..E
        }],
    ),
    one(
        "bike",
        &[],
        &[Event {
            say: &[
                "I bought a commuter bike, bright orange, and I ride to work now because parking downtown costs a fortune. my thighs are on fire",
                "new bike!! orange with a basket, I've been biking to the office every day, parking there was costing me a fortune",
            ],
            chat: &[(
                "isn't the traffic scary?",
                "there's a protected lane most of the way, it's actually nice",
            )],
            qs: &[
                ("How does {P} get to the office these days?", "by bike"),
                ("What color is {P}'s new bicycle?", "orange"),
            ],
            why: &[(
                "Why has {P} started pedaling to work?",
                "parking near the office costs a fortune",
            )],
            when: "When did {P} start biking to work?",
            group: Some((Group::Purchase, "an orange commuter bike")),
            ..E
        }],
    ),
    one(
        "getaway",
        &[Slot::Town],
        &[Event {
            say: &[
                "spent the weekend in {town} at a bed and breakfast with a very grumpy resident cat",
                "we escaped to {town} for a long weekend, tiny b&b, hiked, ate too much pie",
            ],
            chat: &[(
                "was it relaxing?",
                "so relaxing, no wifi, I read two whole books",
            )],
            qs: &[
                ("Where did {P} go for a short break?", "{town}"),
                (
                    "How much did {P} read on the weekend away?",
                    "two whole books",
                ),
            ],
            why: &[(
                "Why did {P} get so much reading done on {pos} short break?",
                "there was no wifi at the b&b",
            )],
            when: "When did {P} go to {town}?",
            group: Some((Group::Trip, "a weekend in {town}")),
            ..E
        }],
    ),
    one(
        "food_bank",
        &[],
        &[Event {
            say: &[
                "volunteered at the food bank today with my coworkers, work gives us a paid volunteer day. our crew packed four hundred boxes in one shift",
                "did a shift at the food bank with my coworkers on our paid volunteer day from work, four hundred grocery boxes packed",
            ],
            chat: &[(
                "that's a lot of boxes",
                "my back agrees. we're going back next month",
            )],
            qs: &[
                ("How many boxes did {P}'s group fill?", "four hundred"),
                (
                    "Who did {P} go help at the hunger charity with?",
                    "{pos} coworkers",
                ),
            ],
            why: &[(
                "Why did {P} and {pos} colleagues spend a shift packing groceries for people in need?",
                "it was their paid volunteer day from work",
            )],
            when: "When did {P} volunteer at the food bank?",
            group: Some((Group::Volunteer, "a food bank")),
            ..E
        }],
    ),
    one(
        "glasses",
        &[],
        &[Event {
            tone: Tone::Plain,
            say: &[
                "I need glasses now, turns out I'm nearsighted! picked out big round tortoiseshell frames, very professor",
                "the eye doctor says I'm nearsighted, so I got glasses, huge round tortoiseshell ones",
            ],
            chat: &[(
                "send a pic!",
                "sending, be nice. I keep pushing them up my nose",
            )],
            qs: &[
                (
                    "What did the optometrist find out about {P}?",
                    "{pro} is nearsighted",
                ),
                (
                    "What do {P}'s new frames look like?",
                    "big, round, tortoiseshell",
                ),
            ],
            when: "When did {P} get glasses?",
            ..E
        }],
    ),
];
