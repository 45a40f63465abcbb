//! The lifecycle maths, in one place, as pure functions: decay, the access update with
//! the spacing effect, TTL policy precedence and the state machine. Jobs call these;
//! property tests hold them to bounds, determinism, monotonicity, idempotence and pinned
//! immunity.

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

use crate::domain::{
    Lifecycle, LifecycleChange, LifecycleEvent, MemoryLifecycle, MemoryState, TtlPolicy,
};

#[cfg(test)]
mod tests;

pub mod control;

/// Tunables, set under `[lifecycle]` (docs/configuration.md, "`[lifecycle]`").
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LifecycleParams {
    /// Base daily decay rate at recall frequency 0 (half-life ≈ 35 days).
    pub base_rate: f64,
    /// Salience under which a memory is archived.
    pub archive_below: f64,
    /// Candidates at or above this confidence do not decay until first accessed.
    pub confident_candidate: f64,
    /// Salience boost per retrieval, α ∈ [0.05, 0.1].
    pub access_boost: f64,
    /// Accesses that make a memory `core`.
    pub core_after_accesses: i64,
    /// `ephemeral` hard deadlines.
    pub ephemeral_episodic_days: i64,
    pub ephemeral_semantic_days: i64,
    /// Spacing effect steps and the floor of the decay gradient.
    pub gradient_up: f64,
    pub gradient_down: f64,
    pub min_gradient: f64,
}

impl Default for LifecycleParams {
    fn default() -> Self {
        Self {
            base_rate: 0.02,
            archive_below: 0.01,
            confident_candidate: 0.8,
            access_boost: 0.075,
            core_after_accesses: 10,
            ephemeral_episodic_days: 30,
            ephemeral_semantic_days: 90,
            gradient_up: 0.1,
            gradient_down: 0.05,
            min_gradient: 0.1,
        }
    }
}

impl LifecycleParams {
    pub fn validate(&self) -> anyhow::Result<()> {
        anyhow::ensure!(
            self.base_rate > 0.0 && self.base_rate < 1.0,
            "lifecycle.base_rate must be in (0, 1)"
        );
        anyhow::ensure!(
            (0.0..1.0).contains(&self.archive_below),
            "lifecycle.archive_below must be in [0, 1)"
        );
        anyhow::ensure!(
            (0.05..=0.1).contains(&self.access_boost),
            "lifecycle.access_boost must be in [0.05, 0.1]"
        );
        anyhow::ensure!(
            self.core_after_accesses >= 1,
            "lifecycle.core_after_accesses must be at least 1"
        );
        anyhow::ensure!(
            self.ephemeral_episodic_days >= 1 && self.ephemeral_semantic_days >= 1,
            "lifecycle ephemeral deadlines must be at least one day"
        );
        anyhow::ensure!(
            self.min_gradient > 0.0,
            "lifecycle.min_gradient must be positive"
        );
        Ok(())
    }
}

/// Episodic memories (Sources) and semantic ones (nodes, relationships, Storylines,
/// Macros) have different `ephemeral` deadlines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MemoryClass {
    Episodic,
    Semantic,
}

/// Why a state changed; goes into the lifecycle event log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// Salience fell below the archive threshold.
    Decayed,
    /// An `ephemeral` memory reached its hard deadline.
    TtlExpired,
    /// Retrieved for the first time.
    Accessed,
    /// Retrieved often enough to become core.
    FrequentlyAccessed,
}

/// A state change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Transition {
    pub from: MemoryState,
    pub to: MemoryState,
    pub reason: Reason,
}

/// The state machine: `candidate → active → core`, any of them `→ archived`, and
/// `archived → active` when a user restores the memory ([`control`]).
pub fn is_valid_transition(from: MemoryState, to: MemoryState) -> bool {
    use MemoryState::*;
    matches!(
        (from, to),
        (Candidate, Active)
            | (Active, Core)
            | (Candidate | Active | Core, Archived)
            | (Archived, Active)
    )
}

/// The daily decay rate: `base_rate / (1 + recall_frequency ^ decay_gradient)`;
/// candidates below the confidence bar decay `1 + (1 − confidence) × 2` times faster,
/// candidates at or above it do not decay.
pub fn decay_rate(l: &Lifecycle, p: &LifecycleParams) -> f64 {
    let base = p.base_rate / (1.0 + (l.recall_frequency.max(0) as f64).powf(l.decay_gradient));
    match l.state {
        MemoryState::Candidate if l.confidence >= p.confident_candidate => 0.0,
        MemoryState::Candidate => base * (1.0 + (1.0 - l.confidence.clamp(0.0, 1.0)) * 2.0),
        _ => base,
    }
}

/// Where decay resumes: the later of the last decay and the last access (never before
/// creation). Measuring from here is what keeps decay from compounding: decaying nightly,
/// weekly or twice a night gives the same salience for the same elapsed time.
pub fn decay_since(l: &Lifecycle) -> DateTime<Utc> {
    [Some(l.created_at), l.last_decayed_at, l.last_accessed_at]
        .into_iter()
        .flatten()
        .max()
        .unwrap_or(l.created_at)
}

fn days(d: Duration) -> f64 {
    d.num_microseconds()
        .map_or(d.num_seconds() as f64, |us| us as f64 / 1e6)
        / 86_400.0
}

/// The result of one decay evaluation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Decayed {
    pub lifecycle: Lifecycle,
    pub transition: Option<Transition>,
}

/// Decays one memory to `now`. TTL precedence, highest first: `keep_forever` (salience
/// held at 1.0, never archived), `ephemeral` (archived at the hard deadline whatever its
/// salience), `decay`. Pinned memories are untouched. Returns `None` when nothing changes, so a
/// second run at the same time writes nothing.
pub fn decay(
    l: &Lifecycle,
    class: MemoryClass,
    now: DateTime<Utc>,
    p: &LifecycleParams,
) -> Option<Decayed> {
    if l.pinned {
        return None;
    }
    let mut next = l.clone();
    let mut transition = None;
    match l.ttl_policy {
        TtlPolicy::KeepForever => {
            if l.salience == 1.0 {
                return None;
            }
            next.salience = 1.0;
        }
        TtlPolicy::Ephemeral | TtlPolicy::Decay => {
            let since = decay_since(l);
            if now > since {
                let factor = (-decay_rate(l, p) * days(now - since)).exp();
                next.salience = (l.salience * factor).clamp(0.0, 1.0);
                next.last_decayed_at = Some(now);
            }
            let deadline_days = match class {
                MemoryClass::Episodic => p.ephemeral_episodic_days,
                MemoryClass::Semantic => p.ephemeral_semantic_days,
            };
            let expired = l.ttl_policy == TtlPolicy::Ephemeral
                && now >= l.created_at + Duration::days(deadline_days);
            if l.state != MemoryState::Archived {
                if expired {
                    transition = Some(Transition {
                        from: l.state,
                        to: MemoryState::Archived,
                        reason: Reason::TtlExpired,
                    });
                } else if next.salience < p.archive_below {
                    transition = Some(Transition {
                        from: l.state,
                        to: MemoryState::Archived,
                        reason: Reason::Decayed,
                    });
                }
            }
        }
    }
    if let Some(t) = transition {
        next.state = t.to;
    }
    if next == *l {
        return None;
    }
    next.updated_at = now;
    Some(Decayed {
        lifecycle: next,
        transition,
    })
}

/// What decay writes for one memory (`None`: nothing changes): its new lifecycle and,
/// when it is archived, the event saying why.
pub fn decay_change(
    m: &MemoryLifecycle,
    as_of: DateTime<Utc>,
    p: &LifecycleParams,
) -> Option<LifecycleChange> {
    let decayed = decay(&m.lifecycle, m.kind.class(), as_of, p)?;
    Some(LifecycleChange {
        kind: m.kind,
        key: m.key.clone(),
        lifecycle: decayed.lifecycle,
        event: decayed
            .transition
            .map(|t| LifecycleEvent::system(m, t.to, t.reason, as_of)),
    })
}

/// The access update, applied when a memory is returned by retrieval: counts, salience
/// boost, the spacing effect on the decay gradient, and `candidate → active`, `→ core` at
/// 10 accesses. A pinned memory's state does not change.
///
/// Nor does an archived one's: reading archived memories (`include_archived`) does not
/// restore them; only the user's `restore` ([`control`]) does. Otherwise one
/// look at an archived history would undo every archival it returns. The read is still
/// a recall, so the counts, `last_accessed_at`, the salience boost and the spacing
/// effect are kept: they are what the memory's decay continues from once restored.
pub fn on_access(l: &Lifecycle, now: DateTime<Utc>, p: &LifecycleParams) -> Decayed {
    let mut next = l.clone();
    if let Some(previous) = l.last_accessed_at {
        let interval = days(now - previous).max(0.0);
        if l.recall_frequency > 0 && interval > l.last_recall_interval {
            next.decay_gradient += p.gradient_up;
        } else if l.recall_frequency > 0 && interval < l.last_recall_interval {
            next.decay_gradient = (next.decay_gradient - p.gradient_down).max(p.min_gradient);
        }
        next.last_recall_interval = interval;
    }
    next.access_count += 1;
    next.recall_frequency += 1;
    next.last_accessed_at = Some(now);
    next.salience = (l.salience + p.access_boost).min(1.0);
    next.updated_at = now;
    let to = match l.state {
        MemoryState::Candidate => Some((MemoryState::Active, Reason::Accessed)),
        MemoryState::Active if next.access_count >= p.core_after_accesses => {
            Some((MemoryState::Core, Reason::FrequentlyAccessed))
        }
        _ => None,
    };
    let transition = match to {
        Some((to, reason)) if !l.pinned => {
            next.state = to;
            Some(Transition {
                from: l.state,
                to,
                reason,
            })
        }
        _ => None,
    };
    Decayed {
        lifecycle: next,
        transition,
    }
}
