//! Run leases: at most one run of a job at a time across the fleet.
//!
//! apalis decides that a worker is dead when its heartbeat is older than the orphan
//! window, and hands its jobs to another worker. After a database outage longer than
//! that window every worker looks dead, and the first heartbeat back hands live
//! workers' running jobs out again. A lease, taken by the run itself in the queue's
//! database, says who is really running a job:
//!
//! * a run takes the job's lease before it starts and refreshes it every heartbeat
//!   while it runs (a refresh that fails during an outage is tried again next beat);
//! * a second run of the same job finds the lease held and waits, without running;
//! * a lease not refreshed for the orphan window is *silent*. Silence measured across
//!   an outage proves nothing, so the waiting run marks the moment it found the lease
//!   silent, while the database answers, and takes the lease over only if the holder
//!   has not refreshed it for `grace` after that mark;
//! * the holder that finishes marks the lease finished (trying again until the
//!   database answers); a waiting run that finds it finished ends the job without
//!   running it again: the work is written. A failed run drops its lease, so the
//!   next attempt starts afresh.
//!
//! Times are the database's clock (milliseconds since the epoch), so hosts whose
//! clocks differ agree on silence.

use std::time::Duration;

use crate::config::QueueConfig;
use crate::db::Db;
use cosmo_core::query_file;

/// `CREATE TABLE` of the leases, the same on both databases.
pub(crate) const SCHEMA: &str = query_file!("lease/create_table.sql");

/// Deletes a job's lease, whoever holds it, the same on both databases.
pub(crate) const DELETE_JOB_LEASE: &str = query_file!("lease/delete_job_lease.sql");

// The statements that read the database's clock in milliseconds have one file per
// dialect: `CAST(unixepoch('subsec') * 1000 AS INTEGER)` on SQLite,
// `CAST(extract(epoch FROM clock_timestamp()) * 1000 AS BIGINT)` on PostgreSQL.

/// What a run may do with a job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// The lease is this run's: run the job.
    Run,
    /// Another run holds it and may be alive: wait, then claim again.
    Wait,
    /// Another run finished the job: end it without running.
    Finished,
}

/// A lease as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Held {
    pub refreshed_ms: i64,
    pub takeover_ms: Option<i64>,
    pub finished_ms: Option<i64>,
}

/// What to do with a lease someone else holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Decision {
    Take,
    Wait,
    /// Wait, marking now as the moment the lease was found silent.
    MarkSilent,
    Finished,
}

/// The rule, apart from storage: `silent_after` is the orphan window, `grace` how long
/// a marked lease may stay unrefreshed before it is taken over.
pub(crate) fn decide(held: Held, now_ms: i64, silent_after: Duration, grace: Duration) -> Decision {
    if held.finished_ms.is_some() {
        return Decision::Finished;
    }
    if now_ms - held.refreshed_ms < silent_after.as_millis() as i64 {
        return Decision::Wait;
    }
    match held.takeover_ms {
        // Refreshed since the mark: the holder lives; silence is measured anew.
        Some(mark) if held.refreshed_ms < mark => {
            if now_ms - mark >= grace.as_millis() as i64 {
                Decision::Take
            } else {
                Decision::Wait
            }
        }
        _ => Decision::MarkSilent,
    }
}

/// The leases of one queue database.
#[derive(Debug, Clone)]
pub struct Leases {
    db: Db,
    silent_after: Duration,
    grace: Duration,
}

impl Leases {
    /// `silent_after`: the orphan window (heartbeat × missed heartbeats); `grace`: how
    /// long a lease found silent waits for its holder (at least two refreshes).
    pub fn new(db: Db, silent_after: Duration, grace: Duration) -> Self {
        Self {
            db,
            silent_after,
            grace,
        }
    }

    /// Leases as the queue's heartbeat settings imply: silent after the orphan window
    /// (`heartbeat_secs × missed_heartbeats`), taken over after two more heartbeats of
    /// silence since a waiting run found them silent (a live holder refreshes within
    /// one heartbeat of the database's return).
    pub fn for_queue(db: Db, queue: &QueueConfig) -> Self {
        let beat = Duration::from_secs(queue.heartbeat_secs);
        Self::new(db, beat * queue.missed_heartbeats as u32, beat * 2)
    }

    /// Tries to take `job_id`'s lease for `holder`.
    pub async fn claim(&self, job_id: &str, holder: &str) -> sqlx::Result<Claim> {
        macro_rules! claim {
            ($tx:expr, $insert:expr, $select:expr) => {{
                let mut tx = $tx;
                let inserted = sqlx::query($insert)
                    .bind(job_id)
                    .bind(holder)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
                if inserted == 1 {
                    tx.commit().await?;
                    return Ok(Claim::Run);
                }
                let (refreshed_ms, takeover_ms, finished_ms, now): (
                    i64,
                    Option<i64>,
                    Option<i64>,
                    i64,
                ) = sqlx::query_as($select)
                    .bind(job_id)
                    .fetch_one(&mut *tx)
                    .await?;
                let held = Held {
                    refreshed_ms,
                    takeover_ms,
                    finished_ms,
                };
                let claim = match decide(held, now, self.silent_after, self.grace) {
                    Decision::Finished => Claim::Finished,
                    Decision::Wait => Claim::Wait,
                    Decision::MarkSilent => {
                        sqlx::query(query_file!("lease/mark_silent.sql"))
                            .bind(job_id)
                            .bind(now)
                            .execute(&mut *tx)
                            .await?;
                        Claim::Wait
                    }
                    Decision::Take => {
                        sqlx::query(query_file!("lease/take_over.sql"))
                            .bind(job_id)
                            .bind(holder)
                            .bind(now)
                            .execute(&mut *tx)
                            .await?;
                        Claim::Run
                    }
                };
                tx.commit().await?;
                Ok(claim)
            }};
        }
        match &self.db {
            Db::Sqlite(pool) => claim!(
                cosmo_graph_sqlite::begin_write(pool).await?,
                query_file!("lease/sqlite/insert_lease.sql"),
                query_file!("lease/sqlite/read_lease.sql")
            ),
            Db::Postgres(pool) => claim!(
                pool.begin().await?,
                query_file!("lease/postgres/insert_lease.sql"),
                query_file!("lease/postgres/read_lease.sql")
            ),
        }
    }

    /// Says `holder` still runs `job_id`. False if the lease is no longer its own (it
    /// was taken over: another run has the job now).
    pub async fn refresh(&self, job_id: &str, holder: &str) -> sqlx::Result<bool> {
        macro_rules! refresh {
            ($pool:expr, $sql:expr) => {
                sqlx::query($sql)
                    .bind(job_id)
                    .bind(holder)
                    .execute($pool)
                    .await?
                    .rows_affected()
            };
        }
        let n = match &self.db {
            Db::Sqlite(pool) => refresh!(pool, query_file!("lease/sqlite/refresh.sql")),
            Db::Postgres(pool) => refresh!(pool, query_file!("lease/postgres/refresh.sql")),
        };
        Ok(n == 1)
    }

    /// `holder` finished `job_id`: a later run of it ends without running.
    pub async fn finish(&self, job_id: &str, holder: &str) -> sqlx::Result<()> {
        macro_rules! finish {
            ($pool:expr, $sql:expr) => {
                sqlx::query($sql)
                    .bind(job_id)
                    .bind(holder)
                    .execute($pool)
                    .await
                    .map(drop)?
            };
        }
        match &self.db {
            Db::Sqlite(pool) => finish!(pool, query_file!("lease/sqlite/finish.sql")),
            Db::Postgres(pool) => finish!(pool, query_file!("lease/postgres/finish.sql")),
        }
        Ok(())
    }

    /// `holder`'s run failed: the next attempt takes the lease afresh.
    pub async fn release(&self, job_id: &str, holder: &str) -> sqlx::Result<()> {
        crate::db::execute_on!(&self.db, pool => sqlx::query(query_file!("lease/release.sql"))
        .bind(job_id)
        .bind(holder))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WINDOW: Duration = Duration::from_secs(30);
    const GRACE: Duration = Duration::from_secs(25);

    fn held(refreshed: i64, takeover: Option<i64>) -> Held {
        Held {
            refreshed_ms: refreshed,
            takeover_ms: takeover,
            finished_ms: None,
        }
    }

    #[test]
    fn a_refreshed_lease_is_waited_for() {
        assert_eq!(
            decide(held(100_000, None), 110_000, WINDOW, GRACE),
            Decision::Wait
        );
    }

    #[test]
    fn a_silent_lease_is_marked_before_it_is_taken() {
        // Silent for 60 s (an outage, or a dead holder): marked, not taken.
        assert_eq!(
            decide(held(0, None), 60_000, WINDOW, GRACE),
            Decision::MarkSilent
        );
        // Not refreshed since the mark: waited for until the grace has passed.
        assert_eq!(
            decide(held(0, Some(60_000)), 70_000, WINDOW, GRACE),
            Decision::Wait
        );
        assert_eq!(
            decide(held(0, Some(60_000)), 85_000, WINDOW, GRACE),
            Decision::Take
        );
    }

    #[test]
    fn a_holder_that_refreshed_after_the_mark_keeps_its_lease() {
        // Refreshed 1 s after the mark, silent again much later: marked anew.
        assert_eq!(
            decide(held(61_000, Some(60_000)), 61_500, WINDOW, GRACE),
            Decision::Wait
        );
        assert_eq!(
            decide(held(61_000, Some(60_000)), 200_000, WINDOW, GRACE),
            Decision::MarkSilent
        );
    }

    #[test]
    fn a_finished_lease_ends_the_job() {
        let done = Held {
            finished_ms: Some(5),
            ..held(0, None)
        };
        assert_eq!(decide(done, 1_000_000, WINDOW, GRACE), Decision::Finished);
    }
}
