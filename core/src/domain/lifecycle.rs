//! Lifecycle fields carried by every node and semantic relationship.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// `candidate → active → core → archived`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MemoryState {
    Candidate,
    Active,
    Core,
    Archived,
}

/// Governance policy; `keep_forever` > `ephemeral` > `decay` in precedence.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum TtlPolicy {
    KeepForever,
    Ephemeral,
    #[default]
    Decay,
}

/// Access-control flag on Sources only; never affects decay.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Sensitivity {
    Low,
    #[default]
    Normal,
    High,
}

super::string_enum!(MemoryState { Candidate = "candidate", Active = "active", Core = "core", Archived = "archived" });
super::string_enum!(TtlPolicy { KeepForever = "keep_forever", Ephemeral = "ephemeral", Decay = "decay" });
super::string_enum!(Sensitivity { Low = "low", Normal = "normal", High = "high" });

/// The salience/decay bookkeeping of one node or relationship.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Lifecycle {
    pub salience: f64,
    pub state: MemoryState,
    pub confidence: f64,
    pub access_count: i64,
    pub recall_frequency: i64,
    /// Days between the last two recalls; drives the spacing effect.
    pub last_recall_interval: f64,
    pub decay_gradient: f64,
    pub last_accessed_at: Option<DateTime<Utc>>,
    /// When decay was last applied; decay covers the time since the later of this and
    /// `last_accessed_at`, so it never compounds: no stretch of time is decayed twice.
    pub last_decayed_at: Option<DateTime<Utc>>,
    pub ttl_policy: TtlPolicy,
    pub pinned: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl Lifecycle {
    /// A new memory's salience; [`Lifecycle::new`] sets the other starting values.
    pub const INITIAL_SALIENCE: f64 = 0.5;

    pub fn new(confidence: f64, ttl_policy: TtlPolicy, at: DateTime<Utc>) -> Self {
        Self {
            // Kept forever, a memory is held at full salience from the start.
            salience: if ttl_policy == TtlPolicy::KeepForever {
                1.0
            } else {
                Self::INITIAL_SALIENCE
            },
            state: MemoryState::Candidate,
            confidence,
            access_count: 0,
            recall_frequency: 0,
            last_recall_interval: 0.0,
            decay_gradient: 1.0,
            last_accessed_at: None,
            last_decayed_at: None,
            ttl_policy,
            pinned: false,
            created_at: at,
            updated_at: at,
        }
    }

    /// The owner Person: core, kept forever, fully salient and certain.
    pub fn owner(at: DateTime<Utc>) -> Self {
        Self {
            salience: 1.0,
            state: MemoryState::Core,
            confidence: 1.0,
            ttl_policy: TtlPolicy::KeepForever,
            ..Self::new(1.0, TtlPolicy::KeepForever, at)
        }
    }

    /// Storylines and Macros are promoted from used memories, so they start active.
    pub fn promoted(at: DateTime<Utc>) -> Self {
        Self {
            state: MemoryState::Active,
            ..Self::new(1.0, TtlPolicy::Decay, at)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enums_round_trip_through_their_names() {
        for s in [
            MemoryState::Candidate,
            MemoryState::Active,
            MemoryState::Core,
            MemoryState::Archived,
        ] {
            assert_eq!(s.as_str().parse::<MemoryState>().unwrap(), s);
        }
        assert!("forever".parse::<TtlPolicy>().is_err());
        assert_eq!(
            "keep_forever".parse::<TtlPolicy>().unwrap(),
            TtlPolicy::KeepForever
        );
    }
}
