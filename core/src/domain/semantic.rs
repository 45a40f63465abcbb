//! The per-user semantic graph: Person, Concept and Entity nodes, their relationships
//! and the notes that accumulate on both.

use chrono::{DateTime, Duration, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

use super::{Lifecycle, names, string_enum};

/// The three semantic labels. Labels in Cypher only ever come from this enum.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum NodeKind {
    Person,
    Concept,
    Entity,
}

string_enum!(NodeKind { Person = "person", Concept = "concept", Entity = "entity" });

impl NodeKind {
    /// The Neo4j label.
    pub fn label(self) -> &'static str {
        match self {
            Self::Person => "Person",
            Self::Concept => "Concept",
            Self::Entity => "Entity",
        }
    }
}

/// What makes a semantic node unique within a user's graph: Person
/// `(canonical_name, user_id)`, Concept `(name, user_id)`, Entity `(name, type, user_id)`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct NodeIdentity {
    pub kind: NodeKind,
    /// Normalised: the Person's canonical name, the Concept's or Entity's name.
    pub name: String,
    /// Entities only, e.g. `organization`.
    pub entity_type: Option<String>,
}

impl NodeIdentity {
    pub fn person(display_name: &str) -> Self {
        Self {
            kind: NodeKind::Person,
            name: names::canonical_person(display_name),
            entity_type: None,
        }
    }

    pub fn concept(name: &str) -> Self {
        Self {
            kind: NodeKind::Concept,
            name: names::normalise(name),
            entity_type: None,
        }
    }

    pub fn entity(name: &str, entity_type: &str) -> Self {
        Self {
            kind: NodeKind::Entity,
            name: names::normalise(name),
            entity_type: Some(names::normalise(entity_type).replace(' ', "_")),
        }
    }

    /// One string per identity, used for keys and sorting.
    pub fn key_string(&self) -> String {
        match &self.entity_type {
            Some(t) => format!("{}:{}:{}", self.kind, t, self.name),
            None => format!("{}:{}", self.kind, self.name),
        }
    }
}

/// Promotion counters, maintained once per (Source, node) on the Source's event time.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct HierarchyCounters {
    pub source_count: i64,
    pub first_mentioned_at: Option<DateTime<Utc>>,
    pub last_mentioned_at: Option<DateTime<Utc>>,
    pub distinct_source_days: i64,
    pub distinct_days: Vec<NaiveDate>,
    pub has_meso: bool,
    pub has_macro: bool,
}

/// A Person, Concept or Entity node.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SemanticNode {
    pub entity_key: String,
    pub user_id: String,
    pub identity: NodeIdentity,
    /// Display name as first seen.
    pub name: String,
    pub description: String,
    #[serde(skip)]
    pub embedding: Option<Vec<f32>>,
    pub is_owner: bool,
    pub created_by: String,
    pub counters: HierarchyCounters,
    pub is_dirty: bool,
    pub lifecycle: Lifecycle,
    pub notes: Vec<Note>,
}

/// How long a note stays relevant: `cleanup-notes` removes it once it has expired.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum NoteLifetime {
    Week,
    #[default]
    Month,
    Year,
    Forever,
}

string_enum!(NoteLifetime { Week = "week", Month = "month", Year = "year", Forever = "forever" });

impl NoteLifetime {
    pub fn expires_at(self, added: DateTime<Utc>) -> Option<DateTime<Utc>> {
        match self {
            Self::Week => Some(added + Duration::days(7)),
            Self::Month => Some(added + Duration::days(30)),
            Self::Year => Some(added + Duration::days(365)),
            Self::Forever => None,
        }
    }
}

/// One note on a node or relationship, with its authorship and provenance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Note {
    /// Deterministic from (target, author, source, text): appending the same note from
    /// the same Source twice keeps one note.
    pub note_id: String,
    pub text: String,
    pub added_by: String,
    pub source_id: Option<String>,
    /// When it was noted (written into the graph).
    pub date_added: DateTime<Utc>,
    /// When it was said: the time of the turn it came from where the transcript gives
    /// one, else its Source's event time (`started_at`, else when the Source arrived);
    /// for a consolidation insight, the latest event time of the Sources it came from. A
    /// back-filled chat of 2023 noted today was said in 2023.
    pub said_at: DateTime<Utc>,
    pub lifetime: NoteLifetime,
    pub expires_at: Option<DateTime<Utc>>,
}

/// A semantic link between two nodes of one user: one stored relationship type with a
/// `relationship_type` property, so Cypher stays static.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Relationship {
    pub rel_key: String,
    pub user_id: String,
    pub from_key: String,
    pub to_key: String,
    pub relationship_type: String,
    pub description: String,
    /// `positive`, `neutral`, `negative` or `mixed`.
    pub attitude: String,
    /// 0–1: how close the two are.
    pub proximity: f64,
    /// 0–1: how much evidence supports the link.
    pub strength: f64,
    #[serde(skip)]
    pub notes_embedding: Option<Vec<f32>>,
    pub is_dirty: bool,
    pub created_by: String,
    pub lifecycle: Lifecycle,
    pub notes: Vec<Note>,
}

/// A `(Source)-[:mentions]->(node)` link.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Mention {
    pub source_key: String,
    pub entity_key: String,
    pub user_id: String,
}
