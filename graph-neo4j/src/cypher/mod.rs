//! Every Cypher statement the Neo4j store runs, one file each under `cypher/` at the
//! repository root, loaded at compile time. Each constant also lists the `$parameters`
//! the Rust code binds and the `row.` fields of its `UNWIND $rows AS row` maps; binding
//! checks both at run time, and the tests check them against the files.

use neo4rs::{BoltMap, BoltString, BoltType, Query};

pub mod erasure;
pub mod extraction;
pub mod facts;
pub mod lifecycle;
pub mod links;
pub mod maintenance;
pub mod notes;
pub mod owner;
pub mod reads;
pub mod schema;
pub mod search;
pub mod sources;
pub mod stats;
pub mod storylines;
pub mod words;

#[cfg(test)]
mod tests;

/// One Cypher statement and the names the code binds for it.
#[derive(Debug)]
pub struct Statement {
    /// Path under `cypher/`.
    pub file: &'static str,
    pub text: &'static str,
    /// The `$parameters` the statement uses, all bound by the code.
    pub params: &'static [&'static str],
    /// The fields of each `row` map of `UNWIND $rows AS row` (empty without rows).
    pub row_fields: &'static [&'static str],
}

/// `statement!("dir/file.cypher", [param, …])` or with `rows: [field, …]`.
macro_rules! statement {
    ($file:literal, [$($param:ident),* $(,)?] $(, rows: [$($field:ident),* $(,)?])? $(,)?) => {
        $crate::cypher::Statement {
            file: $file,
            text: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../cypher/", $file)),
            params: &[$(stringify!($param)),*],
            row_fields: &[$($(stringify!($field)),*)?],
        }
    };
}
use cosmo_core::graph::{GraphError, GraphResult};
pub(crate) use statement;

/// The placeholder the vector index statements carry for the configured dimension.
pub const DIMENSIONS_PLACEHOLDER: &str = "{dimensions}";

/// Health check.
pub const PING: Statement = statement!("health/ping.cypher", []);

/// Every statement, for the tests.
pub fn all() -> Vec<&'static Statement> {
    let mut all = vec![&PING];
    for group in [
        schema::ALL,
        sources::ALL,
        extraction::ALL,
        owner::ALL,
        storylines::ALL,
        reads::ALL,
        links::ALL,
        stats::ALL,
        lifecycle::ALL,
        maintenance::ALL,
        search::ALL,
        notes::ALL,
        notes::FILLS,
        notes::BY_SOURCE,
        facts::ALL,
        erasure::ALL,
        words::ALL,
    ] {
        all.extend(group.iter().copied());
    }
    all
}

impl Statement {
    /// Starts binding this statement's parameters.
    pub fn bind(&'static self) -> Bind {
        Bind {
            statement: self,
            params: Vec::with_capacity(self.params.len()),
        }
    }

    /// A `row` map for `UNWIND $rows AS row`; its keys must be exactly `row_fields`.
    pub fn row(
        &self,
        fields: impl IntoIterator<Item = (&'static str, BoltType)>,
    ) -> GraphResult<BoltType> {
        let fields: Vec<(&'static str, BoltType)> = fields.into_iter().collect();
        let mut keys: Vec<&str> = fields.iter().map(|(k, _)| *k).collect();
        keys.sort_unstable();
        let mut declared = self.row_fields.to_vec();
        declared.sort_unstable();
        if keys != declared {
            return Err(mismatch(self.file, "row fields", &keys, &declared));
        }
        Ok(BoltType::Map(
            fields
                .into_iter()
                .map(|(k, v)| (BoltString::from(k), v))
                .collect::<BoltMap>(),
        ))
    }
}

/// A statement with some of its parameters bound.
#[derive(Debug)]
pub struct Bind {
    statement: &'static Statement,
    params: Vec<(&'static str, BoltType)>,
}

impl Bind {
    pub fn p(mut self, name: &'static str, value: impl Into<BoltType>) -> Self {
        self.params.push((name, value.into()));
        self
    }

    /// The query, if exactly the declared parameters are bound.
    pub fn query(self) -> GraphResult<Query> {
        let text = self.statement.text.to_owned();
        self.query_with_text(text)
    }

    /// Like [`Self::query`] with the statement's text rewritten (the vector dimension).
    pub fn query_with_text(self, text: String) -> GraphResult<Query> {
        let mut bound: Vec<&str> = self.params.iter().map(|(k, _)| *k).collect();
        bound.sort_unstable();
        let mut declared = self.statement.params.to_vec();
        declared.sort_unstable();
        if bound != declared {
            return Err(mismatch(
                self.statement.file,
                "parameters",
                &bound,
                &declared,
            ));
        }
        Ok(neo4rs::query(&text).params(self.params))
    }
}

fn mismatch(file: &str, what: &str, bound: &[&str], declared: &[&str]) -> GraphError {
    GraphError::Backend(anyhow::anyhow!(
        "cypher/{file}: bound {what} {bound:?} differ from the declared {declared:?}"
    ))
}
