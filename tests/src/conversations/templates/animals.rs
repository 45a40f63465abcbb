//! Arcs about animals: a rescue dog, a kitten, volunteering at a shelter.

use super::{Arc, E, Event, Group, Slot, Tone};

pub const ARCS: &[Arc] = &[DOG, CAT, SHELTER];

const DOG: Arc = Arc {
    id: "dog",
    slots: &[Slot::Dog],
    noun: "dog",
    steps: &[
        Event {
            say: &[
                "ok big news, we adopted a rescue pup this weekend!! his name is {pet}",
                "so I finally caved and brought home a scruffy little rescue from the shelter... meet {pet}",
                "guess who has a new roommate. a rescue pup called {pet}! I'm obsessed",
            ],
            chat: &[
                (
                    "what kind is he??",
                    "the shelter thinks he's mostly {breed}, maybe two years old. he has the goofiest ears",
                ),
                (
                    "how's he settling in?",
                    "better than me honestly, he already claimed the couch",
                ),
            ],
            qs: &[
                ("What is the name of {P}'s dog?", "{pet}"),
                ("What breed is the dog {P} took in?", "mostly {breed}"),
                ("What did {P} call the animal {pro} adopted?", "{pet}"),
            ],
            when: "When did {P} get {pos} dog?",
            after: "bringing {pet} home",
            group: Some((Group::Pet, "a rescue dog, {pet}")),
            ..E
        },
        Event {
            tone: Tone::Bad,
            say: &[
                "rough week. {pet} ate half a sock and we ended up at the emergency vet at 2am",
                "{pet} got really sick on tuesday, turns out he swallowed a sock?? we spent the whole night at the animal hospital",
            ],
            chat: &[
                (
                    "oh no!! is he ok now?",
                    "yeah they got it out without surgery thank god, but the bill was almost nine hundred bucks",
                ),
                ("how are YOU doing?", "running on zero sleep and coffee lol"),
            ],
            qs: &[
                ("What did {P}'s dog swallow?", "a sock"),
                (
                    "How much did {P} pay for {pet}'s treatment?",
                    "almost nine hundred dollars",
                ),
            ],
            why: &[
                (
                    "Why did {P} have to rush {pos} pet for urgent care in the middle of the night?",
                    "the dog swallowed a sock",
                ),
                (
                    "Why did {P} end up with a vet bill of nearly nine hundred dollars?",
                    "{pet} swallowed a sock and had to go to the emergency vet",
                ),
            ],
            when: "When did {P}'s dog need urgent treatment?",
            after: "the health scare",
            ..E
        },
        Event {
            say: &[
                "we started obedience classes with {pet} on thursday nights, after the whole vet drama he has to learn 'leave it'. he's the class clown",
                "signed {pet} up for training at the community center so he learns 'leave it' after the vet drama. week one was total chaos",
            ],
            chat: &[
                (
                    "haha is he learning anything?",
                    "he can finally do sit and stay! the trainer says he's smart, just easily bribed with cheese",
                ),
                (
                    "is the trainer nice?",
                    "super patient, she has three dogs of her own",
                ),
            ],
            qs: &[
                ("What has {P} enrolled {pos} dog in?", "obedience classes"),
                (
                    "Which commands has {P}'s dog {pet} mastered?",
                    "sit and stay",
                ),
                ("What treat does {P} use to motivate {pos} dog?", "cheese"),
            ],
            why_earlier: &[(
                1,
                "Why did {P} sign {pet} up for obedience training?",
                "after {pet} swallowed a sock and ended up at the emergency vet, he has to learn 'leave it'",
            )],
            when: "When did {P} begin taking {pet} to training?",
            after: "the obedience classes",
            ..E
        },
        Event {
            say: &[
                "took {pet} on his first real hike out to the lake trail, he swam after every single stick",
                "we did the lake loop with {pet} on saturday and he jumped in after sticks like twenty times",
            ],
            chat: &[
                (
                    "did he behave?",
                    "mostly! he only rolled in something disgusting once, so we had to hose him down at home",
                ),
                (
                    "was it crowded?",
                    "nope, we went early, just us and some ducks",
                ),
            ],
            qs: &[
                ("What did {P}'s dog keep chasing in the water?", "sticks"),
                (
                    "Where did {P} take {pet} for an outdoor outing?",
                    "a hike on the lake trail",
                ),
            ],
            why: &[(
                "Why did {P}'s dog need a scrub with the garden hose after the lake trail?",
                "he rolled in something disgusting",
            )],
            when: "When did {P} take {pos} dog hiking?",
            after: "the lake hike",
            ..E
        },
    ],
    open: &[
        "How has life with {P}'s dog gone since {pro} got him?",
        "What has {P} shared over time about {pos} dog?",
    ],
    recall: &[
        (
            "how's {pet} doing?",
            "he's great, currently snoring next to me",
        ),
        ("give {pet} a scratch from me!", "haha will do, he says hi"),
        (
            "is {pet} still being a menace?",
            "always lol, he chewed a shoe yesterday",
        ),
    ],
};

const CAT: Arc = Arc {
    id: "cat",
    slots: &[Slot::Cat],
    noun: "cat",
    steps: &[
        Event {
            say: &[
                "so a neighbor's cat had kittens and I ended up taking one home. she's a tiny {coat} fluffball named {cat}",
                "I have a kitten now!! little {coat} girl, I named her {cat}",
            ],
            chat: &[
                (
                    "omg how old is she?",
                    "just nine weeks, she fits in one hand and she's already bossing me around",
                ),
                ("is she sleeping ok?", "she sleeps on my face, so no"),
            ],
            qs: &[
                ("What is the name of {P}'s cat?", "{cat}"),
                ("What color is {P}'s feline?", "{coat}"),
                (
                    "How old was {P}'s new pet when {pro} got her?",
                    "nine weeks",
                ),
            ],
            when: "When did {P} get {pos} cat?",
            after: "adopting {cat}",
            group: Some((Group::Pet, "a kitten, {cat}")),
            ..E
        },
        Event {
            tone: Tone::Bad,
            say: &[
                "{cat} knocked my grandmother's vase off the shelf last night. it's in like forty pieces",
                "so {cat} decided to climb the bookshelf and took my grandma's old vase down with her",
            ],
            chat: &[
                (
                    "noooo, can it be fixed?",
                    "I'm going to try that japanese gold repair thing, kintsugi. ordered a kit",
                ),
                (
                    "was she hurt?",
                    "not a scratch, she just looked at me like it was my fault",
                ),
            ],
            qs: &[
                (
                    "What family heirloom did {P}'s cat break?",
                    "grandmother's vase",
                ),
                (
                    "How is {P} planning to mend what {cat} broke?",
                    "kintsugi, Japanese gold repair",
                ),
            ],
            why: &[
                (
                    "Why did {P} send off for a repair kit?",
                    "to fix {pos} grandmother's vase that {cat} broke, with kintsugi",
                ),
                (
                    "Why is the vase {P} got from {pos} grandmother in pieces?",
                    "{cat} climbed up and knocked it off the shelf",
                ),
            ],
            when: "When did {P}'s cat break the vase?",
            after: "the broken vase",
            ..E
        },
        Event {
            tone: Tone::Plain,
            say: &[
                "{cat} had her spay surgery today, she's wearing the cone of shame and is very offended",
                "took {cat} in to get fixed this morning, she's home now in a cone sulking under the bed",
            ],
            chat: &[
                (
                    "poor baby, how long does she wear it?",
                    "ten days, and she keeps bumping into doorframes",
                ),
                (
                    "was the vet nice?",
                    "yeah, they even sent a photo of her waking up",
                ),
            ],
            qs: &[
                ("What procedure did {P}'s cat have?", "spay surgery"),
                ("How long does {P}'s cat have to wear the cone?", "ten days"),
            ],
            why: &[
                (
                    "Why is {P}'s kitten walking around with a plastic collar on her head?",
                    "she just had her spay surgery",
                ),
                (
                    "Why does {P}'s kitten keep crashing into door frames?",
                    "she has to wear a cone for ten days after being spayed",
                ),
            ],
            when: "When did {P}'s cat get spayed?",
            after: "the surgery",
            ..E
        },
    ],
    open: &[
        "What has {P} told {Q} about {pos} cat over time?",
        "How has {P}'s kitten been doing since she arrived?",
    ],
    recall: &[
        (
            "how's little {cat}?",
            "bigger every day and still a gremlin",
        ),
        ("any new {cat} pics?", "too many, I'll send you a few later"),
    ],
};

const SHELTER: Arc = Arc {
    id: "shelter",
    slots: &[Slot::Shelter],
    noun: "volunteering",
    steps: &[
        Event {
            say: &[
                "I started volunteering at {shelter} on saturday mornings, mostly walking dogs and cleaning kennels",
                "so I signed up to help out at {shelter} every saturday! walking the dogs, scooping litter, the glamorous life",
            ],
            chat: &[
                (
                    "that's so sweet, why now?",
                    "I needed something that isn't a screen, and the animals are the best therapy",
                ),
                ("do you get attached?", "every single time, it's dangerous"),
            ],
            qs: &[
                (
                    "Which day does {P} help out with animals?",
                    "Saturday mornings",
                ),
                (
                    "What does {P} do at {shelter}?",
                    "walks dogs and cleans kennels",
                ),
                ("Where does {P} give {pos} time for free?", "{shelter}"),
            ],
            why: &[(
                "Why did {P} decide to give up {pos} Saturday mornings for unpaid work with animals?",
                "{pro} needed something that isn't a screen, and animals are the best therapy",
            )],
            when: "When did {P} start volunteering with animals?",
            after: "signing up at {shelter}",
            group: Some((Group::Volunteer, "{shelter}")),
            ..E
        },
        Event {
            say: &[
                "we ran an adoption day at {shelter} and eleven animals went home!! I was on the cat table",
                "the adoption event at {shelter} was a huge success, eleven adoptions, I almost cried",
            ],
            chat: &[
                (
                    "eleven! did you take one home too?",
                    "almost, there was an old greyhound I loved, but my lease says no",
                ),
                (
                    "who organized it?",
                    "me and two other volunteers, we planned it for weeks",
                ),
            ],
            qs: &[(
                "How many animals found homes at the event {P} helped run?",
                "eleven",
            )],
            why: &[(
                "Why couldn't {P} take the greyhound home?",
                "{pos} lease says no pets",
            )],
            when: "When did {P}'s shelter hold its adoption event?",
            after: "the adoption day",
            ..E
        },
        Event {
            say: &[
                "our bake sale and car wash for {shelter} raised two thousand dollars for the new dog runs",
                "we did a fundraiser for {shelter}, bake sale plus car wash, and made two grand!",
            ],
            chat: &[
                (
                    "what's the money for?",
                    "new outdoor runs so the big dogs can actually stretch their legs",
                ),
                (
                    "did you bake?",
                    "I made lemon bars and they sold out in an hour",
                ),
            ],
            qs: &[
                (
                    "How much money did {P}'s fundraiser bring in?",
                    "two thousand dollars",
                ),
                (
                    "What will the money {P} helped collect pay for?",
                    "new outdoor dog runs",
                ),
            ],
            when: "When did {P} help with the shelter fundraiser?",
            after: "the fundraiser",
            ..E
        },
    ],
    open: &[
        "How has {P}'s volunteer work with animals developed?",
        "What has {P} done with the animal shelter over time?",
    ],
    recall: &[
        (
            "still doing saturdays at {shelter}?",
            "every week, it's the best part of my weekend",
        ),
        (
            "any cute shelter dogs lately?",
            "always, there's a one-eyed pug I'm in love with",
        ),
    ],
};
