//! `migrate()`: the constraints and indexes of `cypher/schema/`, in a fixed order, all
//! `IF NOT EXISTS`, so it is safe at every start; then the data steps, each a no-op once
//! done: `sources/mark_unindexed` (Sources processed before the index version was
//! recorded get the version `''`, so the stale-index scan can seek them), the searched
//! words of memories written before they were stored (`words.rs`), and when the notes
//! and facts written before they knew it were said (`notes/fill_said_at_*`,
//! `facts/fill_said_at`).

use std::time::Duration;

use async_trait::async_trait;
use cosmo_core::graph::{GraphError, GraphResult, StoreAdmin};
use neo4rs::Neo4jErrorKind;

use super::Neo4jGraph;
use super::bolt::{int, int_column};
use super::cypher::{DIMENSIONS_PLACEHOLDER, Statement, facts, notes, schema};

/// The vector dimensions Neo4j 5 accepts (`vector.dimensions`: 1 to 4096).
const MAX_DIMENSIONS: usize = 4096;

pub fn check_dimensions(dimensions: usize) -> anyhow::Result<()> {
    anyhow::ensure!(
        (1..=MAX_DIMENSIONS).contains(&dimensions),
        "models.embedding_dimensions = {dimensions}: Neo4j vector indexes take 1 to {MAX_DIMENSIONS}"
    );
    Ok(())
}

/// The statement's text with the configured vector dimension in place of the
/// placeholder: the one value not sent as a parameter, because the Cypher manual
/// documents the index `OPTIONS` as a map literal. It is a checked integer from the
/// configuration, never input.
pub fn text_for(statement: &Statement, dimensions: usize) -> anyhow::Result<String> {
    check_dimensions(dimensions)?;
    Ok(statement
        .text
        .replace(DIMENSIONS_PLACEHOLDER, &dimensions.to_string()))
}

const RACE_ATTEMPTS: u64 = 5;

/// Memories a data step writes per transaction.
const FILL_BATCH: usize = 2_000;

impl Neo4jGraph {
    /// Runs a data step (a statement taking `$limit` and returning `filled`) until a
    /// batch fills fewer than it was allowed to.
    async fn fill_in_batches(&self, statement: &'static Statement) -> GraphResult<()> {
        loop {
            let filled = self
                .retrying(|| async {
                    let q = statement.bind().p("limit", int(FILL_BATCH)).query()?;
                    match self.rows(q).await?.first() {
                        Some(row) => int_column(row, "filled"),
                        None => Ok(0),
                    }
                })
                .await?;
            if filled < FILL_BATCH as i64 {
                return Ok(());
            }
        }
    }
}

/// A schema command that failed because a concurrent one created the same rule.
fn lost_race(e: &neo4rs::Error) -> bool {
    match e {
        neo4rs::Error::Neo4j(n) => {
            n.code().contains("AlreadyExists") || matches!(n.kind(), Neo4jErrorKind::Transient)
        }
        _ => false,
    }
}

#[async_trait]
impl StoreAdmin for Neo4jGraph {
    fn backend(&self) -> &'static str {
        "neo4j"
    }

    async fn migrate(&self) -> GraphResult<()> {
        for statement in schema::ALL {
            let text = text_for(statement, self.dimensions)?;
            let mut tries = 0;
            loop {
                tries += 1;
                let query = statement.bind().query_with_text(text.clone())?;
                match self.graph.run(query).await {
                    Ok(_) => break,
                    // Another process created the same rule at the same moment: with
                    // IF NOT EXISTS, running it again is a no-op.
                    Err(e) if tries < RACE_ATTEMPTS && lost_race(&e) => {
                        tokio::time::sleep(Duration::from_millis(200 * tries)).await;
                    }
                    Err(e) => {
                        return Err(GraphError::Backend(anyhow::anyhow!(
                            "applying cypher/{}: {e}",
                            statement.file
                        )));
                    }
                }
            }
        }
        self.mark_unindexed().await?;
        self.fill_words().await?;
        for statement in [
            &notes::FILL_SAID_AT_NODES,
            &notes::FILL_SAID_AT_RELATIONSHIPS,
            &facts::FILL_SAID_AT,
        ] {
            self.fill_in_batches(statement).await?;
        }
        Ok(())
    }

    async fn ping(&self) -> GraphResult<()> {
        self.rows(super::cypher::PING.bind().query()?)
            .await
            .map(drop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dimension_is_substituted_only_where_it_belongs() {
        let text = text_for(&schema::SOURCE_EMBEDDING, 384).unwrap();
        assert!(text.contains("`vector.dimensions`: 384,"));
        assert!(!text.contains(DIMENSIONS_PLACEHOLDER));
        assert_eq!(
            text_for(&schema::SOURCE_USER, 384).unwrap(),
            schema::SOURCE_USER.text
        );
        assert!(text_for(&schema::SOURCE_EMBEDDING, 0).is_err());
        assert!(text_for(&schema::SOURCE_EMBEDDING, 4097).is_err());
    }

    #[test]
    fn constraints_come_before_indexes() {
        let first_index = schema::ALL
            .iter()
            .position(|s| s.text.contains("INDEX"))
            .unwrap();
        assert!(
            schema::ALL[first_index..]
                .iter()
                .all(|s| !s.text.contains("CONSTRAINT"))
        );
    }
}
