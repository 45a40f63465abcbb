//! The words of a memory's searched columns, stored on it beside its text
//! (`<column>_terms`, `<column>_counts`, `<column>_len`, from
//! [`text_rank::column_words`]) by every statement that writes the text, so full-text
//! search can rank with [`text_rank`] as the SQLite store does. One column per triple:
//! some writes know only the column they change (a node's description).

use cosmo_core::graph::text_rank;
use neo4rs::BoltType;

use super::bolt::list;
use super::cypher::Bind;

pub(super) type Names = [&'static str; 3];

pub(super) const SUMMARY: Names = ["summary_terms", "summary_counts", "summary_len"];
pub(super) const CONTENT: Names = ["content_terms", "content_counts", "content_len"];
pub(super) const KEYWORDS: Names = ["keywords_terms", "keywords_counts", "keywords_len"];
pub(super) const NAME: Names = ["name_terms", "name_counts", "name_len"];
pub(super) const DESCRIPTION: Names =
    ["description_terms", "description_counts", "description_len"];
pub(super) const TEXT: Names = ["text_terms", "text_counts", "text_len"];
pub(super) const VALUE: Names = ["value_terms", "value_counts", "value_len"];

/// One column's words as Bolt values: terms, counts, length.
pub(super) fn values(text: &str) -> [BoltType; 3] {
    let w = text_rank::column_words(text);
    [list(w.terms), list(w.counts), BoltType::from(w.len)]
}

/// Binds the words of `text` under `names`.
pub(super) fn bind(b: Bind, names: Names, text: &str) -> Bind {
    let [terms, counts, len] = values(text);
    b.p(names[0], terms).p(names[1], counts).p(names[2], len)
}

/// A Source's keywords as searched: the JSON text the SQLite store keeps them as.
pub(super) fn keywords_text(keywords: &[String]) -> String {
    serde_json::to_string(keywords).unwrap_or_default()
}

/// Memories per batch when filling in words at migration.
const FILL_BATCH: usize = 500;

impl super::Neo4jGraph {
    /// Stores the searched words of every memory written before they were stored, in
    /// batches (safe at every start: a memory that has them is not read again; one
    /// whose text changed meanwhile is left for the next batch or start).
    pub(super) async fn fill_words(&self) -> cosmo_core::graph::GraphResult<()> {
        use super::cypher::words as w;
        // (read, write, columns, whether the last column is a Source's keywords list)
        let kinds: [(
            &super::cypher::Statement,
            &super::cypher::Statement,
            usize,
            bool,
        ); 5] = [
            (&w::MISSING_SOURCE, &w::SET_SOURCE, 3, true),
            (&w::MISSING_NODE, &w::SET_NODE, 2, false),
            (&w::MISSING_STORYLINE, &w::SET_STORYLINE, 1, false),
            (&w::MISSING_MACRO, &w::SET_MACRO, 1, false),
            (&w::MISSING_FACT, &w::SET_FACT, 2, false),
        ];
        const NAMES: [[&str; 4]; 3] = [
            ["c0", "c0_terms", "c0_counts", "c0_len"],
            ["c1", "c1_terms", "c1_counts", "c1_len"],
            ["c2", "c2_terms", "c2_counts", "c2_len"],
        ];
        for (missing, set, columns, keywords_last) in kinds {
            let mut filled = 0i64;
            loop {
                let found = self
                    .retrying(|| async {
                        let q = missing
                            .bind()
                            .p("limit", super::bolt::int(FILL_BATCH))
                            .query()?;
                        self.rows(q).await
                    })
                    .await?;
                let mut rows = Vec::with_capacity(found.len());
                for row in &found {
                    let key = super::hierarchy::required(row, "key")?;
                    let mut fields: Vec<(&'static str, BoltType)> = vec![("key", key.into())];
                    for (c, names) in NAMES.iter().enumerate().take(columns) {
                        let (text, read): (String, BoltType) = if keywords_last && c == 2 {
                            let keywords = super::bolt::strings_column(row, names[0])?;
                            (keywords_text(&keywords), list(keywords))
                        } else {
                            let text =
                                super::bolt::string_column(row, names[0])?.unwrap_or_default();
                            (text.clone(), text.into())
                        };
                        let [terms, counts, len] = values(&text);
                        fields.extend([
                            (names[0], read),
                            (names[1], terms),
                            (names[2], counts),
                            (names[3], len),
                        ]);
                    }
                    rows.push(set.row(fields)?);
                }
                if rows.is_empty() {
                    break;
                }
                let batch = rows.len();
                let rows = BoltType::List(rows.into());
                let stored = self
                    .retrying(|| async {
                        let q = set.bind().p("rows", rows.clone()).query()?;
                        let out = self.rows(q).await?;
                        match out.first() {
                            Some(row) => super::bolt::int_column(row, "stored"),
                            None => Ok(0),
                        }
                    })
                    .await?;
                filled += stored;
                // A short batch was the last; one that stored nothing (every text
                // changed meanwhile) is left for the next start rather than re-read.
                if batch < FILL_BATCH || stored == 0 {
                    break;
                }
            }
            if filled > 0 {
                tracing::info!(
                    statement = missing.file,
                    filled,
                    "stored the searched words of older memories"
                );
            }
        }
        Ok(())
    }
}
