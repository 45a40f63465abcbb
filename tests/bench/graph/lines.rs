//! The lines of one generated conversation: for each member of the cast a block of
//! lines drawn from templates (a first mention first), greetings and thanks addressed to
//! whoever is listening, and filler; the blocks interleaved at random.

use rand::Rng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;

use super::corpus::Cast;

const FRIEND_INTRO: &[&str] = &[
    "My friend {x} is visiting next week.",
    "Did I tell you about {x}? We met at a pottery class.",
    "{x} from my running club just got engaged!",
    "I had coffee with {x} this morning.",
    "{x} invited us to a barbecue on Saturday.",
    "You remember {x}, right? She moved in next door.",
];
const RARE_INTRO: &[&str] = &[
    "My cousin {x} is staying with us this week.",
    "{x} is coming over for dinner tonight.",
    "Have you met {x} yet? You would love her.",
    "I went climbing with {x} yesterday.",
    "{x} from work lent me her tent.",
];
const PERSON: &[&str] = &[
    "{x} said it was the best day of the summer.",
    "Aww {x} is the sweetest.",
    "Remember {x}? She still asks about you.",
    "{x} and I went hiking on Sunday.",
    "I told {x} about your news and she was thrilled.",
    "{x} keeps sending me funny videos.",
    "Omg {x} texted me at midnight again.",
    "I'm meeting {x} for lunch tomorrow.",
    "{x} got a new bike last month.",
    "Honestly {x} has been such a great help lately.",
    "Yo {x} finally called me back!",
    "We should invite {x} next time.",
    "{x}'s birthday party is on Friday.",
    "Poor {x} has the flu this week.",
    "{x} stayed over last weekend and we cooked together.",
];
const PLACE: &[&str] = &[
    "We finally booked the trip to {x}.",
    "{x} was beautiful this time of year.",
    "I grew up in {x}, so it felt like home.",
    "The food in {x} is incredible.",
    "Have you ever been to {x}?",
    "We drove to {x} on Saturday.",
    "{x} has the best coffee I've ever had.",
    "I'm flying back from {x} tomorrow.",
    "My parents still live in {x}.",
    "Woah, {x} looks amazing in your photos!",
    "{x} in the spring is magical.",
    "Everyone I know wants to move to {x} lately.",
];
const ORG: &[&str] = &[
    "I started a new job at {x}.",
    "{x} is hiring again, you should apply.",
    "My manager at {x} is really supportive.",
    "I've been working at {x} for two years now.",
    "{x} just opened a new office downtown.",
    "Things at {x} have been hectic.",
    "I had an interview with {x} today.",
    "Do you still work for {x}?",
    "{x} gave everyone Friday off.",
    "{x} sent me an offer letter yesterday.",
    "Half my old team ended up at {x}.",
];
const BOOK: &[&str] = &[
    "I'm reading {x} right now.",
    "{x} is such a good book.",
    "Have you read {x}?",
    "I finished {x} last night and cried.",
    "The {x} books are my comfort read.",
    "{x} was recommended by my book club.",
    "Everyone at work keeps talking about {x}.",
];
const GAME: &[&str] = &[
    "We played {x} all weekend.",
    "{x} is so much fun with friends.",
    "Are you still playing {x}?",
    "{x} has a new season out.",
    "I'm stuck on the last level of {x}.",
    "My brother got me into {x}.",
    "Everyone at work keeps talking about {x}.",
];
const SHOW: &[&str] = &[
    "We watched {x} last night.",
    "{x} is the best show on TV right now.",
    "Have you seen {x}?",
    "I binged {x} this weekend.",
    "The new season of {x} is out.",
    "{x} made me laugh so hard.",
    "Everyone at work keeps talking about {x}.",
];
const ALBUM: &[&str] = &[
    "I've had {x} on repeat all week.",
    "{x} is such a good album.",
    "Have you listened to {x}?",
    "{x} was playing at the café today.",
    "I bought {x} on vinyl.",
    "Everyone at work keeps talking about {x}.",
];
const PET_INTRO: &[&str] = &[
    "My {k} {x} is obsessed with the park.",
    "We adopted a {k} named {x}.",
    "{x} chewed my shoes again.",
    "I took {x} to the vet this morning.",
];
const PET: &[&str] = &[
    "Aww, give {x} a hug from me.",
    "{x} has been sleeping all day.",
    "{x} says hi and sends puppy kisses.",
    "{x} learned a new trick!",
    "Honestly {x} is the best roommate ever.",
    "I took {x} to the vet this morning.",
    "{x} chewed my shoes again.",
];
const EVENT: &[&str] = &[
    "Are you signing up for the {x} this year?",
    "The {x} raised money for the animal shelter.",
    "The {x} was so much fun.",
    "Tickets for the {x} sold out in an hour.",
    "I volunteered at the {x} last year.",
    "We met at the {x}, remember?",
];
const ADDRESS: &[&str] = &[
    "Thanks, {you}!",
    "Woohoo {you}, that's huge!",
    "Anytime {you}.",
    "Hey {you}, how was your week?",
    "Aww {you}, that's so sweet.",
    "Congrats {you}!",
    "Yo {you}, guess what happened today.",
    "You're the best, {you}.",
    "Good morning {you}!",
    "Miss you, {you}!",
];
const FILLER: &[&str] = &[
    "That sounds amazing.",
    "Haha, same here.",
    "I know, right?",
    "Totally agree.",
    "What a week.",
    "Tell me everything!",
    "No way!",
    "That makes sense.",
];

/// A line, or a greeting whose name depends on who says it.
enum Draft {
    Said(String),
    Address(&'static str),
}

/// The turns' texts, in order; turn `i` is said by speaker `i % speakers`.
pub fn lines(cast: &Cast, rng: &mut StdRng) -> Vec<String> {
    let fill = |t: &str, x: &str| t.replace("{x}", x).replace("{k}", cast.pet_kind);
    let mut draw = |intro: &[&'static str], rest: &[&'static str], x: &str, n: usize| {
        let first = fill(intro.choose(rng).expect("templates"), x);
        let mut block = vec![Draft::Said(first.clone())];
        let more: Vec<&&str> = rest.choose_multiple(rng, rest.len()).collect();
        for t in more.into_iter().map(|t| fill(t, x)) {
            if block.len() == n {
                break;
            }
            if t != first {
                block.push(Draft::Said(t));
            }
        }
        block
    };
    let friend_first = cast.friend.split_whitespace().next().unwrap_or(cast.friend);
    let mut friend = draw(FRIEND_INTRO, &[], cast.friend, 1);
    friend.extend(draw(PERSON, PERSON, friend_first, 3));
    let works = match cast.work.1 {
        "book" => BOOK,
        "game" => GAME,
        "show" => SHOW,
        _ => ALBUM,
    };
    let mut blocks = vec![
        friend,
        draw(RARE_INTRO, PERSON, cast.rare, 4),
        draw(PLACE, PLACE, cast.place, 4),
        draw(ORG, ORG, cast.org, 4),
        draw(works, works, cast.work.0, 4),
        draw(PET_INTRO, PET, cast.pet, 4),
        draw(EVENT, EVENT, cast.event, 4),
    ];
    let address: Vec<Draft> = ADDRESS
        .choose_multiple(rng, 5)
        .map(|t| Draft::Address(t))
        .collect();
    let filler: Vec<Draft> = FILLER
        .choose_multiple(rng, 6)
        .map(|t| Draft::Said((*t).to_owned()))
        .collect();
    blocks.push(address);
    blocks.push(filler);
    let speakers: Vec<&str> = [cast.speaker.0, cast.other]
        .into_iter()
        .chain(cast.third)
        .collect();
    interleave(rng, blocks)
        .into_iter()
        .enumerate()
        .map(|(i, draft)| match draft {
            Draft::Said(text) => text,
            Draft::Address(t) => {
                // The owner is called by their short form; the owner calls the next
                // speaker by name.
                let listener = if i % speakers.len() == 0 {
                    speakers[1]
                } else {
                    cast.speaker.1
                };
                t.replace("{you}", listener)
            }
        })
        .collect()
}

/// The blocks' lines in a random order that keeps each block's own order.
fn interleave(rng: &mut StdRng, blocks: Vec<Vec<Draft>>) -> Vec<Draft> {
    let mut blocks: Vec<std::vec::IntoIter<Draft>> =
        blocks.into_iter().map(Vec::into_iter).collect();
    let mut left: Vec<usize> = blocks.iter().map(|b| b.len()).collect();
    let mut out = Vec::new();
    while left.iter().any(|&n| n > 0) {
        let total: usize = left.iter().sum();
        let mut at = rng.random_range(0..total);
        let i = left
            .iter()
            .position(|&n| {
                if at < n {
                    true
                } else {
                    at -= n;
                    false
                }
            })
            .expect("a block with lines left");
        left[i] -= 1;
        out.extend(blocks[i].next());
    }
    out
}
