//! Names and slot values: speakers' first and last names, and the values an arc's slots
//! draw (pets, relatives, places, brands …). The people in slots come from pools of
//! their own, so a slot never names a speaker. Lists are written as `, `-separated text.

use std::collections::HashSet;

use rand::Rng;
use rand::seq::IndexedRandom;

use super::templates::Slot;

pub const WOMEN: &str = "Maya, Jolene, Priya, Hannah, Rosa, Camille, Naomi, Leah, Tessa, Ingrid, \
    Amara, Lucia, Freya, Mei, Zoe, Bianca, Nadia, Clara, Esther, Imani, Keiko, Laila, Marisol, \
    Olivia, Paige, Renata, Sofia, Talia, Vera, Willa, Yara, Anika, Beatrice, Delia, Elena, Gemma, \
    Harper, Iris, Joanna, Kira";
pub const MEN: &str = "Jon, Marcus, Diego, Theo, Samir, Owen, Felix, Andre, Kenji, Luca, Rafael, \
    Tobias, Dev, Elijah, Gabe, Hugo, Isaac, Jamal, Kai, Leon, Mateo, Nico, Oscar, Pavel, Reid, \
    Silas, Tariq, Victor, Wes, Yusuf, Aaron, Bram, Calvin, Dmitri, Emil, Frank, Grant, Hector, \
    Ivan, Jasper";
pub const SURNAMES: &str = "Thompson, Okafor, Lindqvist, Ramirez, Nakamura, Brennan, Haddad, \
    Kowalski, Fitzgerald, Moreau, Achebe, Castellanos, Whitfield, Petrov, Sandoval, Yilmaz, \
    Gallagher, Mendes, Abernathy, Varga, Oyelaran, Holloway, Szabo, Delacroix, Marchetti, Kapoor, \
    Lindgren, Osei, Rourke, Tanaka, Beaumont, Chowdhury, Dunmore, Esposito, Falk, Guerrero, \
    Hartley, Ibarra, Jovanovic, Kerrigan, Lachance, Mbeki, Novak, Ortega, Pham, Quintero, \
    Rasmussen, Sorensen, Takahashi, Underwood, Valdez, Weatherby, Xiong, Yamada, Zeller, \
    Alvarado, Bergstrom, Cardenas, Duarte, Eriksen";

/// The items of a `, `-separated list.
pub fn list(text: &'static str) -> Vec<&'static str> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect()
}

/// One column of a slot: the keys it fills (`|`-separated) and its values, each with as
/// many `|`-separated parts as there are keys. Columns are drawn independently.
type Column = (&'static str, &'static str);

fn columns(slot: Slot) -> &'static [Column] {
    match slot {
        Slot::Dog => &[
            (
                "pet",
                "Biscuit, Pepper, Waffles, Juniper, Moose, Pickle, Tofu, Ziggy, Nacho, Clover, \
                 Olive, Rocket, Maple, Pretzel, Bandit, Honey, Ranger, Noodle, Scout, Dumpling",
            ),
            (
                "breed",
                "beagle, corgi, border collie, lab, greyhound, dachshund, husky, boxer, \
                 shepherd, poodle, terrier, pit bull",
            ),
        ],
        Slot::Cat => &[
            (
                "cat",
                "Miso, Luna, Pumpkin, Sardine, Mochi, Ginger, Smokey, Figaro, Nutmeg, Socks, \
                 Pixel, Marble, Beans, Cleo",
            ),
            ("coat", "tabby, black, calico, grey, orange, tuxedo, white"),
        ],
        Slot::Fish => &[("fish", "Bubbles, Captain, Neptune, Goldie, Sushi, Finn")],
        Slot::Shelter => &[(
            "shelter",
            "Happy Tails Rescue, Second Chance Shelter, Paws Place, Harbor Animal Rescue, \
             Bright Futures Humane Society, Whisker Haven",
        )],
        Slot::Studio => &[(
            "studio",
            "Clay Collective, Mudroom Studio, Kiln and Co, Wheelhouse Ceramics, Earthen Arts, \
             the Fired Up studio",
        )],
        Slot::Race => &[(
            "race",
            "Riverside 10K, Harbor Run, Bridge to Bay 10K, Maple Leaf 10K, Lakeshore Dash, \
             Firefly Night Run",
        )],
        Slot::Instrument => &[
            (
                "instr",
                "guitar, ukulele, cello, banjo, violin, saxophone, keyboard",
            ),
            (
                "teacher",
                "Rowan, Mr. Abadi, Gretchen, Luis, Ms. Park, Desmond",
            ),
        ],
        Slot::Peak => &[(
            "peak",
            "Mount Hood, Mount Washington, Mount Whitney, Pikes Peak, Mount Katahdin, Grays Peak, \
             Mount Mansfield, Mount Baker",
        )],
        Slot::Lang => &[
            (
                "lang|langland",
                "Portuguese|Brazil, Japanese|Japan, Italian|Italy, Korean|Korea, German|Germany, \
                 Greek|Greece, Spanish|Mexico, Dutch|the Netherlands",
            ),
            (
                "tutor",
                "Beatriz, Hiroshi, Giulia, Min-jun, Katrin, Eleni, Alejandra",
            ),
        ],
        Slot::Book => &[(
            "book|author",
            "The Salt Road|Ines Calder, A House of Small Lights|R. M. Okafor, \
             Winter Orchard|Dana Whitlock, The Cartographer's Daughter|Felix Amsel, \
             Nine Bright Rivers|Tomasz Wrobel, What the Tide Keeps|June Halloran, \
             The Glass Beekeeper|Ada Moreno, Lanterns Over Kestrel Bay|Oona Reyes",
        )],
        Slot::Company => &[(
            "company",
            "Brightline Logistics, Northwind Health, Copperleaf Software, Tidewater Bank, \
             Halcyon Games, Bluestem Foods, Larkspur Media, Ironwood Labs, Summit Freight, \
             Quillfeather Publishing",
        )],
        Slot::Kid => &[(
            "kid|kidrel|kidhe|kidhis|kidhim",
            "Milo|son|he|his|him, Ava|daughter|she|her|her, Eli|son|he|his|him, \
             Nora|daughter|she|her|her, Finn|son|he|his|him, Ruby|daughter|she|her|her, \
             Jack|son|he|his|him, Lily|daughter|she|her|her, Max|son|he|his|him, \
             Ella|daughter|she|her|her, Rory|son|he|his|him, Isla|daughter|she|her|her",
        )],
        Slot::Sport => &[("sport", "soccer, basketball, hockey, baseball, lacrosse")],
        Slot::Partner => &[
            (
                "date|datehe|datehis|datehim",
                "Adrian|he|his|him, Celeste|she|her|her, Mateus|he|his|him, \
                 Simone|she|her|her, Julian|he|his|him, Noor|she|her|her, Ezra|he|his|him, \
                 Colette|she|her|her",
            ),
            (
                "datejob",
                "a nurse, a high school teacher, an architect, a chef, a firefighter, \
                 a vet tech, a carpenter, a data analyst",
            ),
        ],
        Slot::Parent => &[("parent|parenthe|parenthis", "mom|she|her, dad|he|his")],
        Slot::Car => &[(
            "car|make",
            "used Subaru Outback|Subaru, used Honda CR-V|Honda, secondhand Toyota RAV4|Toyota, \
             used Mazda 3|Mazda, old Volvo wagon|Volvo, used Ford Ranger|Ford, \
             used Kia Soul|Kia, secondhand Jeep Wrangler|Jeep",
        )],
        Slot::City => &[(
            "city|country",
            "Lisbon|Portugal, Kyoto|Japan, Oaxaca|Mexico, Reykjavik|Iceland, Edinburgh|Scotland, \
             Marrakesh|Morocco, Hanoi|Vietnam, Seville|Spain, Prague|Czechia, Montreal|Canada, \
             Cape Town|South Africa, Naples|Italy, Bergen|Norway, Cartagena|Colombia, \
             Tbilisi|Georgia, Dubrovnik|Croatia",
        )],
        Slot::Sibling => &[(
            "sib|sibrel|sibhe|sibhis",
            "Ana|sister|she|her, Beth|sister|she|her, Carla|sister|she|her, \
             Dana|sister|she|her, Fiona|sister|she|her, Greg|brother|he|his, \
             Ollie|brother|he|his, Rico|brother|he|his, Sean|brother|he|his, \
             Tomas|brother|he|his",
        )],
        Slot::Friend => &[(
            "friend|friendhe|friendhis",
            "Becca|she|her, Nina|she|her, Lauren|she|her, Tasha|she|her, Marco|he|his, \
             Danny|he|his, Luke|he|his, Andy|he|his",
        )],
        Slot::Band => &[(
            "band",
            "the Velvet Tides, Paper Moons, Hollow Pines, Neon Harbor, the Marigolds, \
             Static Orchard, Copper Foxes, Midnight Ferry",
        )],
        Slot::Town => &[(
            "town",
            "Asheville, Sedona, Savannah, Santa Fe, Bar Harbor, Galena, Door County, Mendocino",
        )],
        Slot::Dish => &[(
            "dish",
            "paella, pad thai, dumplings, lasagna, green curry, tamales, pho, risotto",
        )],
    }
}

/// Draws the values of `slots` into `out`, avoiding values `used` already in this
/// conversation.
pub fn fill(
    rng: &mut impl Rng,
    slots: &[Slot],
    used: &mut HashSet<String>,
    out: &mut Vec<(&'static str, String)>,
) {
    for &slot in slots {
        for &(keys, values) in columns(slot) {
            let values = list(values);
            let fresh: Vec<&str> = values
                .iter()
                .copied()
                .filter(|v| !used.contains(&format!("{keys}={v}")))
                .collect();
            let value = fresh
                .choose(rng)
                .or_else(|| values.choose(rng))
                .copied()
                .unwrap_or("");
            used.insert(format!("{keys}={value}"));
            for (key, part) in keys.split('|').zip(value.split('|')) {
                out.push((key, part.to_owned()));
            }
        }
    }
}

/// Replaces every `{key}` of `template` by its value; unknown keys stay as they are.
pub fn render(template: &str, slots: &[(&'static str, String)]) -> String {
    let mut out = String::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            out.push_str(&rest[open..]);
            rest = "";
            break;
        };
        let key = &after[..close];
        match slots.iter().find(|(k, _)| *k == key) {
            Some((_, v)) => out.push_str(v),
            None => out.push_str(&rest[open..open + close + 2]),
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_has_a_part_per_key_and_render_fills_known_keys() {
        let slots = [
            Slot::Dog,
            Slot::Cat,
            Slot::Fish,
            Slot::Shelter,
            Slot::Studio,
            Slot::Race,
            Slot::Instrument,
            Slot::Peak,
            Slot::Lang,
            Slot::Book,
            Slot::Company,
            Slot::Kid,
            Slot::Sport,
            Slot::Partner,
            Slot::Parent,
            Slot::Car,
            Slot::City,
            Slot::Sibling,
            Slot::Friend,
            Slot::Band,
            Slot::Town,
            Slot::Dish,
        ];
        for slot in slots {
            for &(keys, values) in columns(slot) {
                for v in list(values) {
                    assert_eq!(keys.split('|').count(), v.split('|').count(), "{keys}: {v}");
                }
            }
        }
        assert!(list(WOMEN).len() >= 40 && list(MEN).len() >= 40 && list(SURNAMES).len() >= 60);
        let filled = render(
            "{P}'s dog {pet} {x}",
            &[("P", "Maya".into()), ("pet", "Tofu".into())],
        );
        assert_eq!(filled, "Maya's dog Tofu {x}");
    }
}
