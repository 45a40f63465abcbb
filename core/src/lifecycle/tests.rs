use chrono::{DateTime, Duration, Utc};
use proptest::prelude::*;

use super::*;

fn t0() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-01-01T00:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

fn memory(state: MemoryState, confidence: f64, recall_frequency: i64, gradient: f64) -> Lifecycle {
    Lifecycle {
        state,
        recall_frequency,
        decay_gradient: gradient,
        ..Lifecycle::new(confidence, TtlPolicy::Decay, t0())
    }
}

fn after_days(l: &Lifecycle, d: f64) -> f64 {
    let now = t0() + Duration::seconds((d * 86_400.0) as i64);
    decay(l, MemoryClass::Semantic, now, &LifecycleParams::default())
        .map_or(l.salience, |x| x.lifecycle.salience)
}

// ---- worked examples: decay, TTL policies, access and the state machine ----

#[test]
fn half_life_is_about_35_days_at_recall_frequency_zero() {
    let l = memory(MemoryState::Active, 0.4, 0, 1.0);
    let ratio = after_days(&l, 35.0) / l.salience;
    assert!((ratio - 0.5).abs() < 0.01, "{ratio}");
    assert!((after_days(&l, 70.0) / l.salience - 0.25).abs() < 0.01);
}

#[test]
fn a_half_confident_candidate_halves_in_about_17_days() {
    let l = memory(MemoryState::Candidate, 0.5, 0, 1.0);
    assert!((decay_rate(&l, &LifecycleParams::default()) - 0.04).abs() < 1e-12);
    let ratio = after_days(&l, 17.0) / l.salience;
    assert!((ratio - 0.5).abs() < 0.02, "{ratio}");
}

#[test]
fn a_confident_candidate_does_not_decay_until_accessed() {
    let l = memory(MemoryState::Candidate, 0.85, 0, 1.0);
    assert_eq!(decay_rate(&l, &LifecycleParams::default()), 0.0);
    assert!(
        decay(
            &l,
            MemoryClass::Semantic,
            t0() + Duration::days(400),
            &LifecycleParams::default()
        )
        .is_none_or(|d| d.lifecycle.salience == l.salience)
    );
    let accessed = on_access(&l, t0() + Duration::days(1), &LifecycleParams::default()).lifecycle;
    assert!(
        decay_rate(&accessed, &LifecycleParams::default()) > 0.0,
        "after its first access it decays"
    );
}

#[test]
fn frequent_recall_makes_memories_resistant() {
    let l = memory(MemoryState::Active, 0.9, 5, 1.5);
    let ratio = after_days(&l, 35.0) / l.salience;
    assert!((ratio - 0.95).abs() < 0.01, "{ratio}");
}

#[test]
fn low_salience_archives() {
    let mut l = memory(MemoryState::Active, 0.9, 0, 1.0);
    l.salience = 0.011;
    let d = decay(
        &l,
        MemoryClass::Semantic,
        t0() + Duration::days(10),
        &LifecycleParams::default(),
    )
    .unwrap();
    assert_eq!(
        d.transition,
        Some(Transition {
            from: MemoryState::Active,
            to: MemoryState::Archived,
            reason: Reason::Decayed
        })
    );
}

#[test]
fn a_memory_kept_forever_starts_fully_salient_and_decay_leaves_it() {
    let kept = Lifecycle::new(0.7, TtlPolicy::KeepForever, t0());
    assert_eq!(kept.salience, 1.0);
    let later = t0() + Duration::days(400);
    let p = LifecycleParams::default();
    assert_eq!(decay(&kept, MemoryClass::Episodic, later, &p), None);
    let decaying = Lifecycle::new(0.7, TtlPolicy::Decay, t0());
    assert_eq!(decaying.salience, Lifecycle::INITIAL_SALIENCE);
}

#[test]
fn ttl_policies_take_precedence() {
    let p = LifecycleParams::default();
    let mut forever = memory(MemoryState::Active, 0.9, 0, 1.0);
    forever.ttl_policy = TtlPolicy::KeepForever;
    let d = decay(
        &forever,
        MemoryClass::Semantic,
        t0() + Duration::days(3000),
        &p,
    )
    .unwrap();
    assert_eq!(
        (d.lifecycle.salience, d.lifecycle.state),
        (1.0, MemoryState::Active),
        "held at 1.0, never archived"
    );
    assert!(
        decay(
            &d.lifecycle,
            MemoryClass::Semantic,
            t0() + Duration::days(4000),
            &p
        )
        .is_none()
    );

    let mut ephemeral = memory(MemoryState::Core, 0.9, 50, 3.0);
    ephemeral.salience = 1.0;
    ephemeral.ttl_policy = TtlPolicy::Ephemeral;
    let before = decay(
        &ephemeral,
        MemoryClass::Episodic,
        t0() + Duration::days(29),
        &p,
    )
    .unwrap();
    assert_eq!(before.lifecycle.state, MemoryState::Core);
    let at = decay(
        &ephemeral,
        MemoryClass::Episodic,
        t0() + Duration::days(30),
        &p,
    )
    .unwrap();
    assert_eq!(
        at.transition.map(|t| t.reason),
        Some(Reason::TtlExpired),
        "archived at the deadline despite high salience"
    );
    let semantic = decay(
        &ephemeral,
        MemoryClass::Semantic,
        t0() + Duration::days(30),
        &p,
    )
    .unwrap();
    assert_eq!(
        semantic.lifecycle.state,
        MemoryState::Core,
        "semantic memories live 90 days"
    );
    assert!(
        decay(
            &ephemeral,
            MemoryClass::Semantic,
            t0() + Duration::days(90),
            &p
        )
        .unwrap()
        .transition
        .is_some()
    );
}

#[test]
fn access_moves_memories_up_but_never_out_of_the_archive() {
    let p = LifecycleParams::default();
    let mut l = memory(MemoryState::Candidate, 0.6, 0, 1.0);
    let mut now = t0();
    let first = on_access(&l, now, &p);
    assert_eq!(first.transition.map(|t| t.to), Some(MemoryState::Active));
    assert!((first.lifecycle.salience - 0.575).abs() < 1e-12);
    l = first.lifecycle;
    for i in 2..=10 {
        now += Duration::days(i);
        let d = on_access(&l, now, &p);
        if i == 10 {
            assert_eq!(d.transition.map(|t| t.to), Some(MemoryState::Core));
        }
        l = d.lifecycle;
    }
    assert_eq!(
        (l.access_count, l.recall_frequency, l.salience),
        (10, 10, 1.0)
    );
    assert!(
        l.decay_gradient > 1.0,
        "growing intervals slow forgetting: {}",
        l.decay_gradient
    );
    l.state = MemoryState::Archived;
    l.salience = 0.005;
    let read = on_access(&l, now + Duration::days(30), &p);
    assert_eq!(
        (read.lifecycle.state, read.transition),
        (MemoryState::Archived, None),
        "reading an archived memory does not restore it"
    );
    assert_eq!(
        read.lifecycle.access_count, 11,
        "but it was recalled: counted…"
    );
    assert!(
        (read.lifecycle.salience - 0.08).abs() < 1e-12,
        "…and boosted: {}",
        read.lifecycle.salience
    );
}

#[test]
fn shrinking_intervals_speed_forgetting_up() {
    let p = LifecycleParams::default();
    let mut l = memory(MemoryState::Active, 0.9, 0, 1.0);
    l = on_access(&l, t0(), &p).lifecycle;
    l = on_access(&l, t0() + Duration::days(10), &p).lifecycle;
    let g = l.decay_gradient;
    l = on_access(&l, t0() + Duration::days(11), &p).lifecycle;
    assert!((l.decay_gradient - (g - 0.05)).abs() < 1e-12);
}

#[test]
fn the_state_machine() {
    use MemoryState::*;
    for (from, to) in [
        (Candidate, Active),
        (Active, Core),
        (Candidate, Archived),
        (Core, Archived),
        (Archived, Active),
    ] {
        assert!(is_valid_transition(from, to));
    }
    for (from, to) in [
        (Core, Candidate),
        (Archived, Core),
        (Active, Candidate),
        (Candidate, Core),
    ] {
        assert!(!is_valid_transition(from, to));
    }
    assert!(
        LifecycleParams {
            access_boost: 0.2,
            ..Default::default()
        }
        .validate()
        .is_err()
    );
    assert!(LifecycleParams::default().validate().is_ok());
}

// ---- properties that hold for any memory and any elapsed time ----

fn any_state() -> impl Strategy<Value = MemoryState> {
    prop_oneof![
        Just(MemoryState::Candidate),
        Just(MemoryState::Active),
        Just(MemoryState::Core),
        Just(MemoryState::Archived)
    ]
}

fn any_ttl() -> impl Strategy<Value = TtlPolicy> {
    prop_oneof![
        Just(TtlPolicy::Decay),
        Just(TtlPolicy::Ephemeral),
        Just(TtlPolicy::KeepForever)
    ]
}

prop_compose! {
    fn any_memory()(
        state in any_state(),
        ttl in any_ttl(),
        salience in 0.0f64..=1.0,
        confidence in 0.0f64..=1.0,
        recall in 0i64..50,
        gradient in 0.1f64..4.0,
        accessed_days in proptest::option::of(0i64..200),
        pinned in proptest::bool::weighted(0.2),
    ) -> Lifecycle {
        Lifecycle {
            salience,
            state,
            recall_frequency: recall,
            access_count: recall,
            decay_gradient: gradient,
            last_accessed_at: accessed_days.map(|d| t0() + Duration::days(d)),
            pinned,
            ..Lifecycle::new(confidence, ttl, t0())
        }
    }
}

fn class() -> impl Strategy<Value = MemoryClass> {
    prop_oneof![Just(MemoryClass::Episodic), Just(MemoryClass::Semantic)]
}

proptest! {
    #[test]
    fn salience_stays_between_zero_and_one(l in any_memory(), c in class(), d in 0i64..5000) {
        let p = LifecycleParams::default();
        let now = t0() + Duration::days(d);
        if let Some(x) = decay(&l, c, now, &p) {
            prop_assert!((0.0..=1.0).contains(&x.lifecycle.salience));
        }
        let a = on_access(&l, now, &p).lifecycle;
        prop_assert!((0.0..=1.0).contains(&a.salience));
    }

    #[test]
    fn decay_is_deterministic_and_idempotent(l in any_memory(), c in class(), d in 0i64..5000) {
        let p = LifecycleParams::default();
        let now = t0() + Duration::days(d);
        let once = decay(&l, c, now, &p);
        prop_assert_eq!(&once, &decay(&l, c, now, &p));
        if let Some(x) = once {
            prop_assert!(decay(&x.lifecycle, c, now, &p).is_none(), "a second run at the same time changes nothing");
        }
    }

    #[test]
    fn decay_never_compounds(mut l in any_memory(), c in class(), a in 0i64..400, b in 0i64..400, hours in 0i64..24) {
        // No archiving here (no threshold, no ephemeral deadline): archiving a candidate
        // changes its rate, which is intended.
        if l.ttl_policy == TtlPolicy::Ephemeral {
            l.ttl_policy = TtlPolicy::Decay;
        }
        let p = LifecycleParams { archive_below: 0.0, ..Default::default() };
        let mid = t0() + Duration::days(200 + a) + Duration::hours(hours);
        let end = mid + Duration::days(b);
        let step = |x: &Lifecycle, t| decay(x, c, t, &p).map_or_else(|| x.clone(), |d| d.lifecycle);
        let in_two = step(&step(&l, mid), end);
        let in_one = step(&l, end);
        prop_assert!((in_two.salience - in_one.salience).abs() <= 1e-9 * in_one.salience.max(1e-12),
            "{} vs {}", in_two.salience, in_one.salience);
        prop_assert_eq!(in_two.state, in_one.state);
    }

    #[test]
    fn later_evaluations_never_raise_salience(l in any_memory(), c in class(), a in 0i64..3000, b in 0i64..3000) {
        let p = LifecycleParams::default();
        let at = |d: i64| decay(&l, c, t0() + Duration::days(d), &p).map_or(l.salience, |x| x.lifecycle.salience);
        let (early, late) = (a.min(b), a.max(b));
        if l.ttl_policy != TtlPolicy::KeepForever {
            prop_assert!(at(late) <= at(early) + 1e-15);
        }
    }

    #[test]
    fn pinned_memories_never_change_state(mut l in any_memory(), c in class(), d in 0i64..5000) {
        l.pinned = true;
        let p = LifecycleParams::default();
        let now = t0() + Duration::days(d);
        prop_assert!(decay(&l, c, now, &p).is_none());
        let a = on_access(&l, now, &p);
        prop_assert_eq!(a.lifecycle.state, l.state);
        prop_assert!(a.transition.is_none());
    }

    #[test]
    fn every_transition_is_valid(l in any_memory(), c in class(), d in 0i64..5000) {
        let p = LifecycleParams::default();
        let now = t0() + Duration::days(d);
        for t in [decay(&l, c, now, &p).and_then(|x| x.transition), on_access(&l, now, &p).transition].into_iter().flatten() {
            prop_assert!(is_valid_transition(t.from, t.to), "{t:?}");
        }
    }

    #[test]
    fn keep_forever_is_never_archived(mut l in any_memory(), c in class(), d in 0i64..5000) {
        l.ttl_policy = TtlPolicy::KeepForever;
        l.pinned = false;
        let x = decay(&l, c, t0() + Duration::days(d), &LifecycleParams::default());
        prop_assert!(x.is_none_or(|x| x.lifecycle.salience == 1.0 && x.transition.is_none()));
    }

    #[test]
    fn access_never_restores_an_archived_memory(mut l in any_memory(), d in 0i64..5000) {
        l.state = MemoryState::Archived;
        let a = on_access(&l, t0() + Duration::days(d), &LifecycleParams::default());
        prop_assert_eq!(a.lifecycle.state, MemoryState::Archived);
        prop_assert!(a.transition.is_none());
        prop_assert_eq!(a.lifecycle.access_count, l.access_count + 1);
    }

    #[test]
    fn access_never_lowers_salience(l in any_memory(), d in 0i64..5000) {
        let a = on_access(&l, t0() + Duration::days(d), &LifecycleParams::default());
        prop_assert!(a.lifecycle.salience >= l.salience);
        prop_assert_eq!(a.lifecycle.access_count, l.access_count + 1);
    }
}
