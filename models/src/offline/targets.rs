//! What the note-taking pass can write about: the kept entities (the owner as
//! [`OWNER`]) with the names they go by in the text, and how to find those names.

use super::owner::Owner;
use super::text;
use crate::{ExtractedEntity, OWNER};
use cosmo_core::domain::NodeKind;
use cosmo_core::domain::names::normalise;

/// Someone or something the notes can be about.
pub struct Target {
    pub kind: NodeKind,
    /// The name actions use: the display name, or [`OWNER`].
    pub name: String,
    /// Name used in descriptions.
    pub display: String,
    pub entity_type: Option<String>,
    pub aliases: Vec<Vec<String>>,
    pub subpoints: Vec<String>,
}

/// Kept entities once each (the owner as [`OWNER`]), plus the owner itself.
pub fn targets(entities: &[ExtractedEntity], owner: &Owner) -> Vec<Target> {
    let mut out: Vec<Target> = Vec::new();
    for e in entities {
        let is_owner = e.kind == NodeKind::Person && owner.matches(&e.name);
        let name = if is_owner {
            OWNER.to_owned()
        } else {
            e.name.clone()
        };
        if out
            .iter()
            .any(|t| t.kind == e.kind && normalise(&t.name) == normalise(&name))
        {
            continue;
        }
        let display = if is_owner {
            owner.name.clone().unwrap_or_else(|| e.name.clone())
        } else {
            e.name.clone()
        };
        let words: Vec<String> = display.split_whitespace().map(str::to_owned).collect();
        out.push(Target {
            kind: e.kind,
            name,
            display,
            entity_type: e.entity_type.clone(),
            aliases: vec![words],
            subpoints: e.subpoints.clone(),
        });
    }
    if !out.iter().any(|t| t.name == OWNER) {
        let display = owner.name.clone().unwrap_or_else(|| "the owner".to_owned());
        let words = owner
            .name
            .as_deref()
            .map(|n| n.split_whitespace().map(str::to_owned).collect())
            .unwrap_or_default();
        out.push(Target {
            kind: NodeKind::Person,
            name: OWNER.to_owned(),
            display,
            entity_type: None,
            aliases: vec![words],
            subpoints: Vec::new(),
        });
    }
    // People are also named by a first or last name no other person shares.
    let people: Vec<Vec<String>> = out
        .iter()
        .filter(|t| t.kind == NodeKind::Person)
        .map(|t| t.aliases[0].clone())
        .collect();
    let shared = |w: &str| {
        people
            .iter()
            .filter(|p| p.iter().any(|x| x.eq_ignore_ascii_case(w)))
            .count()
            > 1
    };
    for t in out
        .iter_mut()
        .filter(|t| t.kind == NodeKind::Person && t.aliases[0].len() >= 2)
    {
        let ws = t.aliases[0].clone();
        for w in [&ws[0], &ws[ws.len() - 1]] {
            if !shared(w) {
                t.aliases.push(vec![w.clone()]);
            }
        }
    }
    out
}

pub fn info(target: &Target) -> (NodeKind, Option<&str>) {
    (target.kind, target.entity_type.as_deref())
}

/// Where `alias` occurs: exact words for names (capitalised words match capitalised
/// text), case-insensitive with plurals for concepts.
pub fn find(
    tokens: &[String],
    caps: &[bool],
    alias: &[String],
    kind: NodeKind,
) -> Option<(usize, usize)> {
    if alias.is_empty() || alias.len() > tokens.len() {
        return None;
    }
    let words: Vec<(String, bool)> = alias
        .iter()
        .map(|w| (text::norm(w), w.starts_with(char::is_uppercase)))
        .collect();
    (0..=tokens.len() - words.len())
        .find(|&start| {
            words.iter().enumerate().all(|(k, (word, cap))| {
                let token = &tokens[start + k];
                let same = token == word
                    || (kind == NodeKind::Concept
                        && (*token == format!("{word}s") || *token == format!("{word}es")));
                same && (!cap || caps[start + k])
            })
        })
        .map(|start| (start, start + words.len()))
}
