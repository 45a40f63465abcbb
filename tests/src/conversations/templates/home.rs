//! Arcs about home life: buying a house, replacing a car, a new relationship.

use super::{Arc, E, Event, Group, Slot, Tone};

pub const ARCS: &[Arc] = &[HOUSE, CAR, DATING];

const HOUSE: Arc = Arc {
    id: "house",
    slots: &[],
    noun: "house",
    steps: &[
        Event {
            say: &[
                "our offer got accepted!!! we're buying the little yellow house with the porch on elm street",
                "WE GOT THE HOUSE. the yellow one with the big porch, after losing out on four others",
            ],
            chat: &[
                (
                    "omg congrats!! when do you get the keys?",
                    "closing is in six weeks, I'm already picking paint colors",
                ),
                ("how many bedrooms?", "three, so you have a guest room now"),
            ],
            qs: &[
                ("What color is the home {P} is purchasing?", "yellow"),
                ("How many bids did {P} lose before this one worked?", "four"),
            ],
            when: "When did {P}'s offer on the house get accepted?",
            after: "the accepted offer",
            group: Some((Group::Purchase, "a yellow house")),
            ..E
        },
        Event {
            tone: Tone::Bad,
            say: &[
                "moving day was a disaster, the truck showed up four hours late and it rained on the mattress",
                "we moved in!! but the movers were four hours late and half the boxes got wet in the rain",
            ],
            chat: &[
                ("anything broken?", "just one lamp and my will to live"),
                (
                    "do you like the new place at least?",
                    "love it, the porch at sunset is everything",
                ),
            ],
            qs: &[
                ("How late were {P}'s movers?", "four hours"),
                ("What did {P} lose in the relocation?", "one lamp broke"),
            ],
            why: &[(
                "Why did {P}'s move into the new house go so badly?",
                "the movers were four hours late and it rained on {pos} things",
            )],
            when: "When did {P} move into the new house?",
            after: "moving in",
            ..E
        },
        Event {
            say: &[
                "we're redoing the kitchen, ripped out the old cabinets ourselves and found newspapers from 1962 in the wall",
                "kitchen renovation has begun. we found newspapers from 1962 behind the cabinets, like a time capsule",
            ],
            chat: &[
                (
                    "so cool, what was in them?",
                    "grocery ads, bread was nineteen cents",
                ),
                (
                    "how long will it take?",
                    "the contractor says six weeks which means twelve",
                ),
            ],
            qs: &[
                (
                    "What surprise did {P} find while renovating?",
                    "newspapers from 1962 in the wall",
                ),
                ("Which room is {P} remodeling?", "the kitchen"),
            ],
            when: "When did {P} start renovating the kitchen?",
            after: "the kitchen renovation",
            ..E
        },
        Event {
            say: &[
                "we finally had our housewarming, like forty people came and someone brought a goat?? long story",
                "housewarming party was a hit, forty people, tacos, and my coworker showed up with a goat",
            ],
            chat: &[
                (
                    "a GOAT?",
                    "her family has a farm, she thought it was funny. it ate a napkin",
                ),
                (
                    "what did you serve?",
                    "a taco bar, the easiest way to feed forty people",
                ),
            ],
            qs: &[
                ("What unusual guest came to {P}'s party?", "a goat"),
                ("What food did {P} serve at the housewarming?", "a taco bar"),
            ],
            why: &[(
                "Why did a guest bring livestock to {P}'s party?",
                "her family has a farm and she thought a goat would be funny",
            )],
            when: "When did {P} have {pos} housewarming?",
            after: "the housewarming",
            ..E
        },
    ],
    open: &[
        "How has {P}'s home buying and moving gone?",
        "What has {P} shared about {pos} new house over time?",
    ],
    recall: &[
        (
            "how's the new house treating you?",
            "still finding boxes I forgot about",
        ),
        (
            "done any more work on the house?",
            "just painting, it never ends",
        ),
    ],
};

const CAR: Arc = Arc {
    id: "car",
    slots: &[Slot::Car],
    noun: "car",
    steps: &[
        Event {
            tone: Tone::Bad,
            say: &[
                "my old car finally broke down on the highway, the transmission is gone and fixing it would cost more than the car is worth. the mechanic basically laughed",
                "so my car broke down on the interstate, the transmission is shot and the repair would cost more than it's worth. rip",
            ],
            chat: &[
                (
                    "oh no, how are you getting around?",
                    "bus and borrowing my neighbor's bike, it's humbling",
                ),
                ("how old was it?", "nineteen years, it had a good life"),
            ],
            qs: &[
                ("What part failed on {P}'s old vehicle?", "the transmission"),
                ("How old was {P}'s previous car?", "nineteen years"),
            ],
            why: &[(
                "Why did {P} give up on getting {pos} old car fixed?",
                "the transmission is gone and the repair would cost more than the car is worth",
            )],
            when: "When did {P}'s old car break down?",
            after: "the breakdown",
            ..E
        },
        Event {
            say: &[
                "I bought a {car}! no more buses for me. it has a hundred thousand miles but it drives like a dream",
                "finally got wheels again: a {car}, green, only one tiny dent",
            ],
            chat: &[
                (
                    "nice, did you haggle?",
                    "got them down fifteen hundred because of the dent",
                ),
                ("what color?", "forest green, very dad-core"),
            ],
            qs: &[
                ("What vehicle did {P} purchase?", "a {car}"),
                (
                    "How much did {P} negotiate off the price?",
                    "fifteen hundred dollars",
                ),
                ("Which brand is {P}'s ride?", "{make}"),
            ],
            why: &[(
                "Why did the seller of the {make} accept less money from {P}?",
                "because of a dent, fifteen hundred off",
            )],
            why_earlier: &[(
                0,
                "Why did {P} have to buy another car?",
                "{pos} old car broke down and wasn't worth repairing",
            )],
            when: "When did {P} buy the {make}?",
            after: "buying the {make}",
            group: Some((Group::Purchase, "a {car}")),
            ..E
        },
        Event {
            say: &[
                "took the {make} on a road trip up the coast, six hundred miles and not a single problem",
                "we drove the new car all the way up the coast for the long weekend, camped on the beach two nights",
            ],
            chat: &[
                (
                    "where did you stop?",
                    "a tiny town with the best clam chowder of my life",
                ),
                (
                    "did you sleep in the car?",
                    "one night, the seats fold flat, it was cozy",
                ),
            ],
            qs: &[
                (
                    "Where did {P} drive {pos} new vehicle on a long trip?",
                    "up the coast",
                ),
                ("What food did {P} love on the drive?", "clam chowder"),
            ],
            when: "When did {P} take the coast road trip?",
            after: "the coastal road trip",
            group: Some((Group::Trip, "a road trip up the coast")),
            ..E
        },
    ],
    open: &[
        "What has happened with {P}'s cars?",
        "How did {P} deal with being without a car and what came after?",
    ],
    recall: &[
        ("still getting around ok?", "yeah, no complaints"),
        ("any more car drama?", "none, knock on wood"),
    ],
};

const DATING: Arc = Arc {
    id: "dating",
    slots: &[Slot::Partner],
    noun: "relationship",
    steps: &[
        Event {
            say: &[
                "ok don't make it weird but I've been seeing someone. {date}, we met at a friend's board game night",
                "so I went on a few dates with this person {date}, met at board game night, {datehe} works as {datejob}",
            ],
            chat: &[
                (
                    "WHAT. tell me everything",
                    "{datehe}'s {datejob}, funny, terrible at board games, I like {datehim} a lot",
                ),
                ("how many dates so far?", "four, but who's counting"),
            ],
            qs: &[
                ("Who is {P} dating?", "{date}"),
                (
                    "How did {P} meet {pos} new partner?",
                    "at a friend's board game night",
                ),
                (
                    "What does {P}'s partner {date} do for a living?",
                    "{datejob}",
                ),
            ],
            when: "When did {P} start seeing {date}?",
            after: "meeting {date}",
            ..E
        },
        Event {
            tone: Tone::Plain,
            say: &[
                "I met {date}'s parents this weekend. {datehis} mom made a five course dinner and quizzed me the whole time",
                "big step: dinner with {date}'s family. five courses and a full interrogation from the mom",
            ],
            chat: &[
                (
                    "how did it go??",
                    "I think I passed? the dad showed me his model trains, apparently that's a good sign",
                ),
                ("were you nervous?", "I changed outfits three times"),
            ],
            qs: &[
                ("What hobby did {date}'s father show {P}?", "model trains"),
                (
                    "How many courses did the family dinner {P} attended have?",
                    "five",
                ),
            ],
            why: &[(
                "Why does {P} believe {pro} won over {date}'s family?",
                "{date}'s dad showed {obj} his model trains, apparently a good sign",
            )],
            when: "When did {P} meet {date}'s parents?",
            after: "meeting the parents",
            ..E
        },
        Event {
            say: &[
                "{date} and I are moving in together!! we signed a lease on a two bedroom by the river",
                "big news: {date} and I got an apartment together, two bedrooms, river view, move in next month",
            ],
            chat: &[
                ("already?! congrats!", "I know it's fast but it feels right"),
                (
                    "who gets the second bedroom?",
                    "it's an office slash guest room, you're invited",
                ),
            ],
            qs: &[
                (
                    "Where will {P} live with {pos} partner?",
                    "a two-bedroom apartment by the river",
                ),
                (
                    "What big relationship step did {P} take with {date}?",
                    "moving in together",
                ),
            ],
            when: "When did {P} and {date} decide to move in together?",
            after: "signing the lease together",
            ..E
        },
    ],
    open: &[
        "How has {P}'s relationship with {date} developed?",
        "What milestones has {P} reached in {pos} love life?",
    ],
    recall: &[
        ("how's {date}?", "good! says hi"),
        ("still happy with {date}?", "very, it's kind of disgusting"),
    ],
};
