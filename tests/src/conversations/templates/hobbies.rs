//! Arcs about hobbies made with the hands: pottery, an instrument, baking.

use super::{Arc, E, Event, Group, Slot, Tone};

pub const ARCS: &[Arc] = &[POTTERY, INSTRUMENT, BAKING];

const POTTERY: Arc = Arc {
    id: "pottery",
    slots: &[Slot::Studio],
    noun: "pottery",
    steps: &[
        Event {
            say: &[
                "I've been throwing clay at {studio} on tuesday nights! total beginner, everything I make wobbles",
                "so I signed up for a wheel class at {studio}, tuesdays after work. my hands are permanently grey now",
            ],
            chat: &[
                (
                    "wait like pottery wheel, ghost style?",
                    "exactly like that except I'm covered in mud and nobody's romantic about it",
                ),
                (
                    "is it hard?",
                    "centering the lump is the hardest part, it keeps flying off",
                ),
            ],
            qs: &[
                (
                    "What kind of art class does {P} take?",
                    "pottery, on the wheel",
                ),
                (
                    "On which evening does {P} go to {pos} ceramics lessons?",
                    "Tuesday",
                ),
                ("Where does {P} make ceramics?", "{studio}"),
            ],
            when: "When did {P} start making ceramics?",
            after: "starting the wheel class",
            group: Some((Group::Hobby, "pottery at {studio}")),
            ..E
        },
        Event {
            tone: Tone::Bad,
            say: &[
                "my first real bowl exploded in the kiln. apparently there was an air bubble in it",
                "ugh the kiln firing went badly, my bowl cracked right down the middle. air pocket, says the instructor",
            ],
            chat: &[
                (
                    "nooo, all that work",
                    "I kept one shard as a souvenir lol. next time I'm wedging the clay way longer",
                ),
                ("did anyone else's break?", "just mine, of course"),
            ],
            qs: &[
                (
                    "What happened to the first piece {P} fired?",
                    "it cracked/exploded in the kiln",
                ),
                (
                    "What caused {P}'s bowl to break?",
                    "an air bubble in the clay",
                ),
            ],
            why: &[(
                "Why is {P} going to spend longer kneading {pos} clay from now on?",
                "{pos} first bowl broke in the kiln because of an air bubble",
            )],
            when: "When did {P}'s bowl crack in the kiln?",
            after: "the kiln accident",
            ..E
        },
        Event {
            say: &[
                "I finished a set of four mugs with a speckled blue glaze, they're going to be christmas presents",
                "glazed my first matching set!! four mugs, speckled blue, I'm giving them away as gifts",
            ],
            chat: &[
                (
                    "do I get one??",
                    "if you're nice to me. my mom gets the least wonky one",
                ),
                (
                    "how long did they take?",
                    "like six weeks with all the drying and firing",
                ),
            ],
            qs: &[
                (
                    "What did {P} make as gifts for people?",
                    "four mugs with a speckled blue glaze",
                ),
                (
                    "What color finish did {P} choose for {pos} mugs?",
                    "speckled blue",
                ),
                ("Who gets the best cup {P} made?", "{pos} mom"),
            ],
            when: "When did {P} finish the mug set?",
            after: "the mug set",
            ..E
        },
        Event {
            say: &[
                "I had a table at the winter craft fair and sold almost all my pots! made like three hundred bucks",
                "sold my ceramics at the craft market this weekend, almost everything went, three hundred dollars!",
            ],
            chat: &[
                (
                    "you're a professional now!",
                    "haha it barely covers the studio fees but it felt amazing",
                ),
                (
                    "what sold best?",
                    "the little planters, people love a tiny planter",
                ),
            ],
            qs: &[
                (
                    "How much did {P} earn selling {pos} work?",
                    "about three hundred dollars",
                ),
                (
                    "Where did {P} sell the things {pro} made?",
                    "a winter craft fair",
                ),
            ],
            when: "When did {P} sell pottery at the fair?",
            after: "the craft fair",
            ..E
        },
    ],
    open: &[
        "How has {P}'s pottery progressed?",
        "How has {P}'s ceramics hobby developed over time?",
    ],
    recall: &[
        (
            "still going to {studio}?",
            "every tuesday, it's my happy place",
        ),
        (
            "made anything new at the wheel?",
            "a few lopsided things, nothing worth bragging about yet",
        ),
    ],
};

const INSTRUMENT: Arc = Arc {
    id: "instrument",
    slots: &[Slot::Instrument],
    noun: "music",
    steps: &[
        Event {
            say: &[
                "I bought a secondhand {instr} off a guy online, I'm finally learning an instrument at my age",
                "so I picked up a used {instr} for cheap and I'm teaching myself from youtube videos",
            ],
            chat: &[
                (
                    "what made you do it?",
                    "my grandpa played and I always regretted never learning",
                ),
                ("can you play anything yet?", "twinkle twinkle, badly"),
            ],
            qs: &[
                ("What instrument is {P} learning?", "{instr}"),
                ("Who inspired {P} to start playing music?", "{pos} grandpa"),
            ],
            why: &[(
                "Why did {P} take up an instrument as an adult?",
                "{pos} grandpa played and {pro} always regretted never learning",
            )],
            when: "When did {P} get {pos} {instr}?",
            after: "buying the {instr}",
            group: Some((Group::Learning, "the {instr}")),
            ..E
        },
        Event {
            say: &[
                "I started proper lessons with a teacher named {teacher}, once a week. turns out I was holding it wrong",
                "got myself a real teacher, {teacher}, and the first thing they did was fix my posture lol, I was holding it all wrong",
            ],
            chat: &[
                (
                    "how much do lessons cost?",
                    "forty dollars for half an hour, worth it so far",
                ),
                (
                    "are you practicing?",
                    "twenty minutes a day, the neighbors love me",
                ),
            ],
            qs: &[
                ("Who gives {P} music lessons?", "{teacher}"),
                (
                    "What does {P} pay for a lesson?",
                    "forty dollars per half hour",
                ),
            ],
            why: &[(
                "Why did {P}'s new music teacher begin by correcting {obj}?",
                "{pro} had been holding the {instr} wrong",
            )],
            when: "When did {P} start lessons with {teacher}?",
            after: "the first lessons",
            ..E
        },
        Event {
            say: &[
                "I played two songs at the open mic at the corner bar!! my hands were shaking the whole time",
                "did my first open mic last night, two songs on the {instr}, didn't die",
            ],
            chat: &[
                (
                    "omg!! what did you play?",
                    "a slow version of a beatles song and one folk song my grandpa loved",
                ),
                (
                    "was anyone you know there?",
                    "my coworkers came and cheered way too loud",
                ),
            ],
            qs: &[
                (
                    "Where did {P} perform music in public?",
                    "an open mic at a bar",
                ),
                ("Which band's song did {P} cover?", "the Beatles"),
            ],
            why: &[(
                "Why did {P} include a folk number when {pro} performed at the bar?",
                "it was a song {pos} grandpa loved",
            )],
            when: "When did {P} perform at the open mic?",
            after: "the open mic",
            ..E
        },
    ],
    open: &[
        "How has {P}'s musical journey gone so far?",
        "What progress has {P} made learning to play?",
    ],
    recall: &[
        (
            "still practicing the {instr}?",
            "trying to! my fingertips hurt though",
        ),
        (
            "play me something next time",
            "deal, if you promise not to laugh",
        ),
    ],
};

const BAKING: Arc = Arc {
    id: "baking",
    slots: &[],
    noun: "baking",
    steps: &[
        Event {
            say: &[
                "I have a sourdough starter now. I named it Doughlene and I feed it every morning like a pet",
                "started my own sourdough starter, her name is Doughlene and she lives on top of the fridge",
            ],
            chat: &[
                (
                    "lol why Doughlene?",
                    "it's a pun on my favorite dolly parton song obviously",
                ),
                (
                    "so you're a bread person now",
                    "I'm trying, the internet makes it look easy",
                ),
            ],
            qs: &[
                ("What did {P} name {pos} sourdough culture?", "Doughlene"),
                (
                    "What bread-making project did {P} begin?",
                    "a sourdough starter",
                ),
            ],
            when: "When did {P} start {pos} sourdough?",
            after: "starting the sourdough",
            group: Some((Group::Hobby, "sourdough baking")),
            ..E
        },
        Event {
            tone: Tone::Bad,
            say: &[
                "my first three loaves came out flat as frisbees. I think my kitchen is too cold for the dough",
                "bread update: three flat pancake loaves in a row. dense, gummy, sad. I blame my cold kitchen, the dough never rises",
            ],
            chat: &[
                (
                    "did you eat them anyway?",
                    "made croutons out of them, nothing goes to waste",
                ),
                (
                    "what went wrong?",
                    "probably the cold kitchen, it never rises",
                ),
            ],
            qs: &[("What did {P} do with the failed loaves?", "made croutons")],
            why: &[
                (
                    "Why does {P} think {pos} bread didn't rise?",
                    "the kitchen is too cold",
                ),
                (
                    "Why did {P} end up turning bread into croutons?",
                    "{pos} first loaves came out flat because the kitchen is too cold",
                ),
            ],
            when: "When did {P}'s loaves come out flat?",
            after: "the flat loaves",
            ..E
        },
        Event {
            say: &[
                "I baked twelve loaves for my neighborhood's bake sale and they all sold! finally nailed it",
                "the bread finally works!! sold a dozen loaves at the street bake sale",
            ],
            chat: &[
                (
                    "what was the trick?",
                    "proofing it in the oven with just the light on, warm enough",
                ),
                (
                    "did you keep one?",
                    "one for me, one for the lady next door who gave me the tip",
                ),
            ],
            qs: &[
                ("How many loaves did {P} sell?", "twelve"),
                (
                    "What trick fixed {P}'s bread?",
                    "proofing in the oven with only the light on",
                ),
            ],
            why_earlier: &[(
                1,
                "Why does {P} now leave {pos} dough to rise inside the oven with the lamp on?",
                "{pos} kitchen is too cold: the first loaves came out flat, the oven light keeps it warm enough",
            )],
            when: "When did {P} sell bread at the bake sale?",
            after: "the bake sale",
            ..E
        },
    ],
    open: &[
        "How has {P}'s bread making gone?",
        "What has {P} learned from baking at home?",
    ],
    recall: &[
        (
            "how's Doughlene?",
            "alive and bubbly, unlike my social life",
        ),
        ("baking anything this week?", "a loaf on sunday, as always"),
    ],
};
