//! # cosmo-scheduler
//!
//! Fires the periodic jobs (reconcile, decay, promotion, refresh, consolidation, note
//! cleanup) into the queue on 6-field cron schedules (seconds first) in a configurable
//! time zone. Each firing is enqueued with the idempotency key `<kind>@<slot time>`, so
//! any number of scheduler replicas put exactly one job in the queue per slot. On start,
//! the latest slot of each schedule within `scheduler.catch_up_hours` is fired too: a
//! slot missed while every scheduler was down runs once; one that ran is a duplicate.
//! A slot whose enqueue fails (the queue's database is out of reach) is retried with
//! backoff until it is in the queue or the schedule's next slot comes.

use chrono::{DateTime, Duration, Utc};
use chrono_tz::Tz;
use cosmo_shared::config::parse_cron;
use cosmo_shared::queue::payloads::Periodic;
use cosmo_shared::queue::{Enqueued, JobKind, NewJob};
use cosmo_shared::services::Services;
use croner::Cron;
use tokio_cron_scheduler::{Job, JobScheduler};

/// One periodic job.
#[derive(Debug, Clone)]
pub struct Schedule {
    pub kind: JobKind,
    pub cron: Cron,
    pub tz: Tz,
}

impl Schedule {
    pub fn new(kind: JobKind, expression: &str, tz: Tz) -> anyhow::Result<Self> {
        let cron = parse_cron(expression)
            .map_err(|e| anyhow::anyhow!("schedule of {kind}: `{expression}`: {e}"))?;
        Ok(Self { kind, cron, tz })
    }

    /// The slot a firing at `now` belongs to: the latest scheduled time at or before it.
    pub fn slot(&self, now: DateTime<Utc>) -> anyhow::Result<DateTime<Utc>> {
        // Cron has whole seconds; croner keeps a matching time's fraction, so drop it
        // first or two replicas firing a few milliseconds apart get different slots.
        let whole = DateTime::from_timestamp(now.timestamp(), 0).unwrap_or(now);
        let local = whole.with_timezone(&self.tz);
        let slot = self
            .cron
            .find_previous_occurrence(&local, true)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        Ok(slot.with_timezone(&Utc))
    }

    /// The schedule's first slot after `slot`.
    pub fn next_slot(&self, slot: DateTime<Utc>) -> anyhow::Result<DateTime<Utc>> {
        let next = self
            .cron
            .find_next_occurrence(&slot.with_timezone(&self.tz), false)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        Ok(next.with_timezone(&Utc))
    }

    /// The job of one slot.
    pub fn job(&self, slot: DateTime<Utc>) -> NewJob {
        Periodic::slot(self.kind, slot)
    }
}

/// The schedules the configuration asks for.
pub fn schedules(svc: &Services) -> anyhow::Result<Vec<Schedule>> {
    let cfg = &svc.config.scheduler;
    let tz: Tz = cfg
        .timezone
        .parse()
        .map_err(|e| anyhow::anyhow!("scheduler.timezone: {e}"))?;
    cfg.expressions()
        .into_iter()
        .map(|(kind, expression)| {
            let kind = kind
                .parse::<JobKind>()
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            Schedule::new(kind, expression, tz)
        })
        .collect()
}

/// The first wait before an enqueue that failed is tried again; it doubles up to
/// [`RETRY_MAX`].
const RETRY_FIRST: std::time::Duration = std::time::Duration::from_secs(1);
const RETRY_MAX: std::time::Duration = std::time::Duration::from_secs(60);

/// Enqueues the job of the slot containing `now` ([`fire_slot`]).
pub async fn fire(
    svc: &Services,
    schedule: &Schedule,
    now: DateTime<Utc>,
) -> anyhow::Result<Enqueued> {
    fire_slot(svc, schedule, schedule.slot(now)?).await
}

/// Enqueues the job of `slot`; a replica that fires the same slot gets
/// [`Enqueued::Duplicate`]. While the queue cannot be reached the enqueue is retried
/// with backoff, until it succeeds or the schedule's next slot comes (which then
/// stands for this one): a short outage loses no slot.
pub async fn fire_slot(
    svc: &Services,
    schedule: &Schedule,
    slot: DateTime<Utc>,
) -> anyhow::Result<Enqueued> {
    let next = schedule.next_slot(slot)?;
    let mut wait = RETRY_FIRST;
    let mut retries = 0;
    loop {
        match svc.queue.enqueue(schedule.job(slot)).await {
            Ok(outcome) => {
                let duplicate = matches!(outcome, Enqueued::Duplicate { .. });
                tracing::info!(kind = %schedule.kind, %slot, duplicate, retries, "scheduled job fired");
                return Ok(outcome);
            }
            Err(e) => {
                let until_next = (next - svc.clock.now()).to_std().unwrap_or_default();
                if until_next <= wait {
                    return Err(anyhow::Error::new(e).context(format!(
                        "slot {slot} of {} not enqueued before the next slot; giving up",
                        schedule.kind
                    )));
                }
                tracing::warn!(kind = %schedule.kind, %slot, error = %e,
                    retry_in_secs = wait.as_secs(), "could not enqueue scheduled job; retrying");
                tokio::time::sleep(wait).await;
                wait = (wait * 2).min(RETRY_MAX);
                retries += 1;
            }
        }
    }
}

/// Fires, once, the latest slot of each schedule within the look-back. Returns the
/// slots it enqueued (the ones no scheduler had fired).
pub async fn catch_up(
    svc: &Services,
    schedules: &[Schedule],
    now: DateTime<Utc>,
) -> anyhow::Result<Vec<(JobKind, DateTime<Utc>)>> {
    let look_back = Duration::hours(svc.config.scheduler.catch_up_hours as i64);
    let mut fired = Vec::new();
    if look_back.is_zero() {
        return Ok(fired);
    }
    for schedule in schedules {
        let slot = schedule.slot(now)?;
        if slot > now - look_back
            && let Enqueued::Created { .. } = svc.queue.enqueue(schedule.job(slot)).await?
        {
            tracing::info!(kind = %schedule.kind, %slot, "missed slot caught up");
            fired.push((schedule.kind, slot));
        }
    }
    Ok(fired)
}

/// Runs the cron loop until `shutdown` resolves.
pub async fn run(
    svc: Services,
    shutdown: impl std::future::Future<Output = ()> + Send,
) -> anyhow::Result<()> {
    // Boxed here, so the loop is compiled once, in this crate, rather than in each
    // binary that calls this with its own kind of signal.
    run_until(svc, Box::pin(shutdown)).await
}

async fn run_until(
    svc: Services,
    mut shutdown: std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send + '_>>,
) -> anyhow::Result<()> {
    let schedules = schedules(&svc)?;
    // A queue that cannot be reached as the scheduler starts (an outage, another
    // process migrating the file) delays the catch-up; it does not stop the scheduler,
    // which would take a `cosmo serve` down with it.
    let mut wait = std::time::Duration::from_secs(1);
    while let Err(e) = catch_up(&svc, &schedules, svc.clock.now()).await {
        tracing::warn!(error = %e, retry_in_secs = wait.as_secs(), "catching up missed slots failed");
        tokio::select! {
            () = tokio::time::sleep(wait) => {}
            () = &mut shutdown => return Ok(()),
        }
        wait = (wait * 2).min(std::time::Duration::from_secs(60));
    }
    let mut scheduler = JobScheduler::new().await?;
    for schedule in schedules {
        let (svc, tz, expression) = (svc.clone(), schedule.tz, schedule.cron.pattern.to_string());
        let job = Job::new_async_tz(expression.as_str(), tz, move |_, _| {
            let (svc, schedule) = (svc.clone(), schedule.clone());
            Box::pin(async move {
                if let Err(e) = fire(&svc, &schedule, svc.clock.now()).await {
                    tracing::error!(kind = %schedule.kind, error = %e, "could not enqueue scheduled job");
                }
            })
        })?;
        scheduler.add(job).await?;
    }
    scheduler.start().await?;
    shutdown.await;
    scheduler.shutdown().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(t: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(t).unwrap().with_timezone(&Utc)
    }

    #[test]
    fn a_slot_is_the_latest_scheduled_time_at_or_before_now() {
        let s = Schedule::new(JobKind::Reconcile, "0 */2 * * * *", Tz::UTC).unwrap();
        assert_eq!(
            s.slot(at("2026-11-22T10:03:59Z")).unwrap(),
            at("2026-11-22T10:02:00Z")
        );
        assert_eq!(
            s.slot(at("2026-11-22T10:04:00Z")).unwrap(),
            at("2026-11-22T10:04:00Z")
        );
        // Two replicas firing a little apart share the slot, hence the key.
        assert_eq!(
            s.job(s.slot(at("2026-11-22T10:04:00.2Z")).unwrap())
                .idempotency_key,
            s.job(s.slot(at("2026-11-22T10:04:01.9Z")).unwrap())
                .idempotency_key
        );
    }

    #[test]
    fn schedules_follow_the_time_zone() {
        let s = Schedule::new(
            JobKind::Decay,
            "0 0 3 * * *",
            "Europe/Berlin".parse().unwrap(),
        )
        .unwrap();
        assert_eq!(
            s.slot(at("2026-11-22T12:00:00Z")).unwrap().to_rfc3339(),
            "2026-11-22T02:00:00+00:00"
        );
        let weekly = Schedule::new(JobKind::PromoteMacros, "0 0 2 * * Sun", Tz::UTC).unwrap();
        assert_eq!(
            weekly.slot(at("2026-11-25T12:00:00Z")).unwrap(),
            at("2026-11-22T02:00:00Z"),
            "the Sunday before"
        );
    }

    #[test]
    fn bad_expressions_are_refused() {
        assert!(parse_cron("every day").is_err());
        assert!(parse_cron("0 61 * * * *").is_err());
    }
}
