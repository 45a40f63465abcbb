//! Arcs about learning and looking: a language, a book club, film photography.

use super::{Arc, E, Event, Group, Slot};

pub const ARCS: &[Arc] = &[LANGUAGE, BOOK_CLUB, PHOTOGRAPHY];

const LANGUAGE: Arc = Arc {
    id: "language",
    slots: &[Slot::Lang],
    noun: "{lang}",
    steps: &[
        Event {
            say: &[
                "I'm learning {lang}! doing the owl app every day, I'm on a 40 day streak",
                "started learning {lang} on duolingo, forty days straight so far",
            ],
            chat: &[
                (
                    "why {lang}?",
                    "I want to visit {langland} next year and not just point at menus",
                ),
                ("is it hard?", "the grammar is melting my brain"),
            ],
            qs: &[("Which foreign tongue is {P} studying?", "{lang}")],
            why: &[("Why is {P} learning a new language?", "to visit {langland}")],
            when: "When did {P} start learning {lang}?",
            after: "starting with the app",
            group: Some((Group::Learning, "{lang}")),
            ..E
        },
        Event {
            say: &[
                "I found a {lang} tutor online, {tutor}, we do video calls twice a week because the app never made me actually speak",
                "I'm doing lessons with a tutor named {tutor} now, two calls a week, way better than the app for actually speaking",
            ],
            chat: &[
                (
                    "is {tutor} strict?",
                    "very, {tutor} makes me talk about my day and corrects every verb",
                ),
                ("how much is it?", "pretty cheap actually, twenty an hour"),
            ],
            qs: &[
                ("Who teaches {P} {lang}?", "{tutor}"),
                (
                    "How often does {P} meet {pos} language teacher?",
                    "twice a week",
                ),
            ],
            why: &[(
                "Why did {P} start paying a private instructor for {lang}?",
                "the app alone never got {obj} actually speaking",
            )],
            when: "When did {P} start with {pos} tutor?",
            after: "hiring a tutor",
            ..E
        },
        Event {
            say: &[
                "I had a whole conversation in {lang} with the owner of the little restaurant on fifth! he was so happy",
                "ordered dinner entirely in {lang} at a family restaurant and chatted with the owner for ten minutes",
            ],
            chat: &[
                (
                    "did he understand you?",
                    "mostly! he gave me free dessert for trying",
                ),
                (
                    "were you nervous?",
                    "I rehearsed in the car for twenty minutes",
                ),
            ],
            qs: &[
                (
                    "What reward did {P} get for speaking the language at a restaurant?",
                    "free dessert",
                ),
                (
                    "Who did {P} practice {lang} with in real life?",
                    "a restaurant owner",
                ),
            ],
            why: &[(
                "Why did {P} get a sweet on the house at the family restaurant?",
                "the owner gave {obj} free dessert for trying to speak {lang}",
            )],
            when: "When did {P} first speak {lang} at a restaurant?",
            after: "the restaurant conversation",
            ..E
        },
    ],
    open: &[
        "How has {P}'s language learning progressed?",
        "How far has {P} come with {lang}?",
    ],
    recall: &[
        (
            "how's the {lang} going?",
            "slowly, but I dreamed in it once",
        ),
        (
            "say something in {lang}!",
            "I'll send you a voice note, I'm shy",
        ),
    ],
};

const BOOK_CLUB: Arc = Arc {
    id: "book_club",
    slots: &[Slot::Book],
    noun: "book club",
    steps: &[
        Event {
            say: &[
                "I joined a book club at the library, once a month. first pick is {book} by {author}",
                "so I'm in a book club now, library crowd, we meet monthly. we're reading {book}",
            ],
            chat: &[
                (
                    "is {book} good?",
                    "it's slow at first but the ending wrecked me",
                ),
                (
                    "who's in it?",
                    "mostly retired teachers, they're savage about plot holes",
                ),
            ],
            qs: &[
                ("What novel did {P}'s reading group pick first?", "{book}"),
                ("Where does {P}'s reading group meet?", "the library"),
            ],
            when: "When did {P} join the book club?",
            after: "joining the book club",
            group: Some((Group::Hobby, "a library book club")),
            ..E
        },
        Event {
            say: &[
                "it was my turn to host book club, so I made a huge pot of chili and we argued about the ending for two hours",
                "it was my turn to host the book club! chili, wine, and a two hour fight about the ending",
            ],
            chat: &[
                (
                    "what did you make?",
                    "chili and cornbread, nobody left hungry",
                ),
                ("who won the argument?", "me, obviously"),
            ],
            qs: &[
                (
                    "What food did {P} serve to {pos} reading group?",
                    "chili and cornbread",
                ),
                (
                    "How long did the discussion at {P}'s home last?",
                    "two hours",
                ),
            ],
            why: &[(
                "Why did {P}'s reading group gather at {pos} home that month?",
                "it was {pos} turn to host",
            )],
            when: "When did {P} host the book club?",
            after: "hosting the club",
            ..E
        },
        Event {
            say: &[
                "our book club got to do a video call with an actual author, {author}! I asked a question and everything",
                "{author} joined our book club on zoom!! I got to ask about the ending",
            ],
            chat: &[
                (
                    "what did you ask?",
                    "whether the sister was lying the whole time. the answer was 'yes and no', classic",
                ),
                ("were you starstruck?", "completely, I forgot my own name"),
            ],
            qs: &[
                ("Which writer spoke with {P}'s reading group?", "{author}"),
                (
                    "What did {P} ask the author about?",
                    "whether the sister was lying",
                ),
            ],
            when: "When did {P}'s book club talk with {author}?",
            after: "the author call",
            ..E
        },
    ],
    open: &[
        "What has {P} experienced in {pos} book club?",
        "How has {P}'s reading group been going?",
    ],
    recall: &[
        (
            "what's book club reading now?",
            "something about a lighthouse, I'm behind as usual",
        ),
        ("still doing book club?", "yep, can't miss the snacks"),
    ],
};

const PHOTOGRAPHY: Arc = Arc {
    id: "photography",
    slots: &[],
    noun: "photography",
    steps: &[
        Event {
            say: &[
                "I bought an old film camera at a flea market for thirty bucks, a canon from the seventies",
                "new toy: a vintage canon film camera from the flea market, thirty dollars and it actually works",
            ],
            chat: &[
                (
                    "film is so expensive now though",
                    "I know, every click hurts my wallet, so I think a lot before I shoot",
                ),
                ("what are you shooting?", "mostly old storefronts downtown"),
            ],
            qs: &[
                (
                    "What did {P} find at the flea market?",
                    "a vintage Canon film camera",
                ),
                ("How much did {P} pay for {pos} camera?", "thirty dollars"),
            ],
            why: &[(
                "Why is {P} so sparing with the pictures {pro} takes on {pos} vintage camera?",
                "film is expensive, every click costs money",
            )],
            when: "When did {P} buy the film camera?",
            after: "finding the camera",
            group: Some((Group::Hobby, "film photography")),
            ..E
        },
        Event {
            say: &[
                "I joined a photo walk group, we wander around the docks at sunrise with our cameras",
                "went on my first sunrise photo walk along the docks with a group of strangers, so peaceful",
            ],
            chat: &[
                (
                    "sunrise?? you?",
                    "I know, I had three alarms. worth it though, the light on the water was unreal",
                ),
                (
                    "are the people nice?",
                    "mostly retirees with fancy lenses, they adopted me",
                ),
            ],
            qs: &[
                (
                    "Where does {P}'s camera club go to shoot?",
                    "the docks, at sunrise",
                ),
                (
                    "What time of day does {P} go out to take pictures with the group?",
                    "sunrise",
                ),
            ],
            why: &[(
                "Why did {P} have to drag {obj}self out of bed before dawn?",
                "for a sunrise photo walk along the docks",
            )],
            when: "When did {P} go on {pos} first photo walk?",
            after: "the first photo walk",
            ..E
        },
        Event {
            say: &[
                "a cafe downtown is hanging six of my prints for a month!! my first little exhibit",
                "so the coffee shop on main street is showing six of my photos, like an actual exhibition",
            ],
            chat: &[
                (
                    "I'm coming to see them!",
                    "please do, the dock sunrise one is the best",
                ),
                ("are they for sale?", "yes, fifty each, one already sold!"),
            ],
            qs: &[
                (
                    "Where are {P}'s pictures being displayed?",
                    "a cafe downtown",
                ),
                ("How many of {P}'s prints are on show?", "six"),
            ],
            when: "When did {P}'s photos go up at the cafe?",
            after: "the cafe exhibit",
            ..E
        },
    ],
    open: &[
        "How has {P}'s photography developed?",
        "What has {P} done with {pos} interest in cameras?",
    ],
    recall: &[
        (
            "taken any good photos lately?",
            "a couple, I still have to develop the last roll",
        ),
        (
            "still carrying that old camera around?",
            "everywhere, it's basically an accessory now",
        ),
    ],
};
