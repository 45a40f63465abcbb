//! Storylines and Macros: creation (promotion, or by hand in tests) and the candidates a
//! new Source may join.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use cosmo_core::domain::{
    Lifecycle, Macro, NewMacro, NewStoryline, NodeIdentity, NodeKind, Storyline,
};
use cosmo_core::graph::{GraphError, GraphResult, StorylineCandidate, StorylineStore};
use neo4rs::{Query, Txn};

use super::bolt::{Props, bool_column, embedding, int, list, string_column};
use super::cypher::{Bind, storylines as st};
use super::rows::bind_lifecycle;
use super::{Neo4jGraph, decode, finish, txn_rows};

/// How many Storylines of one anchor a new Source is offered.
const CANDIDATES_PER_ANCHOR: usize = 3;

/// Binds the lifecycle of a promoted memory (Storyline, Macro) and the time.
fn promoted(b: Bind, at: DateTime<Utc>) -> Bind {
    bind_lifecycle(b.p("at", at), &Lifecycle::promoted(at))
}

/// `storylines/create.cypher` for a new Storyline.
pub(super) fn create_storyline_query(s: &NewStoryline) -> GraphResult<Query> {
    let b = super::words::bind(st::CREATE.bind(), super::words::DESCRIPTION, &s.description)
        .p("anchor_key", s.anchor_key.as_str())
        .p("storyline_id", s.storyline_id.as_str())
        .p("user_id", s.user_id.as_str())
        .p("description", s.description.as_str())
        .p("embedding", embedding(s.embedding.as_deref()));
    promoted(b, s.at).query()
}

/// `macros/create.cypher` for a new Macro.
pub(super) fn create_macro_query(m: &NewMacro) -> GraphResult<Query> {
    let b = super::words::bind(
        st::CREATE_MACRO.bind(),
        super::words::DESCRIPTION,
        &m.description,
    )
    .p("anchor_key", m.anchor_key.as_str())
    .p("user_id", m.user_id.as_str())
    .p("macro_id", m.macro_id.as_str())
    .p("description", m.description.as_str())
    .p("embedding", embedding(m.embedding.as_deref()));
    promoted(b, m.at).query()
}

/// Runs a statement returning `created` and reads it (no row: nothing created).
async fn created(txn: &mut Txn, q: Query) -> GraphResult<bool> {
    let rows = txn_rows(txn, q).await?;
    match rows.first() {
        Some(row) => bool_column(row, "created"),
        None => Ok(false),
    }
}

#[async_trait]
impl StorylineStore for Neo4jGraph {
    async fn storyline_candidates(
        &self,
        user_id: &str,
        anchors: &[NodeIdentity],
        since: DateTime<Utc>,
    ) -> GraphResult<Vec<StorylineCandidate>> {
        let mut out = Vec::new();
        for anchor in anchors {
            // The label comes from the closed NodeKind enum: one statement per kind.
            let b = match anchor.kind {
                NodeKind::Person => st::CANDIDATES_PERSON.bind(),
                NodeKind::Concept => st::CANDIDATES_CONCEPT.bind(),
                NodeKind::Entity => st::CANDIDATES_ENTITY
                    .bind()
                    .p("entity_type", anchor.entity_type.as_deref().unwrap_or("")),
            };
            let q = b
                .p("name", anchor.name.as_str())
                .p("user_id", user_id)
                .p("since", since)
                .p("limit", int(CANDIDATES_PER_ANCHOR))
                .query()?;
            for r in &self.rows(q).await? {
                out.push(StorylineCandidate {
                    anchor: anchor.clone(),
                    storyline: decode::storyline(&Props::from_row(r, "storyline")?)?,
                });
            }
        }
        Ok(out)
    }

    async fn create_storyline(&self, s: &NewStoryline) -> GraphResult<Storyline> {
        self.retrying(|| async {
            let mut txn = self.begin().await?;
            let result = async {
                let rows = txn_rows(
                    &mut txn,
                    st::ANCHOR_USER
                        .bind()
                        .p("anchor_key", s.anchor_key.as_str())
                        .query()?,
                )
                .await?;
                let anchor_user = match rows.first() {
                    Some(r) => string_column(r, "user_id")?,
                    None => None,
                };
                if anchor_user.as_deref() != Some(s.user_id.as_str()) {
                    return Err(GraphError::NotFound(format!(
                        "anchor {} of user {}",
                        s.anchor_key, s.user_id
                    )));
                }
                if created(&mut txn, create_storyline_query(s)?).await? {
                    let id = s.storyline_id.as_str();
                    let keys = list(s.source_keys.iter().map(String::as_str));
                    let q = st::INCLUDE_SOURCES
                        .bind()
                        .p("storyline_id", id)
                        .p("source_keys", keys);
                    txn_rows(&mut txn, q.query()?).await?;
                    txn_rows(&mut txn, st::REFRESH.bind().p("storyline_id", id).query()?).await?;
                    let q = st::ATTACH
                        .bind()
                        .p("storyline_id", id)
                        .p("anchor_key", s.anchor_key.as_str())
                        .p("at", s.at);
                    txn_rows(&mut txn, q.query()?).await?;
                    // A later Storyline of an anchor that has a Macro joins it.
                    let q = st::JOIN_MACRO
                        .bind()
                        .p("storyline_id", id)
                        .p("anchor_key", s.anchor_key.as_str())
                        .p("at", s.at);
                    txn_rows(&mut txn, q.query()?).await?;
                }
                Ok(())
            }
            .await;
            finish(txn, result).await
        })
        .await?;
        self.storyline(&s.storyline_id)
            .await?
            .ok_or_else(|| GraphError::NotFound(format!("storyline {}", s.storyline_id)))
    }

    async fn storyline(&self, id: &str) -> GraphResult<Option<Storyline>> {
        let rows = self
            .rows(st::GET.bind().p("storyline_id", id).query()?)
            .await?;
        rows.first()
            .map(|r| decode::storyline(&Props::from_row(r, "storyline")?))
            .transpose()
    }

    async fn storyline_sources(&self, id: &str) -> GraphResult<Vec<String>> {
        let rows = self
            .rows(st::SOURCES.bind().p("storyline_id", id).query()?)
            .await?;
        rows.iter()
            .map(|r| Ok(string_column(r, "entity_key")?.unwrap_or_default()))
            .collect()
    }

    async fn storylines_for_user(&self, user_id: &str) -> GraphResult<Vec<Storyline>> {
        let rows = self
            .rows(st::FOR_USER.bind().p("user_id", user_id).query()?)
            .await?;
        rows.iter()
            .map(|r| decode::storyline(&Props::from_row(r, "storyline")?))
            .collect()
    }

    async fn create_macro(&self, m: &NewMacro) -> GraphResult<Macro> {
        self.retrying(|| async {
            let mut txn = self.begin().await?;
            let result = async {
                if created(&mut txn, create_macro_query(m)?).await? {
                    let id = m.macro_id.as_str();
                    let q = st::GROUP_MACRO
                        .bind()
                        .p("macro_id", id)
                        .p(
                            "storyline_ids",
                            list(m.storyline_ids.iter().map(String::as_str)),
                        )
                        .p("user_id", m.user_id.as_str());
                    txn_rows(&mut txn, q.query()?).await?;
                    txn_rows(
                        &mut txn,
                        st::REFRESH_MACRO.bind().p("macro_id", id).query()?,
                    )
                    .await?;
                    let q = st::ATTACH_MACRO
                        .bind()
                        .p("macro_id", id)
                        .p("anchor_key", m.anchor_key.as_str())
                        .p("at", m.at);
                    txn_rows(&mut txn, q.query()?).await?;
                }
                Ok(())
            }
            .await;
            finish(txn, result).await
        })
        .await?;
        self.macro_by_id(&m.macro_id).await?.ok_or_else(|| {
            GraphError::NotFound(format!("anchor {} of user {}", m.anchor_key, m.user_id))
        })
    }

    async fn macro_by_id(&self, id: &str) -> GraphResult<Option<Macro>> {
        let rows = self
            .rows(st::GET_MACRO.bind().p("macro_id", id).query()?)
            .await?;
        rows.first()
            .map(|r| decode::macro_(&Props::from_row(r, "macro")?))
            .transpose()
    }
}
