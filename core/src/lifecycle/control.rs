//! What users do to a memory's lifecycle by hand: pin and unpin (a pinned memory never
//! changes state), archive and restore, and choose how it ages (its [`TtlPolicy`]).
//! Each change is logged with actor `user`.

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::domain::{
    Actor, Lifecycle, LifecycleChange, LifecycleEvent, MemoryLifecycle, MemoryState, TtlPolicy,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Control {
    Pin,
    Unpin,
    Archive,
    Restore,
    /// `ttl_policy: keep_forever`: salience held at 1, never archived by decay.
    TtlKeepForever,
    /// `ttl_policy: ephemeral`: archived at a hard deadline after its creation, whatever
    /// its salience.
    TtlEphemeral,
    /// `ttl_policy: decay`, the default: it fades unless recalled.
    TtlDecay,
}

impl Control {
    /// The name in paths, answers and the event's reason.
    fn as_str(self) -> &'static str {
        match self {
            Self::Pin => "pin",
            Self::Unpin => "unpin",
            Self::Archive => "archive",
            Self::Restore => "restore",
            Self::TtlKeepForever => "ttl_keep_forever",
            Self::TtlEphemeral => "ttl_ephemeral",
            Self::TtlDecay => "ttl_decay",
        }
    }

    const ALL: [Control; 7] = [
        Self::Pin,
        Self::Unpin,
        Self::Archive,
        Self::Restore,
        Self::TtlKeepForever,
        Self::TtlEphemeral,
        Self::TtlDecay,
    ];
}

impl std::str::FromStr for Control {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Self::ALL.iter().map(|c| c.as_str()).collect();
                format!("unknown action {s:?}: expected one of {}", names.join(", "))
            })
    }
}

/// Why an action is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("{0} is pinned: unpin it before changing its state")]
    Pinned(String),
}

/// The change `control` makes to `m`: `Ok(None)` when it is already so (pinning a
/// pinned memory, restoring an active one, setting the policy it has), `Err` when it
/// may not happen.
///
/// A policy change leaves the state as it is (an archived memory kept forever stays
/// archived until restored) and is allowed on a pinned memory. Kept forever, salience
/// is 1 at once; leaving `keep_forever`, the memory decays from now, not from when it was
/// last decayed before it was kept. Made ephemeral, its deadline counts from its
/// creation, so an old memory is archived by the next decay run.
pub fn apply(
    control: Control,
    m: &MemoryLifecycle,
    now: DateTime<Utc>,
) -> Result<Option<LifecycleChange>, Refusal> {
    let l = &m.lifecycle;
    let mut next = l.clone();
    let (to, reason) = match control {
        Control::TtlKeepForever => return Ok(set_ttl(m, TtlPolicy::KeepForever, control, now)),
        Control::TtlEphemeral => return Ok(set_ttl(m, TtlPolicy::Ephemeral, control, now)),
        Control::TtlDecay => return Ok(set_ttl(m, TtlPolicy::Decay, control, now)),
        Control::Pin if l.pinned => return Ok(None),
        Control::Pin => {
            next.pinned = true;
            (l.state, "pinned")
        }
        Control::Unpin if !l.pinned => return Ok(None),
        Control::Unpin => {
            next.pinned = false;
            (l.state, "unpinned")
        }
        Control::Archive | Control::Restore if l.pinned => {
            return Err(Refusal::Pinned(format!("{} {}", m.kind, m.key)));
        }
        Control::Archive if l.state == MemoryState::Archived => return Ok(None),
        Control::Archive => (MemoryState::Archived, "archived_by_user"),
        Control::Restore if l.state != MemoryState::Archived => return Ok(None),
        Control::Restore => (MemoryState::Active, "restored_by_user"),
    };
    next.state = to;
    next.updated_at = now;
    if to == MemoryState::Active && control == Control::Restore {
        // A restored memory starts decaying again from now, not from before archival,
        // and at least as salient as a new one: one that decay archived (salience under
        // the archive bar) would otherwise be archived again by the next decay run.
        next.last_decayed_at = Some(now);
        next.salience = next.salience.max(Lifecycle::INITIAL_SALIENCE);
    }
    Ok(Some(user_change(m, next, to, reason, now)))
}

/// `m` aging by `policy` from now; `None` if it already does.
fn set_ttl(
    m: &MemoryLifecycle,
    policy: TtlPolicy,
    control: Control,
    now: DateTime<Utc>,
) -> Option<LifecycleChange> {
    let l = &m.lifecycle;
    if l.ttl_policy == policy {
        return None;
    }
    let mut next = l.clone();
    next.ttl_policy = policy;
    if policy == TtlPolicy::KeepForever {
        next.salience = 1.0;
    } else if l.ttl_policy == TtlPolicy::KeepForever {
        next.last_decayed_at = Some(now);
    }
    next.updated_at = now;
    Some(user_change(m, next, l.state, control.as_str(), now))
}

/// `m` changed to `next` by its user, logged with `reason`.
fn user_change(
    m: &MemoryLifecycle,
    next: Lifecycle,
    to: MemoryState,
    reason: &str,
    now: DateTime<Utc>,
) -> LifecycleChange {
    LifecycleChange {
        kind: m.kind,
        key: m.key.clone(),
        lifecycle: next,
        event: Some(LifecycleEvent {
            memory_kind: m.kind,
            memory_key: m.key.clone(),
            user_id: m.user_id.clone(),
            previous_state: m.lifecycle.state,
            new_state: to,
            reason: reason.to_owned(),
            actor: Actor::User,
            at: now,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{Lifecycle, MemoryKind, TtlPolicy};

    fn memory(state: MemoryState, pinned: bool) -> MemoryLifecycle {
        let now = Utc::now();
        let mut lifecycle = Lifecycle::new(0.9, TtlPolicy::Decay, now);
        lifecycle.state = state;
        lifecycle.pinned = pinned;
        MemoryLifecycle {
            kind: MemoryKind::Node,
            key: "n1".into(),
            user_id: "ann".into(),
            lifecycle,
        }
    }

    #[test]
    fn pinned_memories_refuse_state_changes() {
        let now = Utc::now();
        let m = memory(MemoryState::Active, true);
        assert!(apply(Control::Archive, &m, now).is_err());
        assert!(apply(Control::Restore, &m, now).is_err());
        assert_eq!(apply(Control::Pin, &m, now), Ok(None));
        let unpinned = apply(Control::Unpin, &m, now).unwrap().unwrap();
        assert!(!unpinned.lifecycle.pinned);
        let e = unpinned.event.unwrap();
        assert_eq!(
            (e.previous_state, e.new_state),
            (MemoryState::Active, MemoryState::Active)
        );
        assert_eq!(e.actor, Actor::User);
    }

    #[test]
    fn archive_and_restore_are_logged_and_idempotent() {
        let now = Utc::now();
        let m = memory(MemoryState::Core, false);
        let archived = apply(Control::Archive, &m, now).unwrap().unwrap();
        assert_eq!(archived.lifecycle.state, MemoryState::Archived);
        assert_eq!(archived.event.as_ref().unwrap().reason, "archived_by_user");
        let m2 = MemoryLifecycle {
            lifecycle: archived.lifecycle,
            ..m.clone()
        };
        assert_eq!(apply(Control::Archive, &m2, now), Ok(None));
        let restored = apply(Control::Restore, &m2, now).unwrap().unwrap();
        assert_eq!(restored.lifecycle.state, MemoryState::Active);
        assert_eq!(apply(Control::Restore, &m, now), Ok(None));
    }

    #[test]
    fn a_restored_memory_is_not_archived_again_by_the_next_decay() {
        let now = Utc::now();
        let mut faded = memory(MemoryState::Archived, false);
        faded.lifecycle.salience = 0.004;
        let restored = apply(Control::Restore, &faded, now).unwrap().unwrap();
        assert_eq!(restored.lifecycle.salience, Lifecycle::INITIAL_SALIENCE);
        let next_night = crate::lifecycle::decay(
            &restored.lifecycle,
            crate::lifecycle::MemoryClass::Semantic,
            now + chrono::Duration::days(1),
            &crate::lifecycle::LifecycleParams::default(),
        )
        .expect("a day of decay");
        assert_eq!(next_night.transition, None, "not archived again");
        let mut salient = memory(MemoryState::Archived, false);
        salient.lifecycle.salience = 0.9;
        let restored = apply(Control::Restore, &salient, now).unwrap().unwrap();
        assert_eq!(restored.lifecycle.salience, 0.9, "never lowered");
    }

    #[test]
    fn a_policy_change_keeps_the_state_and_decay_counts_from_it() {
        let now = Utc::now();
        let mut m = memory(MemoryState::Archived, true);
        m.lifecycle.salience = 0.3;
        let kept = apply(Control::TtlKeepForever, &m, now).unwrap().unwrap();
        assert_eq!(kept.lifecycle.ttl_policy, TtlPolicy::KeepForever);
        assert_eq!(kept.lifecycle.salience, 1.0, "held at 1 at once");
        assert_eq!(
            kept.lifecycle.state,
            MemoryState::Archived,
            "still archived"
        );
        assert!(
            kept.lifecycle.pinned,
            "a pinned memory may change its policy"
        );
        let e = kept.event.unwrap();
        assert_eq!(e.reason, "ttl_keep_forever");
        assert_eq!(
            (e.previous_state, e.new_state),
            (MemoryState::Archived, MemoryState::Archived)
        );
        let m = MemoryLifecycle {
            lifecycle: kept.lifecycle,
            ..m
        };
        assert_eq!(apply(Control::TtlKeepForever, &m, now), Ok(None));

        let later = now + chrono::Duration::days(400);
        let decaying = apply(Control::TtlDecay, &m, later).unwrap().unwrap();
        assert_eq!(
            decaying.lifecycle.last_decayed_at,
            Some(later),
            "decays from now"
        );
        let ephemeral = MemoryLifecycle {
            lifecycle: decaying.lifecycle,
            ..m
        };
        let ephemeral = apply(
            Control::TtlEphemeral,
            &ephemeral,
            later + chrono::Duration::days(1),
        )
        .unwrap()
        .unwrap();
        assert_eq!(
            ephemeral.lifecycle.last_decayed_at,
            Some(later),
            "was decaying already"
        );
        assert_eq!(ephemeral.lifecycle.ttl_policy, TtlPolicy::Ephemeral);
    }

    #[test]
    fn every_action_is_read_from_its_name() {
        for c in Control::ALL {
            assert_eq!(c.as_str().parse::<Control>(), Ok(c));
            assert_eq!(serde_json::to_value(c).unwrap(), c.as_str());
        }
        let e = "forget".parse::<Control>().unwrap_err();
        assert!(e.contains("ttl_keep_forever"), "{e}");
    }
}
