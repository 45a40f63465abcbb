//! Arcs about work: a promotion, a career change, being in a friend's wedding.

use super::{Arc, E, Event, Group, Slot, Tone};

pub const ARCS: &[Arc] = &[PROMOTION, CAREER, WEDDING];

const PROMOTION: Arc = Arc {
    id: "promotion",
    slots: &[Slot::Company],
    noun: "job",
    steps: &[
        Event {
            say: &[
                "I got promoted to team lead at {company}!! I'll have six people reporting to me, terrifying",
                "so my boss called me in and... I'm the new team lead! six direct reports at {company}",
            ],
            chat: &[
                (
                    "congrats!! did you get a raise?",
                    "fifteen percent, and a tiny office with a door",
                ),
                ("are you ready?", "no, but nobody ever is right?"),
            ],
            qs: &[
                ("What new position did {P} get?", "team lead"),
                ("How many people does {P} now manage?", "six"),
                ("Where does {P} work?", "{company}"),
            ],
            when: "When did {P} become a team lead?",
            after: "the promotion",
            ..E
        },
        Event {
            tone: Tone::Bad,
            say: &[
                "first month managing people is brutal. two of my team quit the same week and I'm covering their work",
                "the lead job is kicking my butt, two people resigned in the same week and we have a launch coming",
            ],
            chat: &[
                (
                    "that's so much, are you sleeping?",
                    "barely, I've started doing yoga at 6am just to stay sane",
                ),
                (
                    "is your boss helping?",
                    "she approved two new hires at least",
                ),
            ],
            qs: &[
                ("How many of {P}'s reports resigned?", "two"),
                ("How is {P} coping with the stress at work?", "yoga at 6am"),
            ],
            why: &[(
                "Why has {P} started stretching on a mat before sunrise?",
                "to stay sane: two of {pos} team quit in the same week",
            )],
            when: "When did two people on {P}'s team quit?",
            after: "the resignations",
            ..E
        },
        Event {
            say: &[
                "I gave a talk at a big industry conference in chicago! three hundred people and I didn't pass out",
                "just got back from chicago, I spoke at the conference there, huge room, my slides actually worked",
            ],
            chat: &[
                (
                    "what was it about?",
                    "how my team cut our delivery time in half, people took notes!",
                ),
                ("did you see the city?", "ate deep dish twice, no regrets"),
            ],
            qs: &[
                ("In which city did {P} present at a conference?", "Chicago"),
                (
                    "What was {P}'s presentation about?",
                    "how {pos} team halved delivery time",
                ),
            ],
            when: "When did {P} speak at the conference?",
            after: "the conference talk",
            ..E
        },
    ],
    open: &[
        "How has {P}'s career developed?",
        "What has {P} gone through since moving up at work?",
    ],
    recall: &[
        ("how's being the boss?", "exhausting but I'm learning a lot"),
        ("work still crazy?", "a little calmer this week, thank god"),
    ],
};

const CAREER: Arc = Arc {
    id: "career",
    slots: &[Slot::Company],
    noun: "career change",
    steps: &[
        Event {
            say: &[
                "I quit my accounting job to do a twelve week coding bootcamp. either brave or insane",
                "big leap: I left accounting and enrolled in a full time programming bootcamp, twelve weeks",
            ],
            chat: &[
                (
                    "whoa! what made you do it?",
                    "I automated half my spreadsheets and realized I liked that part way more",
                ),
                (
                    "how are you paying for it?",
                    "savings, and eating a lot of rice and beans",
                ),
            ],
            qs: &[
                ("What profession did {P} leave?", "accounting"),
                (
                    "What course did {P} sign up for after quitting?",
                    "a twelve-week coding bootcamp",
                ),
            ],
            why: &[(
                "Why did {P} walk away from {pos} old profession to retrain?",
                "automating {pos} spreadsheets showed {obj} {pro} liked that part way more",
            )],
            when: "When did {P} quit {pos} job for the bootcamp?",
            after: "quitting accounting",
            group: Some((Group::Learning, "programming at a bootcamp")),
            ..E
        },
        Event {
            say: &[
                "presented my final bootcamp project today, an app that tells you when your houseplants need water",
                "bootcamp demo day! my team built a plant watering reminder app and it didn't crash",
            ],
            chat: &[
                ("does it actually work?", "my basil is still alive, so yes"),
                (
                    "what's next?",
                    "job hunting, sending applications everywhere",
                ),
            ],
            qs: &[
                (
                    "What did {P}'s final coding project do?",
                    "remind people to water houseplants",
                ),
                ("Which plant proves {P}'s app works?", "the basil"),
            ],
            when: "When did {P} present {pos} final project?",
            after: "demo day",
            ..E
        },
        Event {
            say: &[
                "I got a job as a junior developer at {company}!!! forty applications and it finally happened",
                "officially a software developer now, {company} hired me as a junior dev!",
            ],
            chat: &[
                (
                    "I knew you'd do it!!",
                    "I start in two weeks, I already bought a new backpack like it's first grade",
                ),
                ("is it remote?", "hybrid, three days in the office"),
            ],
            qs: &[
                ("Which company hired {P} after the bootcamp?", "{company}"),
                (
                    "How many applications did {P} send before landing a role?",
                    "forty",
                ),
            ],
            why: &[(
                "Why did {P} just buy a new backpack?",
                "{pro} starts a new job as a junior developer at {company} in two weeks",
            )],
            when: "When did {P} get hired as a developer?",
            after: "the job offer",
            ..E
        },
    ],
    open: &[
        "How did {P}'s switch to software go?",
        "What were the steps of {P}'s career change?",
    ],
    recall: &[
        ("how's the coding going?", "my brain hurts in a good way"),
        ("still happy you left accounting?", "every single day"),
    ],
};

const WEDDING: Arc = Arc {
    id: "wedding",
    slots: &[Slot::Friend, Slot::Town],
    noun: "role in {friend}'s wedding",
    steps: &[
        Event {
            say: &[
                "my oldest friend {friend} is getting married and asked me to be in the wedding party, I said yes before {friendhe} finished",
                "{friend} asked me to stand up at {friendhis} wedding!! we've been friends since third grade",
            ],
            chat: &[
                (
                    "that's so special, when is it?",
                    "in the fall, in {town}, and I have to give a speech",
                ),
                (
                    "are you nervous about the speech?",
                    "terrified, I have nothing but embarrassing stories",
                ),
            ],
            qs: &[
                ("Whose wedding is {P} part of?", "{friend}'s"),
                ("Where is the wedding {P} is in taking place?", "{town}"),
                ("How long has {P} known {friend}?", "since third grade"),
            ],
            when: "When did {friend} ask {P} to be in the wedding?",
            after: "being asked",
            ..E
        },
        Event {
            say: &[
                "the pre-wedding party weekend for {friend} was chaos, we rented a lake cabin and someone fell in the water",
                "just back from {friend}'s pre-wedding weekend at a lake cabin, we did karaoke until 3am",
            ],
            chat: &[
                (
                    "what did you sing?",
                    "a very emotional power ballad, I regret nothing",
                ),
                (
                    "was the cabin nice?",
                    "it had a hot tub and a moose visited, so yes",
                ),
            ],
            qs: &[
                (
                    "Where did {P} celebrate with {friend} before the wedding?",
                    "a lake cabin",
                ),
                (
                    "What animal showed up at the cabin {P} stayed in with {friend}?",
                    "a moose",
                ),
            ],
            when: "When did {P} go to {friend}'s pre-wedding weekend?",
            after: "the cabin weekend",
            ..E
        },
        Event {
            say: &[
                "{friend}'s wedding in {town} was perfect and my speech made people cry (the good kind)",
                "the wedding was yesterday! I gave my toast and {friend}'s grandma hugged me after",
            ],
            chat: &[
                (
                    "did you cry too?",
                    "obviously, during the vows and again at the cake",
                ),
                (
                    "what was the best part?",
                    "the first dance, they did a whole choreographed thing",
                ),
            ],
            qs: &[
                (
                    "How did {P}'s toast go over?",
                    "people cried, in a good way",
                ),
                (
                    "What surprised the guests at the wedding {P} spoke at?",
                    "a choreographed routine",
                ),
            ],
            why_earlier: &[(
                0,
                "Why did {P} raise a glass and speak at {friend}'s wedding?",
                "{friend} asked {obj} to be in the wedding party, and that meant giving a speech",
            )],
            when: "When did {P} give the toast at {friend}'s wedding?",
            after: "the wedding",
            ..E
        },
    ],
    open: &[
        "What has {P} done as part of {friend}'s wedding?",
        "How did {P}'s time in {friend}'s wedding party go?",
    ],
    recall: &[
        (
            "how's {friend}?",
            "busy with wedding stuff, as you'd expect",
        ),
        (
            "seen {friend} lately?",
            "we had lunch last week, {friendhe} is doing great",
        ),
    ],
};
