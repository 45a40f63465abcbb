//! A user's memory in numbers, as a graph store counts it in one pass over the user's
//! data ([`crate::graph::StatsStore::memory_stats`]). Every kind, state and status is
//! always present, zero when there is none, so clients read a stable shape.
//!
//! What is counted is the user's own: the Sources they own (not team Sources they take
//! part in), their nodes, relationships, Storylines, Macros and facts, and the
//! extraction records of their own extractions (of any Source they may read).

use std::collections::BTreeMap;

use serde::Serialize;
use utoipa::ToSchema;

use super::{ExtractionStatus, MemoryKind, MemoryState, NodeKind, ProcessingStatus};

/// How many memories of one kind are in each lifecycle state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, ToSchema)]
pub struct StateCounts {
    pub total: u64,
    pub candidate: u64,
    pub active: u64,
    pub core: u64,
    pub archived: u64,
}

impl StateCounts {
    pub fn add(&mut self, state: MemoryState, n: u64) {
        self.total += n;
        *match state {
            MemoryState::Candidate => &mut self.candidate,
            MemoryState::Active => &mut self.active,
            MemoryState::Core => &mut self.core,
            MemoryState::Archived => &mut self.archived,
        } += n;
    }
}

/// Every kind of memory by lifecycle state; semantic nodes by their kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, ToSchema)]
pub struct MemoryCounts {
    pub source: StateCounts,
    pub person: StateCounts,
    pub concept: StateCounts,
    pub entity: StateCounts,
    pub relationship: StateCounts,
    pub storyline: StateCounts,
    #[serde(rename = "macro")]
    pub macro_: StateCounts,
    /// Every stored fact, live or not (see `inactive_facts`).
    pub fact: StateCounts,
}

impl MemoryCounts {
    /// The counts of one kind of memory; `None` for [`MemoryKind::Node`], which is
    /// counted by node kind ([`Self::node_mut`]).
    pub fn kind_mut(&mut self, kind: MemoryKind) -> Option<&mut StateCounts> {
        match kind {
            MemoryKind::Source => Some(&mut self.source),
            MemoryKind::Node => None,
            MemoryKind::Relationship => Some(&mut self.relationship),
            MemoryKind::Storyline => Some(&mut self.storyline),
            MemoryKind::Macro => Some(&mut self.macro_),
            MemoryKind::Fact => Some(&mut self.fact),
        }
    }

    pub fn node_mut(&mut self, kind: NodeKind) -> &mut StateCounts {
        match kind {
            NodeKind::Person => &mut self.person,
            NodeKind::Concept => &mut self.concept,
            NodeKind::Entity => &mut self.entity,
        }
    }
}

/// The user's Sources by processing status (`raw → processed → extracted`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, ToSchema)]
pub struct SourceStatusCounts {
    pub raw: u64,
    pub processed: u64,
    pub extracted: u64,
}

impl SourceStatusCounts {
    pub fn add(&mut self, status: ProcessingStatus, n: u64) {
        *match status {
            ProcessingStatus::Raw => &mut self.raw,
            ProcessingStatus::Processed => &mut self.processed,
            ProcessingStatus::Extracted => &mut self.extracted,
        } += n;
    }
}

/// The user's extraction records by status: `pending` and `in_progress` ones are still
/// to be done, `failed` ones gave up (an operator can retry them).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, ToSchema)]
pub struct ExtractionCounts {
    pub pending: u64,
    pub in_progress: u64,
    pub extracted: u64,
    pub failed: u64,
}

impl ExtractionCounts {
    pub fn add(&mut self, status: ExtractionStatus, n: u64) {
        *match status {
            ExtractionStatus::Pending => &mut self.pending,
            ExtractionStatus::InProgress => &mut self.in_progress,
            ExtractionStatus::Extracted => &mut self.extracted,
            ExtractionStatus::Failed => &mut self.failed,
        } += n;
    }
}

/// The links of the user's graph.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, ToSchema)]
pub struct LinkCounts {
    /// `mentions` links from Sources to the user's nodes, made by their extractions.
    pub mentions: u64,
    /// Links from one of the user's Sources to the next of its thread.
    pub temporal: u64,
    /// Cause-to-effect links between the user's Sources.
    pub causal: u64,
    /// Relationships between the user's nodes by `relationship_type` (e.g.
    /// `works_with`), every state; only types the user has.
    pub relationships_by_type: BTreeMap<String, u64>,
}

/// What the user's memories take, measured the same way on every store.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, ToSchema)]
pub struct StorageUse {
    /// Characters (Unicode code points, not bytes) of stored text: each Source's raw
    /// content (as JSON), cleaned content, summary and passages; each node's name,
    /// description and notes; each relationship's description and notes; Storyline and
    /// Macro descriptions; facts' text and value.
    pub text_chars: u64,
    /// Bytes of stored vectors at 4 bytes a dimension: Sources' summaries and passages,
    /// nodes, relationships' notes, Storylines, Macros, facts.
    pub vector_bytes: u64,
}

/// A user's memory in numbers.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, ToSchema)]
pub struct MemoryStats {
    pub memories: MemoryCounts,
    pub sources_by_status: SourceStatusCounts,
    pub links: LinkCounts,
    /// Persons, Concepts and Entities (the owner Person included) that no relationship
    /// touches, in either direction: known, but linked to nothing else.
    pub orphan_nodes: u64,
    /// Facts that were superseded or retracted (counted in `memories.fact` too).
    pub inactive_facts: u64,
    pub extractions: ExtractionCounts,
    pub storage: StorageUse,
}

impl MemoryStats {
    pub fn add_storage(&mut self, text_chars: i64, vector_bytes: i64) {
        self.storage.text_chars += count(text_chars);
        self.storage.vector_bytes += count(vector_bytes);
    }
}

/// A count read from a store (an `INTEGER`), never below zero.
pub fn count(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_state_and_status_is_in_the_json_even_at_zero() {
        let mut stats = MemoryStats::default();
        stats
            .memories
            .node_mut(NodeKind::Concept)
            .add(MemoryState::Core, 2);
        stats
            .memories
            .kind_mut(MemoryKind::Macro)
            .unwrap()
            .add(MemoryState::Archived, 1);
        let json = serde_json::to_value(&stats).unwrap();
        let kinds = json["memories"].as_object().unwrap();
        let names: Vec<&str> = kinds.keys().map(String::as_str).collect();
        assert_eq!(
            names,
            [
                "source",
                "person",
                "concept",
                "entity",
                "relationship",
                "storyline",
                "macro",
                "fact"
            ]
        );
        for (kind, counts) in kinds {
            let states: Vec<&str> = counts
                .as_object()
                .unwrap()
                .keys()
                .map(String::as_str)
                .collect();
            assert_eq!(
                states,
                ["total", "candidate", "active", "core", "archived"],
                "{kind}"
            );
        }
        assert_eq!(json["memories"]["concept"]["core"], 2);
        assert_eq!(json["memories"]["concept"]["total"], 2);
        assert_eq!(json["memories"]["macro"]["archived"], 1);
        assert_eq!(json["memories"]["person"]["total"], 0);
        assert_eq!(
            json["extractions"],
            serde_json::json!({ "pending": 0, "in_progress": 0, "extracted": 0, "failed": 0 })
        );
        assert_eq!(
            json["sources_by_status"],
            serde_json::json!({ "raw": 0, "processed": 0, "extracted": 0 })
        );
        assert!(MemoryCounts::default().kind_mut(MemoryKind::Node).is_none());
    }
}
