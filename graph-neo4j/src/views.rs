//! The views retrieval builds its results from (`cypher/reads/`): Source metadata, the
//! Sources mentioning a node, the Storylines about it, the links around nodes. Rows are
//! put in the SQLite store's order here too, so it holds whatever the planner does.

use async_trait::async_trait;
use cosmo_core::domain::{Relationship, SourceMeta, SourcePassage, Storyline};
use cosmo_core::graph::{GraphResult, ViewStore};

use super::bolt::{Props, int, int_column, list};
use super::hierarchy::required;
use super::{Neo4jGraph, decode};
use super::{distinct, first_occurrences};
use crate::cypher::reads;

/// Newest first, then by key.
fn newest_first(metas: &mut [SourceMeta]) {
    metas.sort_by(|a, b| {
        b.event_time
            .cmp(&a.event_time)
            .then_with(|| a.entity_key.cmp(&b.entity_key))
    });
}

#[async_trait]
impl ViewStore for Neo4jGraph {
    async fn passages(&self, source_keys: &[String]) -> GraphResult<Vec<SourcePassage>> {
        if source_keys.is_empty() {
            return Ok(Vec::new());
        }
        let q = reads::PASSAGES
            .bind()
            .p("source_keys", list(first_occurrences(source_keys)));
        self.rows(q.query()?)
            .await?
            .iter()
            .map(|r| {
                Ok(SourcePassage {
                    source_key: required(r, "source_key")?,
                    ordinal: u32::try_from(int_column(r, "ordinal")?).unwrap_or(u32::MAX),
                    text: required(r, "text")?,
                })
            })
            .collect()
    }

    async fn source_metas(&self, keys: &[String]) -> GraphResult<Vec<SourceMeta>> {
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let q = reads::SOURCE_METAS.bind().p("keys", list(distinct(keys)));
        let mut metas = self
            .rows(q.query()?)
            .await?
            .iter()
            .map(|r| decode::source_meta(&Props::from_row(r, "meta")?))
            .collect::<GraphResult<Vec<_>>>()?;
        // In the given order (a key given twice counts where it comes first).
        metas.sort_by_key(|m| keys.iter().position(|k| *k == m.entity_key));
        Ok(metas)
    }

    async fn relationships_of(
        &self,
        user_id: &str,
        node_keys: &[String],
        limit: usize,
    ) -> GraphResult<Vec<Relationship>> {
        if node_keys.is_empty() {
            return Ok(Vec::new());
        }
        let q = reads::RELATIONSHIPS_OF
            .bind()
            .p("user_id", user_id)
            .p("node_keys", list(distinct(node_keys)))
            .p("limit", int(limit));
        let mut rels = self
            .rows(q.query()?)
            .await?
            .iter()
            .map(decode::relationship)
            .collect::<GraphResult<Vec<_>>>()?;
        // Strongest first, then by key.
        rels.sort_by(|a, b| {
            b.strength
                .total_cmp(&a.strength)
                .then_with(|| a.rel_key.cmp(&b.rel_key))
        });
        Ok(rels)
    }

    async fn node_sources(&self, entity_key: &str, limit: usize) -> GraphResult<Vec<SourceMeta>> {
        let q = reads::NODE_SOURCES
            .bind()
            .p("entity_key", entity_key)
            .p("limit", int(limit));
        let mut metas = self
            .rows(q.query()?)
            .await?
            .iter()
            .map(|r| decode::source_meta(&Props::from_row(r, "meta")?))
            .collect::<GraphResult<Vec<_>>>()?;
        newest_first(&mut metas);
        Ok(metas)
    }

    async fn storylines_about(&self, anchor_key: &str) -> GraphResult<Vec<Storyline>> {
        let q = reads::STORYLINES_ABOUT.bind().p("anchor_key", anchor_key);
        let mut storylines = self
            .rows(q.query()?)
            .await?
            .iter()
            .map(|r| decode::storyline(&Props::from_row(r, "storyline")?))
            .collect::<GraphResult<Vec<_>>>()?;
        // The most recent first (last Source, else creation), then by id.
        storylines.sort_by(|a, b| {
            let at = |s: &Storyline| s.last_source_at.unwrap_or(s.lifecycle.created_at);
            at(b)
                .cmp(&at(a))
                .then_with(|| a.storyline_id.cmp(&b.storyline_id))
        });
        Ok(storylines)
    }
}

#[cfg(test)]
mod tests {
    use chrono::Duration;

    use super::*;
    use cosmo_core::domain::{MemoryState, SourceType};

    #[test]
    fn sources_list_newest_first_then_by_key() {
        let at = chrono::Utc::now();
        let meta = |key: &str, at| SourceMeta {
            entity_key: key.into(),
            user_id: "u".into(),
            source_type: SourceType::TextNote,
            context_type: None,
            summary: String::new(),
            event_time: at,
            state: MemoryState::Active,
        };
        let mut metas = vec![
            meta("b", at),
            meta("c", at + Duration::hours(1)),
            meta("a", at),
        ];
        newest_first(&mut metas);
        let keys: Vec<&str> = metas.iter().map(|m| m.entity_key.as_str()).collect();
        assert_eq!(keys, ["c", "a", "b"]);
    }
}
