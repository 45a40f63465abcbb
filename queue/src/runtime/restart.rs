//! What a restarted worker waits for before it registers again: the database answering.

use std::time::Duration;

use crate::db::Db;

/// What a restarted worker does before it registers again: wait until the database
/// answers. A worker stops when its heartbeat or fetch fails (an outage), and the
/// `Monitor` restarts it at once; without the wait it would fail again at once, many
/// times a second, each time logging its error, until the database returns.
pub(super) fn gate<B, E>(
    db: Db,
    restarts: usize,
) -> impl Fn(&mut B) -> futures::future::BoxFuture<'static, Result<(), E>> + Send + Sync + 'static
where
    E: Send + 'static,
{
    move |_| {
        let db = db.clone();
        Box::pin(async move {
            if restarts > 0 {
                wait_for_database(&db).await;
            }
            Ok(())
        })
    }
}

/// Returns once `db` answers, trying every 0.5 s, doubling to 5 s.
async fn wait_for_database(db: &Db) {
    let mut pause = Duration::from_millis(500);
    loop {
        match db.ping().await {
            Ok(()) => return,
            Err(e) => {
                let error = format!("{e:#}");
                if let Some(repeated) =
                    cosmo_telemetry::repeats::admit("worker waits for the database", &error)
                {
                    tracing::warn!(%error, repeated,
                        "the queue's database is out of reach; workers start again once it answers");
                }
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_secs(5));
            }
        }
    }
}
