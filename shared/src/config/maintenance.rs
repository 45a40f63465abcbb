//! `[scheduler]` (when each periodic job fires) and `[maintenance]` (how much each run
//! does, and the thresholds the jobs apply).

use serde::{Deserialize, Serialize};

/// 6-field cron expressions (seconds first) in `timezone`; by default the nightly jobs
/// fire between 01:00 and 04:30 and the weekly ones on Sunday.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SchedulerConfig {
    /// IANA time zone the expressions are read in.
    pub timezone: String,
    /// On start, the latest slot of each schedule missed within this many hours (all
    /// schedulers down) is fired once. 0 turns catch-up off.
    pub catch_up_hours: u64,
    pub reconcile: String,
    pub decay: String,
    pub consolidate_episodic: String,
    pub promote_storylines: String,
    pub refresh_storylines: String,
    pub consolidate_descriptions: String,
    pub cleanup_notes: String,
    pub infer_causal_links: String,
    pub promote_macros: String,
    pub refresh_macros: String,
}

impl Default for SchedulerConfig {
    fn default() -> Self {
        Self {
            timezone: "UTC".into(),
            catch_up_hours: 24,
            reconcile: "0 */2 * * * *".into(),
            decay: "0 0 1 * * *".into(),
            consolidate_episodic: "0 0 2 * * *".into(),
            promote_storylines: "0 0 3 * * *".into(),
            refresh_storylines: "0 30 3 * * *".into(),
            consolidate_descriptions: "0 45 3 * * *".into(),
            cleanup_notes: "0 0 4 * * *".into(),
            infer_causal_links: "0 30 4 * * *".into(),
            promote_macros: "0 0 2 * * Sun".into(),
            refresh_macros: "0 30 2 * * Sun".into(),
        }
    }
}

impl SchedulerConfig {
    /// The (job kind, expression) pairs, in firing order.
    pub fn expressions(&self) -> Vec<(&'static str, &str)> {
        vec![
            ("reconcile", &self.reconcile),
            ("decay", &self.decay),
            ("consolidate-episodic", &self.consolidate_episodic),
            ("promote-storylines", &self.promote_storylines),
            ("refresh-storylines", &self.refresh_storylines),
            ("consolidate-descriptions", &self.consolidate_descriptions),
            ("cleanup-notes", &self.cleanup_notes),
            ("infer-causal-links", &self.infer_causal_links),
            ("promote-macros", &self.promote_macros),
            ("refresh-macros", &self.refresh_macros),
        ]
    }

    pub fn validate(&self) -> anyhow::Result<()> {
        self.timezone
            .parse::<chrono_tz::Tz>()
            .map_err(|e| anyhow::anyhow!("scheduler.timezone: {e}"))?;
        for (kind, expression) in self.expressions() {
            parse_cron(expression).map_err(|e| {
                anyhow::anyhow!("scheduler.{}: `{expression}`: {e}", kind.replace('-', "_"))
            })?;
        }
        Ok(())
    }
}

/// Parses a 6-field cron expression the way tokio-cron-scheduler does.
pub fn parse_cron(expression: &str) -> anyhow::Result<croner::Cron> {
    croner::parser::CronParser::builder()
        .seconds(croner::parser::Seconds::Required)
        .dom_and_dow(true)
        .build()
        .parse(expression)
        .map_err(|e| anyhow::anyhow!("{e}"))
}

/// `[maintenance]`: bounds and thresholds of the nightly and weekly jobs.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MaintenanceConfig {
    /// Memories read and written per batch (memory stays flat whatever the graph size).
    pub batch_size: usize,
    /// Storylines promoted / refreshed per run (default 100).
    pub storyline_limit: usize,
    /// Macros promoted / refreshed per run (default 50).
    pub macro_limit: usize,
    /// An anchor needs this many Sources not yet in a Storyline…
    pub storyline_min_sources: i64,
    /// …over this many distinct days…
    pub storyline_min_days: i64,
    /// …the first of them at least this old.
    pub storyline_min_age_days: i64,
    /// A Storyline whose last Source is older than this takes no new Sources.
    pub storyline_window_days: i64,
    /// Sources refreshed Storylines are re-summarised from (default: the last 10).
    pub storyline_refresh_sources: usize,
    /// An anchor first mentioned this long ago with 2+ Storylines gets a Macro.
    pub macro_min_age_days: i64,
    /// Dirty nodes and relationships consolidated per run.
    pub consolidation_cap: usize,
    /// Episodic consolidation: Sources that both happened and were received longer ago
    /// than this (a back-fill of old history is not consolidated the night it arrives)…
    pub episodic_min_age_days: i64,
    /// …with salience below this, or…
    pub episodic_salience_below: f64,
    /// …at least this many sharing one node…
    pub episodic_cluster_min_sources: usize,
    /// …unless that node is a shared anchor: mentioned by more than this share of all
    /// the user's own Sources…
    ///
    /// Like a stopword in a document-frequency cut, a node nearly every Source mentions
    /// (the other speaker of a conversation history, a diary's spouse, a work log's
    /// employer) says nothing about what a group of Sources has in common; clustering
    /// on it would archive the whole history at once. Both counts take every Source of
    /// the user (archived, pinned and recent ones too), so archiving some of them never
    /// changes which nodes are anchors. 1 turns the cut off.
    pub episodic_anchor_share: f64,
    /// …once the user has at least this many Sources. Below `cluster_min_sources /
    /// anchor_share` (10 with the defaults) every possible cluster would be over the
    /// share, so the share says nothing about a small history: its clusters follow
    /// `episodic_cluster_min_sources` alone.
    pub episodic_anchor_min_sources: usize,
    /// Clusters / faded Sources consolidated per run.
    pub episodic_limit: usize,
    /// Causal links (`infer-causal-links`): a Source's causes are looked for among this
    /// many Sources just before it in its thread (1 to 8)…
    pub causal_window: usize,
    /// …for this many Sources a batch (each one model call)…
    pub causal_batch_size: usize,
    /// …and at most this many Sources a run (the rest wait for the next night).
    pub causal_limit: usize,
    /// The confidence a causal link is written with.
    pub causal_confidence: f64,
}

impl Default for MaintenanceConfig {
    fn default() -> Self {
        Self {
            batch_size: 1000,
            storyline_limit: 100,
            macro_limit: 50,
            storyline_min_sources: 5,
            storyline_min_days: 3,
            storyline_min_age_days: 3,
            storyline_window_days: 90,
            storyline_refresh_sources: 10,
            macro_min_age_days: 30,
            consolidation_cap: 200,
            episodic_min_age_days: 7,
            episodic_salience_below: 0.2,
            episodic_cluster_min_sources: 5,
            episodic_anchor_share: 0.5,
            episodic_anchor_min_sources: 10,
            episodic_limit: 100,
            causal_window: 8,
            causal_batch_size: 50,
            causal_limit: 5000,
            causal_confidence: 0.7,
        }
    }
}

impl MaintenanceConfig {
    pub fn validate(&self) -> anyhow::Result<()> {
        anyhow::ensure!(
            self.episodic_min_age_days >= 0,
            "maintenance.episodic_min_age_days must not be negative"
        );
        anyhow::ensure!(
            self.episodic_cluster_min_sources >= 1,
            "maintenance.episodic_cluster_min_sources must be at least 1"
        );
        anyhow::ensure!(
            self.episodic_anchor_share > 0.0 && self.episodic_anchor_share <= 1.0,
            "maintenance.episodic_anchor_share must be in (0, 1]"
        );
        anyhow::ensure!(
            self.episodic_anchor_min_sources >= 1,
            "maintenance.episodic_anchor_min_sources must be at least 1"
        );
        anyhow::ensure!(
            (1..=crate::graph::MAX_CAUSAL_WINDOW).contains(&self.causal_window),
            "maintenance.causal_window must be from 1 to {}",
            crate::graph::MAX_CAUSAL_WINDOW
        );
        anyhow::ensure!(
            self.causal_batch_size >= 1 && self.causal_limit >= 1,
            "maintenance.causal_batch_size and causal_limit must be at least 1"
        );
        anyhow::ensure!(
            self.causal_confidence > 0.0 && self.causal_confidence <= 1.0,
            "maintenance.causal_confidence must be in (0, 1]"
        );
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::MaintenanceConfig;

    #[test]
    fn episodic_thresholds_are_checked() {
        assert!(MaintenanceConfig::default().validate().is_ok());
        let with = |edit: fn(&mut MaintenanceConfig)| {
            let mut c = MaintenanceConfig::default();
            edit(&mut c);
            c.validate()
        };
        assert!(
            with(|c| c.episodic_anchor_share = 1.0).is_ok(),
            "1 turns the cut off"
        );
        for bad in [0.0, -0.5, 1.5, f64::NAN] {
            let c = MaintenanceConfig {
                episodic_anchor_share: bad,
                ..Default::default()
            };
            assert!(c.validate().is_err(), "share {bad}");
        }
        assert!(with(|c| c.episodic_anchor_min_sources = 0).is_err());
        assert!(with(|c| c.episodic_cluster_min_sources = 0).is_err());
        assert!(with(|c| c.episodic_min_age_days = -1).is_err());
        assert!(with(|c| c.episodic_min_age_days = 0).is_ok());
    }
}
