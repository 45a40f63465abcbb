//! Arcs about family: a child's broken arm, a child's school year, a parent's surgery.

use super::{Arc, E, Event, Group, Slot, Tone};

pub const ARCS: &[Arc] = &[KID_ARM, KID_SCHOOL, PARENT];

const KID_ARM: Arc = Arc {
    id: "kid_arm",
    slots: &[Slot::Kid, Slot::Sport],
    noun: "{kidrel}",
    steps: &[
        Event {
            tone: Tone::Bad,
            say: &[
                "{kid} fell off the trampoline at a birthday party and broke {kidhis} arm. we spent six hours in the ER",
                "my {kidrel} {kid} broke {kidhis} wrist jumping on a trampoline, so that was our saturday at urgent care",
            ],
            chat: &[
                (
                    "oh no, poor {kid}! is {kidhe} ok?",
                    "{kidhe}'s fine, already showing off the bright green cast to everyone",
                ),
                (
                    "how are you holding up?",
                    "I aged ten years in one afternoon",
                ),
            ],
            qs: &[
                ("How did {P}'s child get injured?", "fell off a trampoline"),
                ("What color is the cast of {P}'s {kidrel}?", "bright green"),
                (
                    "Which of {P}'s family members broke a bone?",
                    "{pos} {kidrel} {kid}",
                ),
            ],
            why: &[(
                "Why did {P} have to take {pos} {kidrel} in for emergency care?",
                "{kid} fell off a trampoline and broke {kidhis} arm",
            )],
            when: "When did {P}'s {kidrel} break {kidhis} arm?",
            after: "the broken arm",
            group: Some((Group::FamilyHealth, "{pos} {kidrel} {kid} (broken arm)")),
            ..E
        },
        Event {
            say: &[
                "{kid}'s cast came off today! {kidhis} arm is all skinny and pale, {kidhe} thinks it's hilarious",
                "finally got {kid}'s cast off this morning, everyone signed it so {kidhe} wants to keep it forever",
            ],
            chat: &[
                (
                    "yay! can {kidhe} play again?",
                    "doctor said two more weeks of no rough stuff, {kidhe}'s not thrilled",
                ),
                (
                    "did you keep the cast?",
                    "it's on a shelf in {kidhis} room like a trophy",
                ),
            ],
            qs: &[
                (
                    "What did {P}'s kid want to do with the cast?",
                    "keep it forever",
                ),
                (
                    "How much longer must {P}'s {kidrel} avoid rough play?",
                    "two more weeks",
                ),
            ],
            when: "When did {P}'s {kidrel} get the cast off?",
            after: "the cast coming off",
            ..E
        },
        Event {
            say: &[
                "{kid} scored two goals in {kidhis} {sport} game, first game back since the arm. I screamed so loud",
                "{kid} is back on the {sport} team and scored twice on saturday!! you'd never know about the arm",
            ],
            chat: &[
                (
                    "go {kid}!!",
                    "{kidhe} did a little dance after the second one and got a yellow card lol",
                ),
                ("is {kidhe} being careful?", "not even a little"),
            ],
            qs: &[
                ("Which sport does {P}'s {kidrel} play?", "{sport}"),
                (
                    "How many times did {P}'s {kidrel} {kid} score in {kidhis} comeback game?",
                    "twice",
                ),
            ],
            why: &[(
                "Why did the referee book {P}'s {kidrel} in {kidhis} comeback game?",
                "{kidhe} did a little dance after {kidhis} second goal and got a yellow card",
            )],
            why_earlier: &[(
                0,
                "Why had {P}'s {kidrel} {kid} been away from {sport} for a while?",
                "{kidhe} broke {kidhis} arm falling off a trampoline",
            )],
            when: "When did {P}'s {kidrel} play {kidhis} first game back?",
            after: "the comeback game",
            ..E
        },
    ],
    open: &[
        "How did {P}'s {kidrel} recover from the injury?",
        "What has {P} shared about {kid}'s accident and recovery?",
    ],
    recall: &[
        ("how's {kid} doing?", "wild as ever"),
        (
            "tell {kid} I said hi!",
            "will do, {kidhe} still talks about you",
        ),
    ],
};

const KID_SCHOOL: Arc = Arc {
    id: "kid_school",
    slots: &[Slot::Kid],
    noun: "{kidrel}'s school year",
    steps: &[
        Event {
            say: &[
                "{kid} started kindergarten this week!! {kidhe} marched in without looking back and I cried in the car",
                "first day of kindergarten for my {kidrel} {kid}. {kidhe} was fine, I was a mess",
            ],
            chat: &[
                (
                    "aww, does {kidhe} like the teacher?",
                    "loves her, Ms. Albright, {kidhe} wants to marry her",
                ),
                ("did you take a photo?", "forty of them, obviously"),
            ],
            qs: &[
                ("What grade did {P}'s child begin?", "kindergarten"),
                ("Who is the teacher of {P}'s {kidrel}?", "Ms. Albright"),
            ],
            when: "When did {P}'s {kidrel} start kindergarten?",
            after: "the first day of school",
            ..E
        },
        Event {
            say: &[
                "{kid} was a tree in the school play! one line, delivered with total confidence",
                "the kindergarten play was today, {kid} played a tree and said {kidhis} one line louder than anyone",
            ],
            chat: &[
                (
                    "what was the line?",
                    "'the wind is coming!' and then {kidhe} bowed, which wasn't in the script",
                ),
                (
                    "did you film it?",
                    "the whole thing, shaky phone-camera style",
                ),
            ],
            qs: &[
                ("What role did {P}'s {kidrel} have on stage?", "a tree"),
                (
                    "What line did {P}'s {kidrel} say in the show?",
                    "'the wind is coming!'",
                ),
            ],
            when: "When was the school play {P}'s {kidrel} was in?",
            after: "the school play",
            ..E
        },
        Event {
            say: &[
                "{kid} won a ribbon at the science fair for {kidhis} project about which cereal gets soggy fastest",
                "science fair update: {kid} got second place for testing which cereal goes soggy first",
            ],
            chat: &[
                (
                    "which cereal won?",
                    "the cheap corn flakes, dead in ninety seconds",
                ),
                ("did you help?", "I ate a lot of cereal, so yes"),
            ],
            qs: &[
                (
                    "What did {P}'s kid investigate for a school competition?",
                    "which cereal gets soggy fastest",
                ),
                (
                    "Which cereal lost in the experiment of {P}'s {kidrel}?",
                    "the cheap corn flakes",
                ),
            ],
            when: "When did {P}'s {kidrel} win a prize at the science fair?",
            after: "the science fair",
            ..E
        },
    ],
    open: &[
        "How has {P}'s {kidrel}'s first school year gone?",
        "What has {P}'s {kidrel} {kid} been up to at school?",
    ],
    recall: &[
        (
            "how's school going for {kid}?",
            "{kidhe} loves it, especially recess",
        ),
        (
            "is {kid} still obsessed with {kidhis} teacher?",
            "more than ever",
        ),
    ],
};

const PARENT: Arc = Arc {
    id: "parent",
    slots: &[Slot::Parent],
    noun: "{parent}",
    steps: &[
        Event {
            tone: Tone::Bad,
            say: &[
                "my {parent} needs a knee replacement, surgery is in three weeks. {parenthe}'s pretending not to be scared",
                "got news from my {parent}'s doctor, {parenthe} needs a new knee. surgery is scheduled for next month",
            ],
            chat: &[
                (
                    "oh I'm sorry, will you go help?",
                    "yeah I'm taking a week off work to stay with {parenthis} after",
                ),
                (
                    "how's {parenthe} feeling?",
                    "grumpy, {parenthe} hates being fussed over",
                ),
            ],
            qs: &[
                (
                    "What operation does {P}'s parent need?",
                    "a knee replacement",
                ),
                (
                    "How is {P} planning to support {pos} {parent}?",
                    "taking a week off work to stay with {parenthis}",
                ),
                (
                    "Which of {P}'s parents has joint problems?",
                    "{pos} {parent}",
                ),
            ],
            why: &[(
                "Why is {P} planning a week away from {pos} job?",
                "to stay with {pos} {parent} after {parenthis} knee replacement",
            )],
            when: "When did {P} learn {pos} {parent} needed surgery?",
            after: "the surgery news",
            group: Some((Group::FamilyHealth, "{pos} {parent} (knee replacement)")),
            ..E
        },
        Event {
            say: &[
                "{parent}'s surgery went well! {parenthe}'s already walking the hallway with a walker and flirting with the nurses",
                "the knee operation went perfectly, my {parent} was up with a walker the same day",
            ],
            chat: &[
                (
                    "such a relief!",
                    "the physical therapy is the hard part now, six weeks of it",
                ),
                (
                    "is {parenthe} a good patient?",
                    "terrible, {parenthe} keeps trying to skip exercises",
                ),
            ],
            qs: &[
                (
                    "How did {P}'s {parent}'s operation go?",
                    "well, walking with a walker the same day",
                ),
                (
                    "How long will {P}'s parent do rehab?",
                    "six weeks of physical therapy",
                ),
            ],
            when: "When did {P}'s {parent} have the knee operation?",
            after: "the operation",
            ..E
        },
        Event {
            say: &[
                "we threw my {parent} a surprise seventieth birthday party at the diner where my parents had their first date, {parenthe} danced on the new knee!",
                "{parent} turned seventy and we surprised {parenthis} with a party at the old diner where my parents had their first date, {parenthe} danced all night",
            ],
            chat: &[
                (
                    "was {parenthe} surprised?",
                    "completely, {parenthe} cried and then demanded cake",
                ),
                ("who came?", "everyone, even the cousins from out of state"),
            ],
            qs: &[
                ("How old did {P}'s {parent} turn?", "seventy"),
                (
                    "What did {P}'s family organize for the milestone birthday?",
                    "a surprise party at the old diner",
                ),
            ],
            why: &[(
                "Why did {P}'s family pick that particular restaurant for the seventieth?",
                "it's where {pos} parents had their first date",
            )],
            when: "When was {P}'s {parent}'s seventieth birthday party?",
            after: "the birthday party",
            ..E
        },
    ],
    open: &[
        "How has {P}'s {parent}'s health been?",
        "What has {P} shared about {pos} {parent} over time?",
    ],
    recall: &[
        (
            "how's your {parent} doing?",
            "hanging in there, thanks for asking",
        ),
        (
            "say hi to your {parent} for me",
            "I will, {parenthe} always asks about you",
        ),
    ],
};
