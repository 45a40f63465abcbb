//! Job kinds and their per-kind policy: queue name, attempts, backoff, timeout,
//! concurrency. Every knob is configurable under `[jobs.<kind>]`.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::domain::string_enum;

/// Every kind of job a worker can run. The wire name is also the queue name.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum JobKind {
    ProcessSource,
    ExtractEntities,
    Reconcile,
    Decay,
    PromoteStorylines,
    RefreshStorylines,
    PromoteMacros,
    RefreshMacros,
    ConsolidateDescriptions,
    CleanupNotes,
    ConsolidateEpisodic,
    InferCausalLinks,
}

string_enum!(JobKind {
    ProcessSource = "process-source",
    ExtractEntities = "extract-entities",
    Reconcile = "reconcile",
    Decay = "decay",
    PromoteStorylines = "promote-storylines",
    RefreshStorylines = "refresh-storylines",
    PromoteMacros = "promote-macros",
    RefreshMacros = "refresh-macros",
    ConsolidateDescriptions = "consolidate-descriptions",
    CleanupNotes = "cleanup-notes",
    ConsolidateEpisodic = "consolidate-episodic",
    InferCausalLinks = "infer-causal-links",
});

impl JobKind {
    /// The apalis queue (job type) name: explicit, never a Rust type path.
    pub fn queue_name(self) -> &'static str {
        self.as_str()
    }

    /// Run by the scheduler or an operator rather than for one Source: the reconciler
    /// and the maintenance jobs. Their payload is [`super::payloads::Periodic`].
    pub fn is_periodic(self) -> bool {
        match self {
            Self::ProcessSource | Self::ExtractEntities => false,
            Self::Reconcile
            | Self::Decay
            | Self::PromoteStorylines
            | Self::RefreshStorylines
            | Self::PromoteMacros
            | Self::RefreshMacros
            | Self::ConsolidateDescriptions
            | Self::CleanupNotes
            | Self::ConsolidateEpisodic
            | Self::InferCausalLinks => true,
        }
    }

    /// Periodic maintenance: runs for an as-of time, records a run.
    pub fn is_maintenance(self) -> bool {
        !matches!(
            self,
            Self::ProcessSource | Self::ExtractEntities | Self::Reconcile
        )
    }
}

/// How one kind of job is run.
// No `serde(default)`: the defaults layer of the configuration always supplies every
// field, per kind; files and the environment override single fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobSettings {
    /// Attempts before the job is kept as failed (dead letter).
    pub max_attempts: u32,
    /// Delay before the first retry; doubles per attempt, with ±20% jitter.
    pub backoff_secs: u64,
    pub backoff_max_secs: u64,
    /// A job running longer than this is failed (and retried).
    pub timeout_secs: u64,
    /// Jobs of this kind one worker process runs at once.
    pub concurrency: usize,
}

impl JobSettings {
    const fn new(
        max_attempts: u32,
        backoff_secs: u64,
        timeout_secs: u64,
        concurrency: usize,
    ) -> Self {
        Self {
            max_attempts,
            backoff_secs,
            backoff_max_secs: 3600,
            timeout_secs,
            concurrency,
        }
    }

    pub fn timeout(&self) -> Duration {
        Duration::from_secs(self.timeout_secs)
    }

    /// The delay before attempt `attempt + 1` after `attempt` failed (1-based), with
    /// `jitter` in [-1, 1] scaling ±20%.
    pub fn backoff(&self, attempt: u32, jitter: f64) -> Duration {
        let exp = self
            .backoff_secs
            .saturating_mul(1u64 << attempt.saturating_sub(1).min(30));
        let capped = exp.min(self.backoff_max_secs) as f64;
        Duration::from_secs_f64((capped * (1.0 + 0.2 * jitter.clamp(-1.0, 1.0))).max(0.0))
    }
}

/// `[jobs.*]`: one [`JobSettings`] per kind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct JobsConfig {
    pub process_source: JobSettings,
    pub extract_entities: JobSettings,
    pub reconcile: JobSettings,
    pub decay: JobSettings,
    pub promote_storylines: JobSettings,
    pub refresh_storylines: JobSettings,
    pub promote_macros: JobSettings,
    pub refresh_macros: JobSettings,
    pub consolidate_descriptions: JobSettings,
    pub cleanup_notes: JobSettings,
    pub consolidate_episodic: JobSettings,
    pub infer_causal_links: JobSettings,
}

impl Default for JobsConfig {
    fn default() -> Self {
        Self {
            // Model-bound jobs ride out a provider outage: 10 s doubling to an hour
            // between attempts is about 3.5 hours before a job is kept as failed.
            process_source: JobSettings::new(12, 10, 300, 4),
            extract_entities: JobSettings::new(12, 10, 600, 4),
            reconcile: JobSettings::new(3, 30, 300, 1),
            // Maintenance walks the whole graph in batches; it may take a while, and a
            // re-run resumes safely (every step is idempotent for its as-of time).
            decay: JobSettings::new(5, 60, 4 * 3600, 1),
            promote_storylines: JobSettings::new(5, 60, 3600, 1),
            refresh_storylines: JobSettings::new(5, 60, 3600, 1),
            promote_macros: JobSettings::new(5, 60, 3600, 1),
            refresh_macros: JobSettings::new(5, 60, 3600, 1),
            consolidate_descriptions: JobSettings::new(5, 60, 3600, 1),
            cleanup_notes: JobSettings::new(5, 60, 3600, 1),
            consolidate_episodic: JobSettings::new(5, 60, 3600, 1),
            infer_causal_links: JobSettings::new(5, 60, 3600, 1),
        }
    }
}

impl JobsConfig {
    pub fn get(&self, kind: JobKind) -> &JobSettings {
        match kind {
            JobKind::ProcessSource => &self.process_source,
            JobKind::ExtractEntities => &self.extract_entities,
            JobKind::Reconcile => &self.reconcile,
            JobKind::Decay => &self.decay,
            JobKind::PromoteStorylines => &self.promote_storylines,
            JobKind::RefreshStorylines => &self.refresh_storylines,
            JobKind::PromoteMacros => &self.promote_macros,
            JobKind::RefreshMacros => &self.refresh_macros,
            JobKind::ConsolidateDescriptions => &self.consolidate_descriptions,
            JobKind::CleanupNotes => &self.cleanup_notes,
            JobKind::ConsolidateEpisodic => &self.consolidate_episodic,
            JobKind::InferCausalLinks => &self.infer_causal_links,
        }
    }

    /// Every kind's settings, for bulk changes (`workers --concurrency`, tests).
    pub fn all_mut(&mut self) -> [&mut JobSettings; 12] {
        [
            &mut self.process_source,
            &mut self.extract_entities,
            &mut self.reconcile,
            &mut self.decay,
            &mut self.promote_storylines,
            &mut self.refresh_storylines,
            &mut self.promote_macros,
            &mut self.refresh_macros,
            &mut self.consolidate_descriptions,
            &mut self.cleanup_notes,
            &mut self.consolidate_episodic,
            &mut self.infer_causal_links,
        ]
    }

    /// Sets every kind's concurrency (`workers --concurrency`).
    pub fn set_concurrency(&mut self, n: usize) {
        for s in self.all_mut() {
            s.concurrency = n;
        }
    }

    pub fn validate(&self) -> anyhow::Result<()> {
        for kind in JobKind::ALL {
            let s = self.get(*kind);
            let name = kind.as_str().replace('-', "_");
            anyhow::ensure!(
                s.max_attempts >= 1,
                "jobs.{name}.max_attempts must be at least 1"
            );
            anyhow::ensure!(
                s.concurrency >= 1,
                "jobs.{name}.concurrency must be at least 1"
            );
            anyhow::ensure!(
                s.timeout_secs >= 1,
                "jobs.{name}.timeout_secs must be at least 1"
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_and_caps() {
        let s = JobSettings {
            backoff_secs: 10,
            backoff_max_secs: 60,
            ..JobSettings::new(5, 10, 60, 1)
        };
        assert_eq!(s.backoff(1, 0.0), Duration::from_secs(10));
        assert_eq!(s.backoff(2, 0.0), Duration::from_secs(20));
        assert_eq!(s.backoff(3, 0.0), Duration::from_secs(40));
        assert_eq!(s.backoff(4, 0.0), Duration::from_secs(60));
        assert_eq!(s.backoff(40, 0.0), Duration::from_secs(60));
        assert_eq!(s.backoff(1, 1.0), Duration::from_secs(12));
        assert_eq!(s.backoff(1, -1.0), Duration::from_secs(8));
    }

    #[test]
    fn kinds_have_explicit_queue_names() {
        assert_eq!(JobKind::ProcessSource.queue_name(), "process-source");
        assert_eq!(
            "extract-entities".parse::<JobKind>().unwrap(),
            JobKind::ExtractEntities
        );
        assert!("decay-everything".parse::<JobKind>().is_err());
    }
}
