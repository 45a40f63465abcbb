//! Facts: things a user states or confirms about themselves and their world. A fact is
//! either free text, or structured (`category`, `key`, `value`) with one live value per
//! (user, category, key) where a less confident value never overwrites a more confident
//! one. Corrections supersede: the new fact links to the old one, which is soft-deleted
//! with a validity end. Confirmed facts are protected from decay.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::Lifecycle;

#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Fact {
    pub fact_id: String,
    #[serde(serialize_with = "crate::ids::serialize_user_id")]
    pub user_id: String,
    pub text: String,
    pub category: Option<String>,
    pub key: Option<String>,
    pub value: Option<String>,
    /// False once superseded or retracted (soft delete).
    pub is_active: bool,
    pub valid_from: DateTime<Utc>,
    /// When it was said: the latest event time of the Sources it cites (`started_at`,
    /// else when the Source arrived), else when it was told (`valid_from`).
    pub said_at: DateTime<Utc>,
    /// When it stopped being true (set by a correction).
    pub valid_to: Option<DateTime<Utc>>,
    pub confirmed: bool,
    /// The fact this one replaced.
    pub supersedes: Option<String>,
    /// Semantic nodes the fact is about.
    pub about: Vec<String>,
    /// Sources it came from.
    pub source_keys: Vec<String>,
    #[serde(skip)]
    pub embedding: Option<Vec<f32>>,
    pub lifecycle: Lifecycle,
}

/// A fact to store.
#[derive(Debug, Clone, PartialEq)]
pub struct NewFact {
    pub fact_id: String,
    pub user_id: String,
    pub text: String,
    pub category: Option<String>,
    pub key: Option<String>,
    pub value: Option<String>,
    pub confidence: f64,
    pub about: Vec<String>,
    pub source_keys: Vec<String>,
    pub embedding: Option<Vec<f32>>,
    pub at: DateTime<Utc>,
}

impl NewFact {
    /// This fact as the correction of `old`: a structured fact keeps its slot, and an
    /// empty `about` keeps what the old fact was about.
    pub fn correcting(&self, old: &Fact) -> NewFact {
        let mut new = self.clone();
        if old.key.is_some() {
            new.category.clone_from(&old.category);
            new.key.clone_from(&old.key);
        }
        if new.about.is_empty() {
            new.about.clone_from(&old.about);
        }
        new
    }

    /// Whether correcting `old` with this fact moves a free-text fact into a slot,
    /// which another live fact may already hold.
    pub fn takes_a_slot_from(&self, old: &Fact) -> bool {
        old.key.is_none() && self.key.is_some()
    }

    /// The conflict of a correction into the slot that `holder` holds.
    pub fn slot_taken(&self, holder: &str) -> String {
        format!(
            "{}/{} already holds live fact {holder}; correct that fact instead",
            self.category.as_deref().unwrap_or_default(),
            self.key.as_deref().unwrap_or_default(),
        )
    }
}

/// What storing a fact did.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum FactWrite {
    /// A new fact (a structured one replacing a less confident value `superseded`).
    Stored {
        fact: Fact,
        superseded: Option<String>,
    },
    /// A structured value less confident than the live one: not stored.
    KeptExisting { existing: Fact },
    /// The same fact was already stored.
    Unchanged { existing: Fact },
}

/// Where a fact came from and what it replaced (`GET /api/facts/{id}/explain`).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct FactExplanation {
    pub fact: Fact,
    /// The chain of facts it replaced, newest first.
    pub superseded: Vec<Fact>,
    /// The fact that replaced it, if any.
    pub superseded_by: Option<String>,
    pub sources: Vec<super::SourceBrief>,
    /// `(entity key, display name)` of the nodes it is about.
    pub about: Vec<(String, String)>,
}

/// Weak facts (`GET /api/facts/weak`): live, unconfirmed, and below either bar — they
/// may need confirmation or will fade.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Weakness {
    pub salience_below: f64,
    pub confidence_below: f64,
}

impl Default for Weakness {
    fn default() -> Self {
        Self {
            salience_below: 0.2,
            confidence_below: 0.5,
        }
    }
}

/// Which of a user's facts to list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct FactFilter {
    /// Also superseded ones.
    pub include_inactive: bool,
    /// Only confirmed ones.
    pub confirmed_only: bool,
}
