//! Directory answers verified a moment ago. Every API request looks its key up, and most
//! look a user up: kept for [`FRESH`], they cost the database nothing on a busy
//! service, and a revoked key stops working within those seconds in every process
//! (at once in the process that revoked it).
//!
//! When the database is out of reach, a caller that only reads may be answered from a
//! lookup verified within [`THROUGH_OUTAGE`], so reads of a healthy graph keep working
//! through a directory outage. A write never is: a key revoked just before the outage
//! must not change anything.

use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a verified answer is used without asking the database again.
pub const FRESH: Duration = Duration::from_secs(5);

/// How old a verified answer a read may use while the database is out of reach.
pub const THROUGH_OUTAGE: Duration = Duration::from_secs(600);

/// Answers remembered at most; past that the oldest half is forgotten.
const CAPACITY: usize = 10_000;

/// Whether a lookup may be answered from an older verified one during an outage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Use {
    /// Writes, and anything that must see the directory as it is.
    Verified,
    /// A read: an answer verified within [`THROUGH_OUTAGE`] will do during an outage.
    ReadThroughOutage,
}

/// Positive answers by key, with when they were verified. Negative answers are never
/// kept: a key or user created a moment ago is found at once.
#[derive(Debug)]
pub struct Recent<K, V> {
    answers: Mutex<HashMap<K, (V, Instant)>>,
    fresh: Duration,
    through_outage: Duration,
}

impl<K, V> Default for Recent<K, V> {
    fn default() -> Self {
        Self::new(FRESH, THROUGH_OUTAGE)
    }
}

impl<K, V> Recent<K, V> {
    fn new(fresh: Duration, through_outage: Duration) -> Self {
        Self {
            answers: Mutex::new(HashMap::new()),
            fresh,
            through_outage,
        }
    }
}

impl<K: Eq + Hash + Clone, V: Clone> Recent<K, V> {
    fn get(&self, key: &K, within: Duration) -> Option<V> {
        let answers = self.lock();
        let (value, at) = answers.get(key)?;
        (at.elapsed() < within).then(|| value.clone())
    }

    fn put(&self, key: K, value: V) {
        let mut answers = self.lock();
        if answers.len() >= CAPACITY && !answers.contains_key(&key) {
            let mut ages: Vec<Instant> = answers.values().map(|(_, at)| *at).collect();
            ages.sort_unstable();
            let cut = ages[ages.len() / 2];
            answers.retain(|_, (_, at)| *at > cut);
        }
        answers.insert(key, (value, Instant::now()));
    }

    fn remove(&self, key: &K) {
        self.lock().remove(key);
    }

    /// Forgets everything (a revocation or an erasure in this process).
    pub fn clear(&self) {
        self.lock().clear();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<K, (V, Instant)>> {
        self.answers
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// `lookup`'s answer, or a fresh verified one; with [`Use::ReadThroughOutage`], an
    /// older one when `lookup` fails because the database is out of reach.
    pub async fn answer<F>(&self, key: K, use_: Use, lookup: F) -> anyhow::Result<Option<V>>
    where
        F: Future<Output = anyhow::Result<Option<V>>>,
    {
        if let Some(v) = self.get(&key, self.fresh) {
            return Ok(Some(v));
        }
        match lookup.await {
            Ok(Some(v)) => {
                self.put(key, v.clone());
                Ok(Some(v))
            }
            Ok(None) => {
                self.remove(&key);
                Ok(None)
            }
            Err(e) if use_ == Use::ReadThroughOutage && crate::db::is_outage(&e) => {
                match self.get(&key, self.through_outage) {
                    Some(v) => {
                        let error = format!("{e:#}");
                        if let Some(repeated) = crate::telemetry::repeats::admit(
                            "directory read through outage",
                            &error,
                        ) {
                            tracing::warn!(%error, repeated,
                                "the directory is out of reach; a read uses a lookup verified earlier");
                        }
                        Ok(Some(v))
                    }
                    None => Err(e),
                }
            }
            Err(e) => Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outage() -> anyhow::Error {
        anyhow::Error::new(sqlx::Error::PoolTimedOut).context("reading the directory")
    }

    #[tokio::test]
    async fn a_fresh_answer_spares_the_lookup_and_a_negative_one_is_not_kept() {
        let recent: Recent<String, u32> = Recent::default();
        let got = recent
            .answer("k".into(), Use::Verified, async { Ok(Some(7)) })
            .await
            .unwrap();
        assert_eq!(got, Some(7));
        let got = recent
            .answer("k".into(), Use::Verified, async { panic!("not asked") })
            .await
            .unwrap();
        assert_eq!(got, Some(7));
        let none = recent
            .answer("other".into(), Use::Verified, async { Ok(None) })
            .await
            .unwrap();
        assert_eq!(none, None);
        let later = recent
            .answer("other".into(), Use::Verified, async { Ok(Some(1)) })
            .await
            .unwrap();
        assert_eq!(later, Some(1), "a negative answer was not remembered");
    }

    #[tokio::test]
    async fn only_reads_are_answered_from_older_lookups_during_an_outage() {
        let recent: Recent<String, u32> =
            Recent::new(Duration::from_millis(50), Duration::from_millis(400));
        recent.put("k".into(), 7);
        // No longer fresh: the database is asked, and it is out of reach.
        tokio::time::sleep(Duration::from_millis(100)).await;
        let read = recent
            .answer("k".into(), Use::ReadThroughOutage, async { Err(outage()) })
            .await
            .unwrap();
        assert_eq!(read, Some(7));
        let write = recent
            .answer("k".into(), Use::Verified, async { Err(outage()) })
            .await;
        assert!(write.is_err(), "a write needs the directory");
        let bug = recent
            .answer("k".into(), Use::ReadThroughOutage, async {
                Err(anyhow::anyhow!("no such table"))
            })
            .await;
        assert!(bug.is_err(), "only an outage is answered from memory");
        tokio::time::sleep(Duration::from_millis(400)).await;
        let too_old = recent
            .answer("k".into(), Use::ReadThroughOutage, async { Err(outage()) })
            .await;
        assert!(too_old.is_err(), "verified too long ago");
    }

    #[tokio::test]
    async fn memory_stays_bounded() {
        let recent: Recent<u32, u32> = Recent::default();
        for i in 0..(CAPACITY as u32 * 3) {
            recent.put(i, i);
        }
        assert!(recent.lock().len() <= CAPACITY);
    }
}
