//! Scoring one Source's kept People and Entities against its gold list.
//!
//! * A Person node is right when its name is a gold person's name or alias (by the
//!   canonical person key) and no other node already stands for that person; a second
//!   node for the same person counts as wrong (a reader sees one person twice).
//! * A gold person is found when some Person node stands for them; an alias case (a gold
//!   person the text calls by more than one name) is merged when exactly one node
//!   stands for them and it carries the gold (fullest) name.
//! * An Entity node is right when its name is a gold entity's; by type, a node typed T
//!   is right when it is a gold entity of type T, and a gold entity of type T is found
//!   when a node of that name is typed T. Names on the ignore list count neither way.

use std::collections::BTreeMap;

use cosmo_shared::domain::NodeKind;
use cosmo_shared::domain::names::{canonical_person, normalise};
use cosmo_shared::llm::ExtractedEntity;

use super::{Doc, line, ratio};

/// The counts of one Source (or, summed, of a corpus).
#[derive(Debug, Clone, Default)]
pub struct Found {
    pub people: usize,
    pub people_right: usize,
    pub gold_people: usize,
    pub gold_people_found: usize,
    pub alias_cases: usize,
    pub alias_merged: usize,
    pub entities: usize,
    pub entities_right: usize,
    pub gold_entities: usize,
    pub gold_entities_found: usize,
    /// Per type: (nodes typed so, of them right, gold of the type, of them found so).
    pub by_type: BTreeMap<String, [usize; 4]>,
    /// What went wrong, for `--verbose`.
    pub notes: Vec<String>,
}

pub fn score(doc: &Doc, kept: &[ExtractedEntity]) -> Found {
    let gold = &doc.gold;
    let ignored = |name: &str| gold.ignore.iter().any(|i| normalise(i) == normalise(name));
    let mut f = Found::default();
    let person_of = |name: &str| {
        let key = canonical_person(name);
        gold.people.iter().position(|p| {
            std::iter::once(&p.name)
                .chain(&p.aliases)
                .any(|n| canonical_person(n) == key)
        })
    };
    let mut nodes_for: Vec<Vec<&str>> = vec![Vec::new(); gold.people.len()];
    for e in kept.iter().filter(|e| e.kind == NodeKind::Person) {
        match person_of(&e.name) {
            Some(p) => nodes_for[p].push(&e.name),
            None if ignored(&e.name) => continue,
            None => f.notes.push(format!("not a person: {:?}", e.name)),
        }
        f.people += 1;
    }
    for (p, nodes) in gold.people.iter().zip(&nodes_for) {
        f.gold_people += 1;
        f.people_right += nodes.len().min(1);
        f.gold_people_found += usize::from(!nodes.is_empty());
        match nodes.len() {
            0 => f.notes.push(format!("person missed: {:?}", p.name)),
            1 => {}
            _ => f
                .notes
                .push(format!("one person, several nodes: {nodes:?}")),
        }
        if !p.aliases.is_empty() {
            f.alias_cases += 1;
            let merged =
                nodes.len() == 1 && canonical_person(nodes[0]) == canonical_person(&p.name);
            f.alias_merged += usize::from(merged);
            if !merged && !nodes.is_empty() {
                f.notes
                    .push(format!("alias not merged: {:?} as {nodes:?}", p.name));
            }
        }
    }
    let entity_of = |name: &str| {
        gold.entities
            .iter()
            .find(|g| normalise(&g.name) == normalise(name))
    };
    for e in kept.iter().filter(|e| e.kind == NodeKind::Entity) {
        let typed = e.entity_type.clone().unwrap_or_else(|| "other".into());
        let hit = entity_of(&e.name);
        if hit.is_none() && ignored(&e.name) {
            continue;
        }
        f.entities += 1;
        f.entities_right += usize::from(hit.is_some());
        let row = f.by_type.entry(typed.clone()).or_default();
        row[0] += 1;
        row[1] += usize::from(hit.is_some_and(|g| g.entity_type == typed));
        match hit {
            None => f
                .notes
                .push(format!("not an entity: {:?} ({typed})", e.name)),
            Some(g) if g.entity_type != typed => f
                .notes
                .push(format!("typed {typed}, is {}: {:?}", g.entity_type, e.name)),
            Some(_) => {}
        }
    }
    for g in &gold.entities {
        let node = kept
            .iter()
            .find(|e| e.kind == NodeKind::Entity && normalise(&e.name) == normalise(&g.name));
        f.gold_entities += 1;
        f.gold_entities_found += usize::from(node.is_some());
        let row = f.by_type.entry(g.entity_type.to_owned()).or_default();
        row[2] += 1;
        let typed = node.and_then(|e| e.entity_type.as_deref()) == Some(g.entity_type);
        row[3] += usize::from(typed);
        if node.is_none() {
            let as_person = kept
                .iter()
                .any(|e| e.kind == NodeKind::Person && normalise(&e.name) == normalise(&g.name));
            let how = if as_person { " (as a person)" } else { "" };
            f.notes.push(format!(
                "entity missed{how}: {:?} ({})",
                g.name, g.entity_type
            ));
        }
    }
    f
}

impl Found {
    /// The notes, each missed name with what the extraction made of it before the filter.
    pub fn explain(&self, label: &str, all: &[ExtractedEntity]) {
        for note in &self.notes {
            eprintln!("{label}: {note}");
            let Some(name) = note.split('"').nth(1) else {
                continue;
            };
            for e in all
                .iter()
                .filter(|e| normalise(&e.name).contains(&normalise(name)))
            {
                eprintln!(
                    "    extracted {:?} {:?} {:?} confidence {} subpoints {:?}",
                    e.kind, e.name, e.entity_type, e.confidence, e.subpoints
                );
            }
        }
    }
}

/// A corpus's counts, summed over its Sources.
#[derive(Debug, Default)]
pub struct Tally(Found);

impl Tally {
    pub fn add(&mut self, f: Found) {
        let t = &mut self.0;
        t.people += f.people;
        t.people_right += f.people_right;
        t.gold_people += f.gold_people;
        t.gold_people_found += f.gold_people_found;
        t.alias_cases += f.alias_cases;
        t.alias_merged += f.alias_merged;
        t.entities += f.entities;
        t.entities_right += f.entities_right;
        t.gold_entities += f.gold_entities;
        t.gold_entities_found += f.gold_entities_found;
        for (k, v) in f.by_type {
            let row = t.by_type.entry(k).or_default();
            for (sum, add) in row.iter_mut().zip(v) {
                *sum += add;
            }
        }
    }

    /// One `graph` line and a `graph_type` line per entity type.
    pub fn print(&self, corpus: &str, sources: usize) {
        let t = &self.0;
        line("graph", corpus)
            .text("sources", sources)
            .text("people", t.people)
            .text("gold_people", t.gold_people)
            .num("person_precision", ratio(t.people_right, t.people), 3)
            .num(
                "person_recall",
                ratio(t.gold_people_found, t.gold_people),
                3,
            )
            .text("alias_cases", t.alias_cases)
            .num("alias_merged", ratio(t.alias_merged, t.alias_cases), 3)
            .text("entities", t.entities)
            .text("gold_entities", t.gold_entities)
            .num("entity_precision", ratio(t.entities_right, t.entities), 3)
            .num(
                "entity_recall",
                ratio(t.gold_entities_found, t.gold_entities),
                3,
            )
            .print();
        for (entity_type, [typed, right, gold, found]) in &t.by_type {
            line("graph_type", corpus)
                .text("type", entity_type)
                .text("nodes", typed)
                .text("gold", gold)
                .num("precision", ratio(*right, *typed), 3)
                .num("recall", ratio(*found, *gold), 3)
                .print();
        }
    }
}
