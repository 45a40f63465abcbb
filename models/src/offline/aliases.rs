//! Merging names that mean the same candidate: the majority classification of each
//! name, one-word names folded into the full names they stand for ("Sarah" → "Sarah
//! Chen", "Acme" → "Acme Corp", "Mel" → the speaker Melanie), speaker labels kept out of
//! Entities, and first, last and suffix-less names added as aliases when no other
//! candidate shares them.

use std::collections::{HashMap, HashSet};

use super::cues;
use super::lexicon::ORG_SUFFIXES;
use super::names::Found;
use super::people::{Book, Candidate};
use cosmo_core::domain::NodeKind;
use cosmo_core::domain::names::{canonical_person, normalise};

impl Book {
    /// Turns votes into candidates, then merges short names into the long ones they
    /// stand for and gives people their first and last names as aliases.
    pub fn resolve_aliases(&mut self) {
        for (_, founds) in std::mem::take(&mut self.votes) {
            let best = majority(&founds);
            if best.kind == NodeKind::Person {
                self.person(&best.name, best.strength);
            } else if !self
                .items
                .iter()
                .any(|c| c.alive && c.kind != NodeKind::Person && c.key() == normalise(&best.name))
            {
                self.items.push(Candidate::new(
                    best.kind,
                    &best.name,
                    best.entity_type,
                    best.strength,
                ));
            }
        }
        // A name that is a person's (a speaker label, say) is that person, not an entity.
        for i in 0..self.items.len() {
            if self.items[i].alive && self.items[i].kind != NodeKind::Person {
                let key = canonical_person(&self.items[i].name);
                let person = (0..self.items.len()).find(|&j| {
                    self.items[j].alive
                        && self.items[j].kind == NodeKind::Person
                        && self.items[j].key() == key
                });
                if let Some(person) = person {
                    self.merge(i, person);
                }
            }
        }
        self.name_people_in_full();
        for i in 0..self.items.len() {
            if !self.items[i].alive || self.items[i].aliases[0].len() != 1 {
                continue;
            }
            let word = self.items[i].aliases[0][0].to_lowercase();
            let target = if self.items[i].kind == NodeKind::Person {
                self.unique_person(i, |w| {
                    w.first().map(|f| f.to_lowercase()) == Some(word.clone())
                })
                .or_else(|| {
                    self.unique_person(i, |w| {
                        w.last().map(|l| l.to_lowercase()) == Some(word.clone())
                    })
                })
                .or_else(|| self.fuller_form(i, &word))
            } else {
                self.unique_person(i, |w| w.iter().any(|p| p.to_lowercase() == word))
                    .or_else(|| self.unique_longer_entity(i))
            };
            if let Some(target) = target {
                self.merge(i, target);
            } else if self.items[i].kind == NodeKind::Person
                && self.owner.matches(&word)
                && !self.items[i].is_owner
            {
                let owner = self.person(&word, self.items[i].strength);
                if owner != i {
                    self.merge(i, owner);
                }
            }
        }
        self.add_short_aliases();
    }

    /// "Lena Hoffmann", with no cue of its own, is a person when the text calls a person
    /// Lena: a full name whose first word is a one-word person's name.
    fn name_people_in_full(&mut self) {
        let people: Vec<String> = self
            .candidates()
            .filter(|c| c.kind == NodeKind::Person && c.aliases[0].len() == 1)
            .map(|c| c.aliases[0][0].to_lowercase())
            .collect();
        for c in self.items.iter_mut().filter(|c| c.alive) {
            let ws = &c.aliases[0];
            let plain = ws
                .iter()
                .all(|w| w.chars().all(|ch| ch.is_alphabetic() || ch == '-'));
            if c.kind == NodeKind::Entity
                && c.entity_type == Some("other")
                && (2..=3).contains(&ws.len())
                && plain
                && people.contains(&ws[0].to_lowercase())
            {
                c.kind = NodeKind::Person;
                c.entity_type = None;
            }
        }
    }

    fn unique_person(&self, skip: usize, test: impl Fn(&[String]) -> bool) -> Option<usize> {
        let hits: Vec<usize> = (0..self.items.len())
            .filter(|&j| j != skip && self.items[j].alive && self.items[j].kind == NodeKind::Person)
            .filter(|&j| self.items[j].aliases[0].len() >= 2 && test(&self.items[j].aliases[0]))
            .collect();
        (hits.len() == 1).then(|| hits[0])
    }

    /// The one person whose first name `word` shortens ("Mel" for Melanie, "Kate" for
    /// Katherine Ross), when one of the two speaks in the text: a speaker called by a
    /// short form, or a short-named speaker whose full name the text gives.
    fn fuller_form(&self, i: usize, word: &str) -> Option<usize> {
        let hits: Vec<usize> = (0..self.items.len())
            .filter(|&j| j != i && self.items[j].alive && self.items[j].kind == NodeKind::Person)
            .filter(|&j| cues::is_short_form(word, &self.items[j].aliases[0][0].to_lowercase()))
            .collect();
        let speaks = |j: usize| self.items[i].speaker || self.items[j].speaker;
        (hits.len() == 1 && speaks(hits[0])).then(|| hits[0])
    }

    fn unique_longer_entity(&self, i: usize) -> Option<usize> {
        let short = &self.items[i].aliases[0];
        let hits: Vec<usize> = (0..self.items.len())
            .filter(|&j| j != i && self.items[j].alive && self.items[j].kind == NodeKind::Entity)
            .filter(|&j| {
                let long = &self.items[j].aliases[0];
                long.len() > short.len()
                    && long[..short.len()]
                        .iter()
                        .zip(short)
                        .all(|(a, b)| a.eq_ignore_ascii_case(b))
            })
            .collect();
        (hits.len() == 1).then(|| hits[0])
    }

    fn merge(&mut self, from: usize, into: usize) {
        self.items[from].alive = false;
        let (aliases, labels, strength, speaker) = {
            let c = &self.items[from];
            (c.aliases.clone(), c.labels.clone(), c.strength, c.speaker)
        };
        let target = &mut self.items[into];
        target.aliases.extend(aliases);
        target.labels.extend(labels);
        target.strength = target.strength.max(strength);
        target.speaker |= speaker;
    }

    /// "Sarah" and "Chen" for Sarah Chen, "Acme" for Acme Corp — when no other
    /// candidate shares the word.
    fn add_short_aliases(&mut self) {
        let mut counts: HashMap<String, usize> = HashMap::new();
        for c in self.candidates() {
            let ws = &c.aliases[0];
            let short: HashSet<String> = match (c.kind, ws.len()) {
                (NodeKind::Person, 2..) => {
                    [ws[0].to_lowercase(), ws[ws.len() - 1].to_lowercase()].into()
                }
                _ => ws.iter().map(|w| w.to_lowercase()).collect(),
            };
            for w in short {
                *counts.entry(w).or_default() += 1;
            }
        }
        for c in self.items.iter_mut().filter(|c| c.alive) {
            let ws = c.aliases[0].clone();
            let unique = |w: &String| counts.get(&w.to_lowercase()) == Some(&1);
            match c.kind {
                NodeKind::Person if ws.len() >= 2 => {
                    for w in [&ws[0], &ws[ws.len() - 1]] {
                        if unique(w) {
                            c.aliases.push(vec![w.clone()]);
                        }
                    }
                }
                NodeKind::Entity
                    if ws.len() == 2
                        && ORG_SUFFIXES.contains(ws[1].to_lowercase().as_str())
                        && unique(&ws[0]) =>
                {
                    c.aliases.push(vec![ws[0].clone()]);
                }
                _ => {}
            }
        }
    }
}

/// The classification backed by the strongest cue (then by the most total strength,
/// then the first seen): one "at Initech" outweighs any number of bare mentions.
fn majority(founds: &[Found]) -> Found {
    let mut options: Vec<(Found, f64)> = Vec::new();
    for f in founds {
        match options
            .iter_mut()
            .find(|(o, _)| o.kind == f.kind && o.entity_type == f.entity_type)
        {
            Some((o, total)) => {
                *total += f.strength;
                o.strength = o.strength.max(f.strength);
            }
            None => options.push((f.clone(), f.strength)),
        }
    }
    let mut best = 0;
    for (i, (found, total)) in options.iter().enumerate() {
        let (best_found, best_total) = &options[best];
        let stronger = found.strength > best_found.strength;
        if stronger || (found.strength == best_found.strength && *total > *best_total) {
            best = i;
        }
    }
    options.swap_remove(best).0
}
