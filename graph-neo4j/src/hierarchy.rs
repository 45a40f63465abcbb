//! Storyline and Macro promotion and refresh on Neo4j.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use cosmo_core::domain::{Macro, SourceBrief, Storyline};
use cosmo_core::graph::{
    GraphError, GraphResult, HierarchyStore, MacroCandidateAnchor, StorylineCandidateAnchor,
    StorylineRules,
};
use neo4rs::Row;

use super::bolt::{Props, embedding, int, string_column};
use super::cypher::maintenance as mt;
use super::{Neo4jGraph, decode};

/// A string column every row of a statement has.
pub(super) fn required(row: &Row, name: &str) -> GraphResult<String> {
    string_column(row, name)?
        .ok_or_else(|| GraphError::Backend(anyhow::anyhow!("a result row without `{name}`")))
}

/// A column holding a list of Source briefs, oldest first (then by key), as SQLite
/// orders them.
pub(super) fn briefs(row: &Row, column: &'static str) -> GraphResult<Vec<SourceBrief>> {
    let mut briefs = Props::list_from_row(row, column)?
        .iter()
        .map(decode::brief)
        .collect::<GraphResult<Vec<_>>>()?;
    briefs.sort_by(|a, b| (a.event_time, &a.entity_key).cmp(&(b.event_time, &b.entity_key)));
    Ok(briefs)
}

/// Storylines oldest first: by first Source (none first, as SQLite orders NULL), then id.
fn sort_storylines(storylines: &mut [Storyline]) {
    storylines.sort_by(|a, b| {
        (a.first_source_at, &a.storyline_id).cmp(&(b.first_source_at, &b.storyline_id))
    });
}

#[async_trait]
impl HierarchyStore for Neo4jGraph {
    async fn storyline_promotion_candidates(
        &self,
        rules: &StorylineRules,
        limit: usize,
    ) -> GraphResult<Vec<StorylineCandidateAnchor>> {
        let q = mt::STORYLINE_CANDIDATES
            .bind()
            .p("min_sources", rules.min_sources)
            .p("min_days", rules.min_days)
            .p("first_before", rules.first_before);
        self.scan(
            q,
            limit,
            |r| {
                Ok(StorylineCandidateAnchor {
                    anchor_key: required(r, "anchor_key")?,
                    user_id: required(r, "user_id")?,
                    anchor_name: string_column(r, "anchor_name")?.unwrap_or_default(),
                    sources: briefs(r, "briefs")?,
                })
            },
            |r| r.user_id.as_str(),
        )
        .await
    }

    async fn dirty_storylines(
        &self,
        active_since: DateTime<Utc>,
        limit: usize,
    ) -> GraphResult<Vec<Storyline>> {
        let q = mt::DIRTY_STORYLINES.bind().p("active_since", active_since);
        self.scan(
            q,
            limit,
            |r| decode::storyline(&Props::from_row(r, "storyline")?),
            |r| r.user_id.as_str(),
        )
        .await
    }

    async fn storyline_briefs(
        &self,
        storyline_id: &str,
        limit: usize,
    ) -> GraphResult<Vec<SourceBrief>> {
        let q = mt::STORYLINE_BRIEFS
            .bind()
            .p("storyline_id", storyline_id)
            .p("limit", int(limit));
        self.rows(q.query()?)
            .await?
            .iter()
            .map(|r| decode::brief(&Props::from_row(r, "brief")?))
            .collect()
    }

    async fn refresh_storyline(
        &self,
        storyline_id: &str,
        description: &str,
        vector: Option<&[f32]>,
        at: DateTime<Utc>,
    ) -> GraphResult<()> {
        let b = mt::DESCRIBE_STORYLINE.bind();
        let q = super::words::bind(b, super::words::DESCRIPTION, description)
            .p("storyline_id", storyline_id)
            .p("description", description)
            .p("embedding", embedding(vector))
            .p("at", at);
        self.run(q.query()?).await
    }

    async fn macro_promotion_candidates(
        &self,
        first_before: DateTime<Utc>,
        limit: usize,
    ) -> GraphResult<Vec<MacroCandidateAnchor>> {
        let q = mt::MACRO_CANDIDATES.bind().p("first_before", first_before);
        self.scan(
            q,
            limit,
            |r| {
                let mut storylines = Props::list_from_row(r, "storylines")?
                    .iter()
                    .map(decode::storyline)
                    .collect::<GraphResult<Vec<_>>>()?;
                sort_storylines(&mut storylines);
                Ok(MacroCandidateAnchor {
                    anchor_key: required(r, "anchor_key")?,
                    user_id: required(r, "user_id")?,
                    anchor_name: string_column(r, "anchor_name")?.unwrap_or_default(),
                    storylines,
                })
            },
            |r| r.user_id.as_str(),
        )
        .await
    }

    async fn dirty_macros(&self, limit: usize) -> GraphResult<Vec<Macro>> {
        let q = mt::DIRTY_MACROS.bind();
        self.scan(
            q,
            limit,
            |r| decode::macro_(&Props::from_row(r, "macro")?),
            |r| r.user_id.as_str(),
        )
        .await
    }

    async fn macro_storylines(&self, macro_id: &str) -> GraphResult<Vec<Storyline>> {
        let q = mt::MACRO_STORYLINES.bind().p("macro_id", macro_id);
        let mut storylines = self
            .rows(q.query()?)
            .await?
            .iter()
            .map(|r| decode::storyline(&Props::from_row(r, "storyline")?))
            .collect::<GraphResult<Vec<_>>>()?;
        sort_storylines(&mut storylines);
        Ok(storylines)
    }

    async fn refresh_macro(
        &self,
        macro_id: &str,
        description: &str,
        vector: Option<&[f32]>,
        at: DateTime<Utc>,
    ) -> GraphResult<()> {
        let b = mt::DESCRIBE_MACRO.bind();
        let q = super::words::bind(b, super::words::DESCRIPTION, description)
            .p("macro_id", macro_id)
            .p("description", description)
            .p("embedding", embedding(vector))
            .p("at", at);
        self.run(q.query()?).await
    }
}
