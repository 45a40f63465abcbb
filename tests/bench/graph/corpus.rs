//! Generated conversations with a known cast: two or three speakers (one also called
//! by a short form of their name), a friend introduced by full name and then by first
//! name, a friend with a given name no word list holds, and a place, an organisation,
//! a work (book, game, show or album), a pet and an event, each told in at least three
//! lines. The lines vary the way people write: interjections and greetings before
//! names ("Woohoo Mel!", "Aww Odalys is the sweetest"), titles and names opening
//! sentences, some with a cue to what a name is ("playing …", "my dog …", "moved to
//! …") and some with none. Seeded: the same size gives the same corpus.

use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};

use cosmo_shared::domain::SourceType;
use cosmo_shared::domain::raw::{RawContent, Transcript, Turn};

use super::{Doc, Gold, GoldEntity, GoldPerson};

/// Speakers' names and the short forms they are also called by.
const SPEAKERS: &[(&str, &str)] = &[
    ("Melanie", "Mel"),
    ("Jonathan", "Jon"),
    ("Samantha", "Sam"),
    ("Alexandra", "Alex"),
    ("Christopher", "Chris"),
    ("Katherine", "Kate"),
    ("Benjamin", "Ben"),
    ("Theodore", "Theo"),
    ("Elizabeth", "Liz"),
    ("Nathaniel", "Nate"),
    ("Frederick", "Fred"),
    ("Gabriella", "Gabby"),
    ("Michael", "Mike"),
    ("Rebecca", "Becky"),
    ("Anastasia", "Ana"),
    ("Dominic", "Dom"),
];
/// Speakers with no short form in the text.
const OTHER_SPEAKERS: &[&str] = &[
    "Caroline", "Joanna", "Tim", "Gina", "Audrey", "Deborah", "Evan", "Calvin", "Jolene", "Maria",
    "Andrew", "Priyanka", "Tobias", "Ingrid", "Rashid", "Yolanda",
];
const FULL_NAMES: &[&str] = &[
    "Sarah Chen",
    "Marcus Webb",
    "Priya Raman",
    "Tom Becker",
    "Lena Hoffmann",
    "Diego Alvarez",
    "Hannah Okafor",
    "Ruth Lindqvist",
    "Oscar Mbeki",
    "Julia Novak",
    "Kenji Mori",
    "Aisha Karimi",
];
/// Given names no common-name list holds.
const RARE_NAMES: &[&str] = &[
    "Odalys", "Tamsin", "Bastian", "Ifeoma", "Corwin", "Marisol", "Eamon", "Saoirse", "Thiago",
    "Anouk", "Leopold", "Zuri", "Ottilie", "Kofi", "Rosalind", "Idris",
];
const PLACES: &[&str] = &[
    "Lisbon",
    "Denver",
    "Tarvik",
    "Marwick",
    "Porto",
    "Hollin Bay",
    "Kyoto",
    "Brenmoor",
    "Oaxaca",
    "Ashford",
    "Galway",
    "Quinta",
    "Valencia",
    "Eldham",
];
const ORGS: &[&str] = &[
    "Brightwave Labs",
    "Kestrel Analytics",
    "Northwind",
    "Halcyon Health",
    "Quillon",
    "Meridian Bank",
    "Tidewater Systems",
    "Lumen Studio",
    "Ashgrove Partners",
    "Vantage Group",
    "Corvid Software",
    "Bluefin",
];
/// (title, kind of work).
const WORKS: &[(&str, &str)] = &[
    ("Apex Legends", "game"),
    ("Harry Potter", "book"),
    ("Wolf Hall", "book"),
    ("Stranger Things", "show"),
    ("Hollow Knight", "game"),
    ("Ted Lasso", "show"),
    ("Elden Ring", "game"),
    ("Normal People", "book"),
    ("Jessica Jones", "show"),
    ("Circe", "book"),
    ("Rumours", "album"),
    ("Golden Hour", "album"),
    ("Stardew Valley", "game"),
    ("Fleabag", "show"),
];
const PETS: &[&str] = &[
    "Biscuit", "Luna", "Pepper", "Mochi", "Ziggy", "Juniper", "Waffles", "Nacho", "Clover",
    "Pickles", "Bandit", "Maple",
];
const PET_KINDS: &[&str] = &["dog", "cat", "puppy", "kitten", "rabbit", "parrot"];
const EVENTS: &[&str] = &[
    "Harvest Festival",
    "Lakeside Marathon",
    "Spring Gala",
    "Riverside Jazz Festival",
    "Winter Fair",
    "City Half Marathon",
];

/// `n` conversations, each its own seed.
pub fn generate(n: usize) -> Vec<Doc> {
    (0..n).map(|i| conversation(i as u64)).collect()
}

/// Who is in one conversation, as the line templates see it.
pub struct Cast {
    /// The first speaker (the owner) and the short form the others call them by.
    pub speaker: (&'static str, &'static str),
    pub other: &'static str,
    pub third: Option<&'static str>,
    pub friend: &'static str,
    pub rare: &'static str,
    pub place: &'static str,
    pub org: &'static str,
    /// A title and its kind: `book`, `game`, `show` or `album`.
    pub work: (&'static str, &'static str),
    pub pet: &'static str,
    pub pet_kind: &'static str,
    pub event: &'static str,
}

fn conversation(seed: u64) -> Doc {
    let mut rng = StdRng::seed_from_u64(0x9a_0047 ^ seed);
    let pick = |rng: &mut StdRng, list: &[&'static str]| *list.choose(rng).expect("a list");
    let speaker = *SPEAKERS.choose(&mut rng).expect("speakers");
    let other = pick(&mut rng, OTHER_SPEAKERS);
    let others: Vec<&'static str> = OTHER_SPEAKERS
        .iter()
        .copied()
        .filter(|s| *s != other)
        .collect();
    let cast = Cast {
        speaker,
        other,
        third: rng.random_bool(0.3).then(|| pick(&mut rng, &others[..])),
        friend: pick(&mut rng, FULL_NAMES),
        rare: pick(&mut rng, RARE_NAMES),
        place: pick(&mut rng, PLACES),
        org: pick(&mut rng, ORGS),
        work: *WORKS.choose(&mut rng).expect("works"),
        pet: pick(&mut rng, PETS),
        pet_kind: pick(&mut rng, PET_KINDS),
        event: pick(&mut rng, EVENTS),
    };
    let speakers: Vec<&str> = [cast.speaker.0, cast.other]
        .into_iter()
        .chain(cast.third)
        .collect();
    let turns: Vec<Turn> = super::lines::lines(&cast, &mut rng)
        .into_iter()
        .enumerate()
        .map(|(i, text)| Turn {
            speaker: Some(speakers[i % speakers.len()].to_owned()),
            text,
            timestamp: None,
        })
        .collect();
    let person = |name: &str, aliases: &[&str]| GoldPerson {
        name: name.into(),
        aliases: aliases.iter().map(|a| (*a).to_owned()).collect(),
    };
    let mut people = vec![
        person(cast.speaker.0, &[cast.speaker.1]),
        person(cast.other, &[]),
        person(cast.friend, &[first(cast.friend)]),
        person(cast.rare, &[]),
    ];
    people.extend(cast.third.map(|c| person(c, &[])));
    let entity = |name: &str, entity_type| GoldEntity {
        name: name.into(),
        entity_type,
    };
    let gold = Gold {
        people,
        entities: vec![
            entity(cast.place, "place"),
            entity(cast.org, "organization"),
            entity(cast.work.0, "work"),
            entity(cast.pet, "pet"),
            entity(cast.event, "event"),
        ],
        ignore: vec![],
    };
    Doc {
        label: format!("generated chat {seed}"),
        source_type: SourceType::Conversation,
        raw: RawContent::Transcript(Transcript { title: None, turns }),
        owner: Some(cast.speaker.0.into()),
        gold,
    }
}

fn first(name: &str) -> &str {
    name.split_whitespace().next().unwrap_or(name)
}
