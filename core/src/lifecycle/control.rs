//! What users do to a memory's lifecycle by hand: pin and unpin (a pinned memory never
//! changes state), archive and restore. Each change is logged with actor `user`.

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::domain::{
    Actor, Lifecycle, LifecycleChange, LifecycleEvent, MemoryLifecycle, MemoryState,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Control {
    Pin,
    Unpin,
    Archive,
    Restore,
}

impl std::str::FromStr for Control {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "pin" => Ok(Self::Pin),
            "unpin" => Ok(Self::Unpin),
            "archive" => Ok(Self::Archive),
            "restore" => Ok(Self::Restore),
            other => Err(format!(
                "unknown action {other:?}: expected pin, unpin, archive or restore"
            )),
        }
    }
}

/// Why an action is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("{0} is pinned: unpin it before changing its state")]
    Pinned(String),
}

/// The change `control` makes to `m`: `Ok(None)` when it is already so (pinning a
/// pinned memory, restoring an active one), `Err` when it may not happen.
pub fn apply(
    control: Control,
    m: &MemoryLifecycle,
    now: DateTime<Utc>,
) -> Result<Option<LifecycleChange>, Refusal> {
    let l = &m.lifecycle;
    let mut next = l.clone();
    let (to, reason) = match control {
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
    Ok(Some(LifecycleChange {
        kind: m.kind,
        key: m.key.clone(),
        lifecycle: next,
        event: Some(LifecycleEvent {
            memory_kind: m.kind,
            memory_key: m.key.clone(),
            user_id: m.user_id.clone(),
            previous_state: l.state,
            new_state: to,
            reason: reason.to_owned(),
            actor: Actor::User,
            at: now,
        }),
    }))
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
}
