//! Arcs about going places and looking after oneself: a trip abroad with a sibling, a
//! favourite band, a health scare that changes habits.

use super::{Arc, E, Event, Group, Slot, Tone};

pub const ARCS: &[Arc] = &[TRIP, BAND, HEALTH];

const TRIP: Arc = Arc {
    id: "trip",
    slots: &[Slot::City, Slot::Sibling],
    noun: "trip to {city}",
    steps: &[
        Event {
            tone: Tone::Plain,
            say: &[
                "my {sibrel} {sib} and I booked flights to {city} for next month!! our first trip together since we were kids",
                "{sib} (my {sibrel}) talked me into a trip to {city}, flights are booked, I'm already making lists",
            ],
            chat: &[
                (
                    "what's the plan there?",
                    "eat everything, walk everywhere, and {sib} wants to see every museum",
                ),
                (
                    "how long are you going?",
                    "ten days, the longest vacation I've taken in years",
                ),
            ],
            qs: &[
                ("Who is {P} traveling abroad with?", "{pos} {sibrel} {sib}"),
                ("How long is {P}'s vacation going to be?", "ten days"),
            ],
            when: "When did {P} book the trip to {city}?",
            after: "booking the flights",
            ..E
        },
        Event {
            say: &[
                "I'm writing from {city}!! {sib} and I ate pastries for breakfast, lunch and dinner today",
                "greetings from {city}, we walked twenty thousand steps and {sib} got us lost twice",
            ],
            chat: &[
                (
                    "jealous!! best thing so far?",
                    "a tiny family restaurant where the grandma cooked for us and refused to let us pay for wine",
                ),
                ("is the weather nice?", "sunny and warm, I'm already burned"),
            ],
            qs: &[
                ("Which city did {P} visit with {pos} {sibrel}?", "{city}"),
                (
                    "What was the highlight of {P}'s vacation in {country}?",
                    "a family restaurant where the grandma cooked for them",
                ),
                ("Which country did {P} travel to?", "{country}"),
            ],
            why: &[(
                "Why didn't {P} and {sib} have to pay for their wine at one dinner abroad?",
                "the grandma who cooked for them at a tiny family restaurant refused to let them",
            )],
            when: "When did {P} go to {city}?",
            after: "the trip itself",
            group: Some((Group::Trip, "{city}")),
            ..E
        },
        Event {
            tone: Tone::Bad,
            say: &[
                "back from {city} but the airline lost my suitcase with all the souvenirs in it",
                "home from the trip, jet lagged, and the airline lost my bag with every souvenir, it's somewhere that isn't here",
            ],
            chat: &[
                (
                    "noooo, what was in it?",
                    "hand painted tiles I bought for my kitchen and three bottles of local wine",
                ),
                (
                    "will they find it?",
                    "the app says 'in transit', for four days now",
                ),
            ],
            qs: &[
                (
                    "What did {P} lose on the way home?",
                    "the suitcase with souvenirs",
                ),
                (
                    "What souvenirs was {P} bringing back?",
                    "hand-painted tiles and wine",
                ),
            ],
            why: &[(
                "Why are the tiles {P} picked out for {pos} kitchen still missing?",
                "the airline lost the bag with {pos} souvenirs",
            )],
            when: "When did the airline lose {P}'s bag?",
            after: "the lost suitcase",
            ..E
        },
    ],
    open: &[
        "How did {P}'s trip to {city} go from start to finish?",
        "What has {P} told about {pos} trip with {sib}?",
    ],
    recall: &[
        (
            "still dreaming about {city}?",
            "every day, I want to go back",
        ),
        ("how's {sib}?", "good, we talk more since the trip plans"),
    ],
};

const BAND: Arc = Arc {
    id: "band",
    slots: &[Slot::Band],
    noun: "concert plans",
    steps: &[
        Event {
            say: &[
                "I got tickets to see {band}!!! they haven't toured in six years, I was in the online queue for two hours",
                "sat in a ticket queue for two hours but I GOT {band} TICKETS, front section",
            ],
            chat: &[
                (
                    "no way, I love them!",
                    "come with me! I got two tickets just in case",
                ),
                (
                    "how much were they?",
                    "don't ask. ok, a hundred and twenty each",
                ),
            ],
            qs: &[
                ("Which group is {P} going to see live?", "{band}"),
                ("How long did {P} wait online to buy tickets?", "two hours"),
            ],
            why: &[(
                "Why did {P} buy a second ticket to the {band} show?",
                "just in case, so {Q} could come along",
            )],
            when: "When did {P} get the {band} tickets?",
            after: "getting the tickets",
            ..E
        },
        Event {
            say: &[
                "the {band} show last night was unreal, they played for almost three hours and I lost my voice",
                "saw {band} live finally!! three hour set, they opened with my favorite song",
            ],
            chat: &[
                (
                    "was it worth the wait?",
                    "completely, the drummer threw a stick and it landed two rows from me",
                ),
                ("did you get merch?", "a tour shirt, overpriced and perfect"),
            ],
            qs: &[
                (
                    "How long did the concert {P} attended last?",
                    "almost three hours",
                ),
                ("What did {P} buy at the show?", "a tour shirt"),
            ],
            when: "When did {P} see {band} live?",
            after: "the concert",
            ..E
        },
    ],
    open: &[
        "What did {P} go through to see {band}?",
        "How did {P}'s concert plans work out?",
    ],
    recall: &[
        (
            "still listening to {band} nonstop?",
            "guilty, it's on repeat",
        ),
        ("heard any new music lately?", "just the usual, you know me"),
    ],
};

const HEALTH: Arc = Arc {
    id: "health",
    slots: &[Slot::Dish],
    noun: "health",
    steps: &[
        Event {
            tone: Tone::Bad,
            say: &[
                "my checkup came back with high cholesterol, so the doctor wants me to change my diet. goodbye cheese",
                "got my bloodwork back and my cholesterol is way too high, I have three months to fix it before meds",
            ],
            chat: &[
                (
                    "that's scary, what's the plan?",
                    "more vegetables, fewer takeout nights, and cooking at home five nights a week",
                ),
                (
                    "are you ok?",
                    "yeah, it's a wake up call more than anything",
                ),
            ],
            qs: &[
                ("What did {P}'s medical test reveal?", "high cholesterol"),
                (
                    "How is {P} changing {pos} eating habits?",
                    "cooking at home five nights a week, more vegetables",
                ),
            ],
            why: &[(
                "Why is {P} cutting back on ordering takeout?",
                "{pos} cholesterol came back too high",
            )],
            when: "When did {P} find out about {pos} cholesterol?",
            after: "the test results",
            ..E
        },
        Event {
            say: &[
                "I took a cooking class to learn healthy recipes, we made a vegetable {dish} that was actually amazing",
                "signed up for a cooking class to learn healthy recipes and made {dish} with like nine vegetables in it",
            ],
            chat: &[
                ("teach me!", "come over saturday, I'll make it for you"),
                (
                    "is it hard?",
                    "lots of chopping, my knife skills are improving",
                ),
            ],
            qs: &[("What dish did {P} learn to cook?", "a vegetable {dish}")],
            why: &[(
                "Why did {P} sign up for lessons in the kitchen?",
                "to learn healthy recipes",
            )],
            why_earlier: &[(
                0,
                "Why did {P} go looking for healthier recipes in the first place?",
                "{pos} cholesterol came back high, so {pro} has to change {pos} diet",
            )],
            when: "When did {P} take the cooking class?",
            after: "the cooking class",
            group: Some((Group::Learning, "healthy cooking")),
            ..E
        },
        Event {
            say: &[
                "follow up bloodwork came back and my cholesterol is normal! the doctor actually high fived me",
                "good news from the doctor, my numbers are back in the normal range, no meds needed",
            ],
            chat: &[
                (
                    "yesss! celebrate with cheese?",
                    "one small piece, as a treat",
                ),
                (
                    "did you lose weight too?",
                    "twelve pounds without really trying",
                ),
            ],
            qs: &[
                (
                    "What did {P}'s second blood test show?",
                    "cholesterol back to normal",
                ),
                (
                    "How much weight did {P} lose with the new diet?",
                    "twelve pounds",
                ),
            ],
            why: &[(
                "Why won't {P} need pills for {pos} cholesterol after all?",
                "{pos} cholesterol numbers are back in the normal range",
            )],
            when: "When did {P} get the good test results?",
            after: "the good results",
            ..E
        },
    ],
    open: &[
        "How has {P}'s health journey gone?",
        "What has {P} done about {pos} health over time?",
    ],
    recall: &[
        (
            "still eating all the veggies?",
            "mostly! pizza fridays are sacred though",
        ),
        (
            "how are you feeling these days?",
            "honestly better than in years",
        ),
    ],
};
