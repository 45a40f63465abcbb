//! Decay against its definition, `lifecycle::decay`, for lifecycles of every shape: every
//! state and policy, pinned or not, accessed or decayed before or after the decay time;
//! salience, confidence, recall frequency and decay gradient also outside their usual
//! ranges. The stores decay a page in set-based statements that do the arithmetic
//! themselves; this is what holds them to the pure function.

use chrono::{DateTime, Duration, Utc};
use cosmo_shared::domain::{
    Lifecycle, LifecycleChange, MemoryKind, MemoryLifecycle, MemoryState, TtlPolicy,
};
use cosmo_shared::graph::{GraphStore, to_stored_precision};
use cosmo_shared::lifecycle::{self, LifecycleParams, MemoryClass};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::super::support::*;

/// How many memories the contract case decays (the SQLite store's own test: 1,500).
const MEMORIES: usize = 300;

/// Decayed in pages of this many (not a divisor of the counts, so pages end mid-way).
const PAGE: usize = 37;

/// The time by which a memory `kind` created at `created` is due under the default
/// `ephemeral` deadline.
fn deadline(kind: MemoryKind, created: DateTime<Utc>) -> DateTime<Utc> {
    let p = LifecycleParams::default();
    created
        + Duration::days(match kind.class() {
            MemoryClass::Episodic => p.ephemeral_episodic_days,
            MemoryClass::Semantic => p.ephemeral_semantic_days,
        })
}

/// When the memory that is due exactly at a decay time was created: its default
/// `ephemeral` deadline is `t0 + 90 days`, one of [`runs`]' times.
pub fn due_memory_created(kind: MemoryKind) -> DateTime<Utc> {
    let at = t0() + days(90);
    at - (deadline(kind, at) - at)
}

/// Random lifecycles for `seeded` (their keys and creation times kept), as one bulk
/// write. The memory `due` gets an `ephemeral` lifecycle that no access or decay time
/// keeps from its deadline.
pub fn random_lifecycles(seeded: &[MemoryLifecycle], due: &str, seed: u64) -> Vec<LifecycleChange> {
    let mut rng = StdRng::seed_from_u64(seed);
    let time = |rng: &mut StdRng| {
        t0() + Duration::microseconds(
            rng.random_range(-200_i64..200) * 86_400_000_000 + rng.random_range(0..86_400_000_000),
        )
    };
    seeded
        .iter()
        .map(|m| {
            let salience = match rng.random_range(0..12) {
                0 => 1.0,
                1 => 0.0,
                2 => rng.random_range(0.0..0.02),
                3 => rng.random_range(-0.2..0.0),
                4 => rng.random_range(1.0..1.5),
                _ => rng.random_range(0.0..1.0),
            };
            let mut lifecycle = Lifecycle {
                salience,
                state: [
                    MemoryState::Candidate,
                    MemoryState::Active,
                    MemoryState::Core,
                    MemoryState::Archived,
                ][rng.random_range(0..4)],
                confidence: match rng.random_range(0..10) {
                    0 => 0.8,
                    1 => rng.random_range(-0.3..1.3),
                    _ => rng.random_range(0.0..1.0),
                },
                access_count: rng.random_range(0..20),
                recall_frequency: rng.random_range(-2..20),
                last_recall_interval: rng.random_range(0.0..30.0),
                decay_gradient: match rng.random_range(0..10) {
                    0 => 0.0,
                    1 => rng.random_range(-1.0..0.0),
                    _ => rng.random_range(0.1..3.0),
                },
                last_accessed_at: rng.random_bool(0.5).then(|| time(&mut rng)),
                last_decayed_at: rng.random_bool(0.5).then(|| time(&mut rng)),
                ttl_policy: [
                    TtlPolicy::Decay,
                    TtlPolicy::Ephemeral,
                    TtlPolicy::KeepForever,
                ][rng.random_range(0..3)],
                pinned: rng.random_bool(0.1),
                created_at: m.lifecycle.created_at,
                updated_at: time(&mut rng),
            };
            if m.key == due {
                lifecycle.ttl_policy = TtlPolicy::Ephemeral;
                lifecycle.state = MemoryState::Active;
                lifecycle.pinned = false;
                lifecycle.salience = 0.9;
                lifecycle.last_decayed_at = Some(t0() + days(90));
                lifecycle.last_accessed_at = None;
            }
            LifecycleChange {
                kind: m.kind,
                key: m.key.clone(),
                lifecycle,
                event: None,
            }
        })
        .collect()
}

/// Asserts a stored lifecycle is the one `lifecycle::decay` decided: every field equal,
/// the salience within `tolerance` of it (relative; 0: the same double).
pub fn assert_decayed(now: &Lifecycle, want: &Lifecycle, tolerance: f64, what: &str) {
    let close = now.salience == want.salience
        || (now.salience - want.salience).abs() <= tolerance * want.salience.abs().max(1e-300);
    assert!(
        close,
        "{what}: salience {} where lifecycle::decay gives {}",
        now.salience, want.salience
    );
    assert_eq!(
        Lifecycle {
            salience: want.salience,
            ..now.clone()
        },
        *want,
        "{what}: stored as lifecycle::decay decides"
    );
}

/// Every memory of `kind`, in key order.
pub async fn all_of(g: &dyn GraphStore, kind: MemoryKind) -> Vec<MemoryLifecycle> {
    g.lifecycle_page(kind, None, 100_000).await.unwrap()
}

/// Decays every memory of `kind` at six times, with the default parameters and with
/// others, in pages of `page`, and checks after each run that every memory ends where
/// `lifecycle::decay` says (salience within `tolerance`), with an event for each memory
/// archived, the counts the pages report, and `due` archived at its deadline exactly. The
/// last time is half a microsecond after the one before: the same time as stored, so
/// nothing changes.
pub async fn decay_matches_the_pure_function(
    g: &dyn GraphStore,
    kind: MemoryKind,
    due: &str,
    page: usize,
    tolerance: f64,
) {
    let other = LifecycleParams {
        base_rate: 0.05,
        archive_below: 0.0,
        confident_candidate: 0.6,
        ephemeral_semantic_days: 30,
        ephemeral_episodic_days: 10,
        ..LifecycleParams::default()
    };
    let runs = [
        (t0(), LifecycleParams::default()),
        (t0() + days(10), other),
        (t0() + days(90), LifecycleParams::default()),
        (t0() + days(100), other),
        (t0() + days(1000), LifecycleParams::default()),
        (
            t0() + days(1000) + Duration::nanoseconds(500),
            LifecycleParams::default(),
        ),
    ];
    let mut before = all_of(g, kind).await;
    let mut events: usize = 0;
    for (run, (at, params)) in runs.into_iter().enumerate() {
        let (mut changed, mut archived) = (0, 0);
        let mut after: Option<String> = None;
        loop {
            let p = g
                .decay_page(kind, after.as_deref(), page, at, &params)
                .await
                .unwrap();
            (changed, archived) = (changed + p.changed, archived + p.archived);
            if p.examined < page {
                break;
            }
            after = p.last_key;
        }
        let now = all_of(g, kind).await;
        assert_eq!(
            now.len(),
            before.len(),
            "{kind}: every memory is still there"
        );
        let (mut want_changed, mut want_archived) = (0, 0);
        let stored_at = to_stored_precision(at);
        let mut logged = 0;
        for (old, new) in before.iter().zip(&now) {
            assert_eq!(old.key, new.key);
            let want = lifecycle::decay_change(old, stored_at, &params);
            assert_decayed(
                &new.lifecycle,
                want.as_ref().map_or(&old.lifecycle, |c| &c.lifecycle),
                tolerance,
                &format!("{kind} {} at {at}: from {:?}", old.key, old.lifecycle),
            );
            let history = g.lifecycle_events(&old.key).await.unwrap();
            logged += history.len();
            if let Some(event) = want.as_ref().and_then(|c| c.event.clone()) {
                assert_eq!(history.last(), Some(&event), "{}: its event", old.key);
                want_archived += 1;
            }
            want_changed += usize::from(want.is_some());
        }
        assert_eq!(
            (changed, archived),
            (want_changed, want_archived),
            "{kind}: the counts at {at}"
        );
        assert_eq!(
            logged - events,
            want_archived,
            "{kind}: an event for each memory archived at {at}, and no other"
        );
        events = logged;
        if run + 1 == runs.len() {
            assert_eq!(
                want_changed, 0,
                "the same stored time again changes nothing"
            );
        } else {
            assert!(want_changed > 0, "{kind}: something decays at {at}");
        }
        if at == t0() + days(90) {
            let due = now.iter().find(|m| m.key == due).unwrap();
            assert_eq!(
                due.lifecycle.state,
                MemoryState::Archived,
                "{kind}: archived at its deadline exactly"
            );
        }
        before = now;
    }
}

/// The contract case: Sources with random lifecycles (created over 200 days, one of them
/// due exactly at a decay time) decay as `lifecycle::decay` says.
pub async fn decay_pages_equal_the_pure_function_for_any_lifecycle(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    let mut due = String::new();
    for i in 0..MEMORIES {
        let user = [&u.alice, &u.bob, &u.carol][i % 3];
        let mut new = source(user, &format!("note {i}"), t0());
        new.lifecycle.created_at = if i == 0 {
            due_memory_created(MemoryKind::Source)
        } else {
            t0() - days((i as i64 * 7919) % 200) - Duration::microseconds(i as i64)
        };
        g.create_source(&new).await.unwrap();
        if i == 0 {
            due = new.entity_key.clone();
        }
    }
    let seeded = all_of(g, MemoryKind::Source).await;
    assert_eq!(seeded.len(), MEMORIES);
    let random = random_lifecycles(&seeded, &due, 20261129);
    g.apply_lifecycle(&random).await.unwrap();
    for (m, c) in all_of(g, MemoryKind::Source).await.iter().zip(&random) {
        assert_eq!(
            m.lifecycle, c.lifecycle,
            "{}: written by the bulk write",
            m.key
        );
    }
    decay_matches_the_pure_function(g, MemoryKind::Source, &due, PAGE, store.decay_tolerance())
        .await;
}

/// Decay and accesses at once: one walks a user's Sources in pages of 7 while the other
/// records an access of every Source, 5 at a time from the last key back. Each memory
/// ends as one of the two orders leaves it (decayed then accessed, or accessed then
/// decayed): no access and no decay is lost to the other's write.
pub async fn accesses_during_decay_are_not_lost(store: &Store) {
    let (g, u) = (store.graph(), store.users());
    for i in 0..60 {
        let new = source(&u.alice, &format!("visit {i}"), t0() - days(i));
        g.create_source(&new).await.unwrap();
    }
    let before = all_of(g, MemoryKind::Source).await;
    let params = LifecycleParams::default();
    let (accessed_at, decayed_at) = (t0() + days(5), t0() + days(10));
    let decaying = async {
        let mut after: Option<String> = None;
        loop {
            let page = g
                .decay_page(MemoryKind::Source, after.as_deref(), 7, decayed_at, &params)
                .await
                .unwrap();
            if page.examined < 7 {
                break;
            }
            after = page.last_key;
        }
    };
    let access = |m: &MemoryLifecycle| {
        Some(LifecycleChange {
            kind: m.kind,
            key: m.key.clone(),
            lifecycle: lifecycle::on_access(&m.lifecycle, accessed_at, &params).lifecycle,
            event: None,
        })
    };
    let accessing = async {
        let keys: Vec<String> = before.iter().rev().map(|m| m.key.clone()).collect();
        for chunk in keys.chunks(5) {
            g.update_lifecycles(MemoryKind::Source, chunk, &access)
                .await
                .unwrap();
        }
    };
    tokio::join!(decaying, accessing);

    let decay = |l: &Lifecycle| {
        lifecycle::decay(l, MemoryClass::Episodic, decayed_at, &params)
            .map_or_else(|| l.clone(), |d| d.lifecycle)
    };
    let accessed = |l: &Lifecycle| lifecycle::on_access(l, accessed_at, &params).lifecycle;
    let now = all_of(g, MemoryKind::Source).await;
    assert_eq!(now.len(), before.len());
    for (old, new) in before.iter().zip(&now) {
        let (decay_first, access_first) = (
            accessed(&decay(&old.lifecycle)),
            decay(&accessed(&old.lifecycle)),
        );
        assert_ne!(decay_first, access_first, "{}: the orders differ", old.key);
        let near = |want: &Lifecycle| {
            Lifecycle {
                salience: want.salience,
                ..new.lifecycle.clone()
            } == *want
                && (new.lifecycle.salience - want.salience).abs()
                    <= store.decay_tolerance() * want.salience.abs().max(1e-300)
        };
        assert!(
            near(&decay_first) || near(&access_first),
            "{}: {:?} is neither order's result ({:?} or {:?})",
            old.key,
            new.lifecycle,
            decay_first,
            access_first
        );
    }
}
