//! The queue contract: enqueueing, idempotency keys, retries with backoff, dead letters,
//! timeouts, panics, concurrency and graceful shutdown behave the same on every queue
//! backend. A backend joins with one `queue_contract!` line.

mod cases;
mod notify;
/// Also used by other modules to make jobs fail for real (see `support::Workers`).
pub(crate) mod support;

macro_rules! queue_contract {
    ($backend:ident, $factory:path) => {
        mod $backend {
            queue_contract!(@cases $factory;
                enqueue_is_idempotent_per_kind,
                jobs_can_be_looked_up_and_counted,
                workers_run_jobs_to_done,
                failures_back_off_then_succeed,
                exhausted_jobs_are_kept_with_their_error,
                permanent_failures_stop_at_once,
                timeouts_and_panics_are_retried,
                concurrency_is_bounded_per_kind,
                shutdown_lets_in_flight_jobs_finish,
                undecodable_payloads_are_killed,
                erasure_purges_exactly_the_jobs_about_it,
                jobs_are_listed_counted_and_retried_by_state,
                stopped_workers_are_forgotten_and_live_ones_kept,
                a_job_handed_out_again_while_running_runs_once,
                run_leases_admit_one_run_and_survive_silence,
                finished_jobs_are_forgotten_once_kept_long_enough,
            );
        }
    };
    (@cases $factory:path; $($case:ident),+ $(,)?) => {
        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $case() {
                super::cases::$case($factory).await;
            }
        )+
    };
}

queue_contract!(sqlite, crate::queue_contract::support::sqlite);
queue_contract!(postgres, crate::queue_contract::support::postgres);
