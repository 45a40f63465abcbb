//! In-process wake-up for the SQLite queue. SQLite has no notifications between
//! processes, so a worker on it polls; but in the embedded default (`cosmo serve`) the
//! API that enqueues and the workers that run share one process. An enqueue there wakes
//! the workers of that queue at once; polling remains for jobs enqueued by another
//! process, retries and delayed jobs.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};

use futures::channel::mpsc;

/// The workers listening to one queue.
type Listeners = Vec<mpsc::UnboundedSender<()>>;

/// The workers listening, by queue name.
static LISTENERS: LazyLock<Mutex<HashMap<&'static str, Listeners>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// Wakes this process's workers of `queue` (a job was just committed to it).
pub fn notify(queue: &'static str) {
    let mut listeners = LISTENERS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(senders) = listeners.get_mut(queue) {
        // A stopped worker's receiver is gone: forget it.
        senders.retain(|s| s.unbounded_send(()).is_ok());
    }
}

/// A stream that yields each time a job is enqueued to `queue` in this process.
pub fn listen(queue: &'static str) -> mpsc::UnboundedReceiver<()> {
    let (tx, rx) = mpsc::unbounded();
    LISTENERS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .entry(queue)
        .or_default()
        .push(tx);
    rx
}

#[cfg(test)]
mod tests {
    use futures::StreamExt;

    use super::*;

    #[tokio::test]
    async fn an_enqueue_wakes_every_listener_of_its_queue_only() {
        let mut a = listen("wake-test-a");
        let mut b = listen("wake-test-a");
        let mut other = listen("wake-test-b");
        notify("wake-test-a");
        assert_eq!(a.next().await, Some(()));
        assert_eq!(b.next().await, Some(()));
        assert!(other.try_recv().is_err(), "nothing for another queue");
        drop(a);
        notify("wake-test-a");
        assert_eq!(b.next().await, Some(()));
        assert_eq!(
            LISTENERS.lock().unwrap()["wake-test-a"].len(),
            1,
            "a is forgotten"
        );
    }
}
