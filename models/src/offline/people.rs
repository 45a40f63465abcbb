//! The extractor's bookkeeping for named candidates: speakers and capitalised names
//! merged by identity and alias ("Sarah" → "Sarah Chen", "Acme" → "Acme Corp"), the
//! sentences mentioning each, pronoun attribution, and confidence.

use std::collections::{HashMap, HashSet};

use super::names::Found;
use super::owner::Owner;
use super::text;
use cosmo_core::domain::NodeKind;
use cosmo_core::domain::names::{canonical_person, normalise};

#[derive(Debug, Clone)]
pub struct Candidate {
    pub kind: NodeKind,
    pub name: String,
    pub entity_type: Option<&'static str>,
    pub is_owner: bool,
    pub(super) strength: f64,
    pub(super) speaker: bool,
    pub(super) alive: bool,
    /// Speaker labels whose lines are this person's own statements.
    pub(super) labels: Vec<String>,
    /// Word sequences that name it in the text.
    pub(super) aliases: Vec<Vec<String>>,
    pub(super) own: Vec<usize>,
    pub(super) mentioned: Vec<usize>,
    pub(super) pronouns: Vec<usize>,
}

impl Candidate {
    pub(super) fn new(
        kind: NodeKind,
        name: &str,
        entity_type: Option<&'static str>,
        strength: f64,
    ) -> Self {
        Self {
            kind,
            name: name.to_owned(),
            entity_type,
            is_owner: false,
            strength,
            speaker: false,
            alive: true,
            labels: Vec::new(),
            aliases: vec![words(name)],
            own: Vec::new(),
            mentioned: Vec::new(),
            pronouns: Vec::new(),
        }
    }

    /// 0–10: speakers start high; names start at their pattern's strength and gain a
    /// point per further sentence mentioning them, half a point per pronoun reference.
    pub fn confidence(&self) -> Option<f64> {
        if self.speaker {
            let total = self.sentence_indices().len();
            return (total > 0).then(|| (7.5 + 0.5 * total.min(5) as f64).min(10.0));
        }
        let explicit = self.mentioned.len();
        (explicit > 0).then(|| {
            (self.strength + (explicit - 1) as f64 + 0.5 * self.pronouns.len() as f64).min(10.0)
        })
    }

    /// Own statements, mentions and pronoun references, in order, without repeats.
    pub fn sentence_indices(&self) -> Vec<usize> {
        let mut all: Vec<usize> = self
            .own
            .iter()
            .chain(&self.mentioned)
            .chain(&self.pronouns)
            .copied()
            .collect();
        all.sort_unstable();
        all.dedup();
        all
    }

    pub(super) fn key(&self) -> String {
        match self.kind {
            NodeKind::Person => canonical_person(&self.name),
            _ => normalise(&self.name),
        }
    }
}

fn words(name: &str) -> Vec<String> {
    name.split_whitespace().map(str::to_owned).collect()
}

#[derive(Debug, Default)]
pub struct Book {
    pub(super) owner: Owner,
    pub(super) items: Vec<Candidate>,
    /// Name key → every classification seen for it, until [`Book::resolve_aliases`].
    pub(super) votes: Vec<(String, Vec<Found>)>,
    pub(super) vote_index: HashMap<String, usize>,
    /// Per sentence: (word position, candidate) for names in its text.
    pub(super) by_sentence: Vec<Vec<(usize, usize)>>,
}

impl Book {
    pub fn new(owner: Owner) -> Self {
        Self {
            owner,
            ..Self::default()
        }
    }

    pub fn candidates(&self) -> impl Iterator<Item = &Candidate> {
        self.items.iter().filter(|c| c.alive)
    }

    pub fn add_speaker(&mut self, label: &str) {
        let at = self.person(label, 8.0);
        let candidate = &mut self.items[at];
        candidate.speaker = true;
        candidate.labels.push(label.to_owned());
    }

    pub fn add_found(&mut self, found: Found) {
        let key = normalise(&found.name);
        let at = *self.vote_index.entry(key.clone()).or_insert_with(|| {
            self.votes.push((key, Vec::new()));
            self.votes.len() - 1
        });
        self.votes[at].1.push(found);
    }

    /// The person with this name (the owner for the owner's names), created if new.
    pub(super) fn person(&mut self, name: &str, strength: f64) -> usize {
        let is_owner = self.owner.matches(name);
        let name = if is_owner {
            self.owner.name.clone().unwrap_or_default()
        } else {
            name.to_owned()
        };
        let key = canonical_person(&name);
        if let Some(at) = self
            .items
            .iter()
            .position(|c| c.alive && c.kind == NodeKind::Person && c.key() == key)
        {
            self.items[at].strength = self.items[at].strength.max(strength);
            return at;
        }
        let mut candidate = Candidate::new(NodeKind::Person, &name, None, strength);
        candidate.is_owner = is_owner;
        self.items.push(candidate);
        self.items.len() - 1
    }

    /// Lower-case words of every name and speaker label, kept out of Concepts.
    pub fn name_words(&self) -> HashSet<String> {
        self.candidates()
            .flat_map(|c| c.aliases.iter().flatten().chain(&c.labels))
            .flat_map(|w| w.split_whitespace().map(text::norm).collect::<Vec<_>>())
            .collect()
    }
}
