//! Arcs about getting out: running, hiking, a garden plot.

use super::{Arc, E, Event, Group, Slot, Tone};

pub const ARCS: &[Arc] = &[RUNNING, HIKING, GARDEN];

const RUNNING: Arc = Arc {
    id: "running",
    slots: &[Slot::Race],
    noun: "running",
    steps: &[
        Event {
            say: &[
                "I started one of those couch to 5k apps. day three and my lungs are filing a complaint",
                "so I'm jogging now?? doing a couch to 5k plan, three mornings a week before work",
            ],
            chat: &[
                (
                    "why the sudden cardio?",
                    "my doctor said my blood pressure is creeping up, so here we are",
                ),
                ("do you like it?", "I like the part where it ends"),
            ],
            qs: &[("What fitness program did {P} begin?", "a couch to 5k plan")],
            why: &[(
                "Why did {P} start exercising?",
                "{pos} doctor said {pos} blood pressure is creeping up",
            )],
            when: "When did {P} take up running?",
            after: "starting the 5k plan",
            group: Some((Group::Fitness, "running")),
            ..E
        },
        Event {
            say: &[
                "I ran the {race} on sunday! my first race ever, finished in fifty eight minutes",
                "crossed the finish line at the {race}!! fifty eight minutes, didn't walk once",
            ],
            chat: &[
                (
                    "that's amazing, was it hard?",
                    "the last hill was brutal but a kid held up a sign saying 'tap here for power' and I tapped it",
                ),
                (
                    "are you hooked now?",
                    "kind of? already looking at the next one",
                ),
            ],
            qs: &[
                (
                    "What was {P}'s finishing time in {pos} first race?",
                    "fifty-eight minutes",
                ),
                (
                    "Which event did {P} complete as {pos} first race?",
                    "the {race}",
                ),
            ],
            why: &[(
                "Why did {P} slap a placard a child was holding up near the end of the course?",
                "the last hill was brutal and the kid's sign said 'tap here for power'",
            )],
            when: "When did {P} run the {race}?",
            after: "the first race",
            ..E
        },
        Event {
            tone: Tone::Bad,
            say: &[
                "hurt my knee on a long run, the physio says it's runner's knee and no running for a month",
                "ugh my knee gave out halfway through my run, physical therapist says runner's knee, four weeks off",
            ],
            chat: &[
                (
                    "oh no, what are you doing instead?",
                    "swimming laps at the y and doing boring band exercises",
                ),
                ("does it hurt a lot?", "only on stairs, which is every day"),
            ],
            qs: &[
                ("What injury did {P} get from jogging?", "runner's knee"),
                (
                    "What exercise is {P} doing while {pro} recovers?",
                    "swimming laps",
                ),
            ],
            why: &[(
                "Why has {P} traded the running trails for the pool for now?",
                "runner's knee: no running for a month, so {pro} swims laps instead",
            )],
            when: "When did {P} hurt {pos} knee?",
            after: "the knee injury",
            ..E
        },
        Event {
            say: &[
                "I did it, I finished a half marathon!! two hours eleven minutes, knee held up fine",
                "half marathon done! 2:11, I cried at the finish line a little",
            ],
            chat: &[
                (
                    "I'm so proud of you!",
                    "a year ago I couldn't run to the mailbox",
                ),
                ("what's next, a full?", "absolutely not. ok maybe"),
            ],
            qs: &[
                (
                    "What distance did {P} complete after recovering?",
                    "a half marathon",
                ),
                (
                    "How long did {P}'s longest race take?",
                    "two hours eleven minutes",
                ),
            ],
            when: "When did {P} finish a half marathon?",
            after: "the half marathon",
            ..E
        },
    ],
    open: &[
        "How has {P}'s running gone over time?",
        "How has {P}'s fitness journey progressed?",
    ],
    recall: &[
        ("still running?", "when the weather lets me, yeah"),
        ("how are the legs?", "sore but alive"),
    ],
};

const HIKING: Arc = Arc {
    id: "hiking",
    slots: &[Slot::Peak],
    noun: "hiking",
    steps: &[
        Event {
            say: &[
                "I joined a meetup hiking group, we do a trail every other saturday. first one was eight miles",
                "found a hiking club online and went on my first group hike, eight miles, everyone was so friendly",
            ],
            chat: &[
                (
                    "eight miles on the first try?",
                    "I was the slowest by far, but they waited for me at the top",
                ),
                (
                    "did you need new boots?",
                    "yeah I caved and bought real boots, my sneakers were a joke",
                ),
            ],
            qs: &[
                (
                    "What group did {P} join to get outdoors?",
                    "a hiking meetup group",
                ),
                (
                    "How long was {P}'s first trek with the club?",
                    "eight miles",
                ),
            ],
            why: &[(
                "Why did the other club members have to wait around for {P} on {pos} first outing?",
                "{pro} was the slowest by far",
            )],
            when: "When did {P} join the hiking group?",
            after: "joining the hiking group",
            group: Some((Group::Fitness, "hiking with a club")),
            ..E
        },
        Event {
            say: &[
                "we summited {peak} on saturday!! started at 4am, the view from the top was insane",
                "I made it to the top of {peak}!! eleven hours round trip and I can't feel my legs",
            ],
            chat: &[
                (
                    "pics or it didn't happen",
                    "sending them! you can see three other peaks above the clouds",
                ),
                (
                    "was there snow?",
                    "a little near the top, we used those spiky things on our boots",
                ),
            ],
            qs: &[
                ("Which mountain did {P} climb?", "{peak}"),
                (
                    "What did {P} see from the summit?",
                    "other peaks above the clouds",
                ),
            ],
            when: "When did {P} summit {peak}?",
            after: "the summit",
            ..E
        },
        Event {
            tone: Tone::Bad,
            say: &[
                "our camping trip got rained out, the tent flooded at 3am and we drove home soaked",
                "went backpacking with the hiking crew and the rain poured all night, my sleeping bag was a sponge so we gave up and hiked out at dawn",
            ],
            chat: &[
                (
                    "oh no, did anything survive?",
                    "my phone died and my boots are still drying on the porch",
                ),
                ("will you go again?", "yes but with a better tent"),
            ],
            qs: &[
                (
                    "What went wrong on {P}'s overnight trip?",
                    "the rain flooded the tent",
                ),
                (
                    "What of {P}'s gear got ruined in the storm?",
                    "{pos} phone died and {pos} boots got soaked",
                ),
            ],
            why: &[(
                "Why did {P}'s overnight outing with the hiking crew end early?",
                "a night of heavy rain soaked them",
            )],
            when: "When did {P}'s camping trip get rained out?",
            after: "the rained-out camping trip",
            ..E
        },
    ],
    open: &[
        "How have {P}'s hiking adventures gone?",
        "What outdoor trips has {P} done with the hiking club?",
    ],
    recall: &[
        (
            "any hikes lately?",
            "just an easy one last weekend, nothing dramatic",
        ),
        (
            "how's the hiking crew?",
            "good! we're planning the next big one",
        ),
    ],
};

const GARDEN: Arc = Arc {
    id: "garden",
    slots: &[],
    noun: "garden",
    steps: &[
        Event {
            say: &[
                "I got a plot at the community garden! planted tomatoes, zucchini and way too many peppers",
                "so I'm a gardener now, rented a little community garden plot and put in tomatoes and zucchini",
            ],
            chat: &[
                (
                    "do you know what you're doing?",
                    "nope, there's a retired guy in the next plot who yells advice at me",
                ),
                ("is it far?", "ten minutes by bike"),
            ],
            qs: &[
                (
                    "What vegetables is {P} growing?",
                    "tomatoes, zucchini and peppers",
                ),
                ("Where does {P} grow food?", "a community garden plot"),
            ],
            when: "When did {P} get {pos} garden plot?",
            after: "getting the plot",
            group: Some((Group::Hobby, "vegetable gardening")),
            ..E
        },
        Event {
            say: &[
                "the zucchini has taken over. I gave away fourteen of them this week, people hide when they see me",
                "I have so much zucchini I'm leaving bags on my neighbors' doorsteps at night",
            ],
            chat: &[
                (
                    "lol, make zucchini bread",
                    "I've made four loaves, I'm out of ideas",
                ),
                ("and the tomatoes?", "slowly turning red, fingers crossed"),
            ],
            qs: &[
                ("Which vegetable did {P} grow too much of?", "zucchini"),
                ("How many squash did {P} hand out in one week?", "fourteen"),
            ],
            why: &[(
                "Why does {P} keep pushing vegetables on the people who live nearby?",
                "{pos} zucchini has taken over, far more than {pro} can eat",
            )],
            when: "When did {P} have too much zucchini?",
            after: "the zucchini glut",
            ..E
        },
        Event {
            tone: Tone::Bad,
            say: &[
                "something ate all my tomatoes overnight. the garden guy says it's a groundhog",
                "a groundhog destroyed my tomato plants, I'm devastated, months of work",
            ],
            chat: &[
                (
                    "noo! can you stop it?",
                    "I'm putting up chicken wire around everything this weekend",
                ),
                (
                    "did anything survive?",
                    "the peppers, the groundhog has standards apparently",
                ),
            ],
            qs: &[
                ("What animal ruined {P}'s crop?", "a groundhog"),
                (
                    "How is {P} protecting {pos} plants now?",
                    "chicken wire fence",
                ),
            ],
            why: &[(
                "Why is {P} fencing in {pos} whole garden plot?",
                "a groundhog ate all {pos} tomatoes",
            )],
            when: "When did the groundhog eat {P}'s tomatoes?",
            after: "the groundhog attack",
            ..E
        },
    ],
    open: &[
        "How has {P}'s gardening gone this season?",
        "What has happened in {P}'s vegetable garden over time?",
    ],
    recall: &[
        ("how's the garden?", "surviving, which is all I ask"),
        (
            "got any extra veggies for me?",
            "always, come by with a bag",
        ),
    ],
};
