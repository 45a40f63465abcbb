//! A user's memory in numbers (`GET /api/users/{user_id}/stats`, the MCP tool
//! `memory_stats`): what the graph store counts of the user
//! ([`cosmo_shared::graph::StatsStore::memory_stats`]) and when each maintenance job last ran,
//! from the run ledger ([`cosmo_shared::job_runs`]).
//!
//! Maintenance runs are not per user (one `decay` run decays every user's memories), so
//! the same times show for every user; what a run examined and changed is not shown,
//! since it counts other users' memories too.

use chrono::{DateTime, Utc};
use serde::Serialize;

use cosmo_shared::domain::MemoryStats;
use cosmo_shared::graph::StatsStore;
use cosmo_shared::job_runs::{JobRunLedger, RunStatus};
use cosmo_shared::queue::JobKind;

/// A user's memory in numbers.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct UserStats {
    #[serde(serialize_with = "cosmo_shared::ids::serialize_user_id")]
    pub user_id: String,
    #[serde(flatten)]
    pub memory: MemoryStats,
    pub maintenance: MaintenanceRuns,
}

/// Every maintenance job by kind, with its last recorded run, or `null` if it never
/// ran: every job is always there.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct MaintenanceRuns {
    #[schema(required = true)]
    pub decay: Option<LastRun>,
    #[serde(rename = "promote-storylines")]
    #[schema(required = true)]
    pub promote_storylines: Option<LastRun>,
    #[serde(rename = "refresh-storylines")]
    #[schema(required = true)]
    pub refresh_storylines: Option<LastRun>,
    #[serde(rename = "promote-macros")]
    #[schema(required = true)]
    pub promote_macros: Option<LastRun>,
    #[serde(rename = "refresh-macros")]
    #[schema(required = true)]
    pub refresh_macros: Option<LastRun>,
    #[serde(rename = "consolidate-descriptions")]
    #[schema(required = true)]
    pub consolidate_descriptions: Option<LastRun>,
    #[serde(rename = "cleanup-notes")]
    #[schema(required = true)]
    pub cleanup_notes: Option<LastRun>,
    #[serde(rename = "consolidate-episodic")]
    #[schema(required = true)]
    pub consolidate_episodic: Option<LastRun>,
    #[serde(rename = "infer-causal-links")]
    #[schema(required = true)]
    pub infer_causal_links: Option<LastRun>,
}

impl MaintenanceRuns {
    /// The place of a maintenance job's last run; `None` for the pipeline's jobs.
    pub fn of_mut(&mut self, kind: JobKind) -> Option<&mut Option<LastRun>> {
        match kind {
            JobKind::ProcessSource | JobKind::ExtractEntities | JobKind::Reconcile => None,
            JobKind::Decay => Some(&mut self.decay),
            JobKind::PromoteStorylines => Some(&mut self.promote_storylines),
            JobKind::RefreshStorylines => Some(&mut self.refresh_storylines),
            JobKind::PromoteMacros => Some(&mut self.promote_macros),
            JobKind::RefreshMacros => Some(&mut self.refresh_macros),
            JobKind::ConsolidateDescriptions => Some(&mut self.consolidate_descriptions),
            JobKind::CleanupNotes => Some(&mut self.cleanup_notes),
            JobKind::ConsolidateEpisodic => Some(&mut self.consolidate_episodic),
            JobKind::InferCausalLinks => Some(&mut self.infer_causal_links),
        }
    }
}

/// The last recorded run of a maintenance job.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct LastRun {
    pub started_at: DateTime<Utc>,
    pub finished_at: DateTime<Utc>,
    /// The time the run treated as "now" (a run for a past or future time differs from
    /// `started_at`).
    pub as_of: DateTime<Utc>,
    /// `succeeded` or `failed`.
    // Documented as a plain string, as it always was.
    #[schema(value_type = String)]
    pub status: RunStatus,
}

/// The stats of the user the graph knows as `graph_user_id`: the graph's count, and the
/// last run of each maintenance job from `runs`.
pub async fn user_stats(
    graph: &dyn StatsStore,
    runs: &JobRunLedger,
    graph_user_id: &str,
) -> anyhow::Result<UserStats> {
    let memory = graph.memory_stats(graph_user_id).await?;
    let mut maintenance = MaintenanceRuns::default();
    for kind in JobKind::ALL.iter().filter(|k| k.is_maintenance()) {
        let Some(slot) = maintenance.of_mut(*kind) else {
            continue;
        };
        *slot = runs
            .recent(Some(*kind), 1)
            .await?
            .into_iter()
            .next()
            .map(|run| LastRun {
                started_at: run.started_at,
                finished_at: run.finished_at,
                as_of: run.as_of,
                status: run.status,
            });
    }
    Ok(UserStats {
        user_id: graph_user_id.to_owned(),
        memory,
        maintenance,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_maintenance_job_has_its_place_under_its_name() {
        let mut runs = MaintenanceRuns::default();
        let run = LastRun {
            started_at: DateTime::UNIX_EPOCH,
            finished_at: DateTime::UNIX_EPOCH,
            as_of: DateTime::UNIX_EPOCH,
            status: RunStatus::Succeeded,
        };
        for kind in JobKind::ALL {
            match runs.of_mut(*kind) {
                Some(slot) => *slot = Some(run.clone()),
                None => assert!(!kind.is_maintenance(), "{kind}"),
            }
        }
        let json = serde_json::to_value(&runs).unwrap();
        let named: Vec<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let maintenance: Vec<&str> = JobKind::ALL
            .iter()
            .filter(|k| k.is_maintenance())
            .map(|k| k.as_str())
            .collect();
        assert_eq!(named, maintenance);
        assert!(
            json.as_object()
                .unwrap()
                .values()
                .all(|v| v["status"] == "succeeded")
        );
    }
}
