//! The three signals of hybrid retrieval on Neo4j (`cypher/search/`), one statement per
//! signal and [`Target`] (the label is fixed in the file):
//!
//! * vector: exact cosine over the caller's own candidates, found through indexed
//!   properties (`user_id`, or the `readable_by` links of the Sources a user may read).
//!   A top-k from the shared vector index filtered to the user afterwards could miss
//!   their best matches whenever other users' vectors fill the top k, and an over-fetch
//!   would still need an exact fallback; a user's memories are few enough to score them
//!   all, as the SQLite store does. Scores are the plain cosine in double precision,
//!   computed as SQLite computes it.
//! * text: the full-text indexes, queried with each plain word escaped and quoted for
//!   Lucene ([`lucene_query`]); the index streams every match, so the scope filter
//!   after it loses nothing. Scores are Lucene's relevance.
//! * neighbours: graph links from the seed nodes, scored as the trait says.

use neo4rs::{BoltType, Row};

use super::super::Neo4jGraph;
use super::super::bolt::{column, embedding, int, int_column, list, opt, strings_column};
use super::super::cypher::{Bind, Statement, search as sx};
use super::super::hierarchy::required;
use super::distinct;
use crate::domain::{Hit, Neighbour, SearchScope, Target};
use crate::graph::{GraphError, GraphResult};

/// How many candidates the single-precision pre-ranking keeps beyond `limit` before the
/// exact scores decide (near-ties at the cut may order differently in single precision).
const CANDIDATE_MARGIN: usize = 16;

fn vector_statement(target: Target) -> &'static Statement {
    match target {
        Target::Source => &sx::VECTOR_SOURCE,
        Target::Node => &sx::VECTOR_NODE,
        Target::Storyline => &sx::VECTOR_STORYLINE,
        Target::Macro => &sx::VECTOR_MACRO,
        Target::Fact => &sx::VECTOR_FACT,
    }
}

fn text_statement(target: Target) -> &'static Statement {
    match target {
        Target::Source => &sx::TEXT_SOURCE,
        Target::Node => &sx::TEXT_NODE,
        Target::Storyline => &sx::TEXT_STORYLINE,
        Target::Macro => &sx::TEXT_MACRO,
        Target::Fact => &sx::TEXT_FACT,
    }
}

fn neighbours_statement(target: Target) -> &'static Statement {
    match target {
        Target::Source => &sx::NEIGHBOURS_SOURCE,
        Target::Node => &sx::NEIGHBOURS_NODE,
        Target::Storyline => &sx::NEIGHBOURS_STORYLINE,
        Target::Macro => &sx::NEIGHBOURS_MACRO,
        Target::Fact => &sx::NEIGHBOURS_FACT,
    }
}

/// The fields each full-text index is queried on, with the SQLite store's FTS5 column
/// weights as Lucene boosts (`None`: weight 1). A Concept's or Entity's `name` is its
/// normalised display name.
fn text_fields(target: Target) -> &'static [(&'static str, Option<&'static str>)] {
    match target {
        Target::Source => &[
            ("summary", Some("2")),
            ("content", None),
            ("keywords", Some("1.5")),
        ],
        Target::Node => &[
            ("name", Some("3")),
            ("display_name", Some("3")),
            ("description", None),
        ],
        Target::Storyline | Target::Macro => &[("description", None)],
        Target::Fact => &[("text", None), ("value", Some("2"))],
    }
}

/// Backslash-escapes every character Lucene's classic query syntax gives a meaning to,
/// so a word is only ever a word.
pub(super) fn escape_lucene(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if matches!(
            c,
            '\\' | '+'
                | '-'
                | '!'
                | '('
                | ')'
                | ':'
                | '^'
                | '['
                | ']'
                | '"'
                | '{'
                | '}'
                | '~'
                | '*'
                | '?'
                | '|'
                | '&'
                | '/'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A Lucene query matching any of the terms in any of the target's fields: each term an
/// escaped, quoted phrase (a word with an apostrophe or hyphen stays one phrase, as in
/// the SQLite store's quoted FTS5 terms). `None` when no term has a letter or digit.
pub(super) fn lucene_query(target: Target, terms: &[String]) -> Option<String> {
    let mut clauses = Vec::new();
    for term in terms.iter().map(|t| t.trim()) {
        if !term.chars().any(char::is_alphanumeric) {
            continue;
        }
        let phrase = format!("\"{}\"", escape_lucene(term));
        for (field, boost) in text_fields(target) {
            clauses.push(match boost {
                Some(boost) => format!("{field}:{phrase}^{boost}"),
                None => format!("{field}:{phrase}"),
            });
        }
    }
    (!clauses.is_empty()).then(|| clauses.join(" OR "))
}

/// Binds the scope every search statement takes.
fn scoped(b: Bind, scope: &SearchScope) -> Bind {
    b.p("user_id", scope.user_id.as_str())
        .p("include_archived", scope.include_archived)
        .p("since", opt(scope.since))
        .p("until", opt(scope.until))
}

fn float_column(row: &Row, name: &str) -> GraphResult<f64> {
    match column(row, name)? {
        BoltType::Float(f) => Ok(f.value),
        BoltType::Integer(i) => Ok(i.value as f64),
        other => Err(GraphError::Backend(anyhow::anyhow!(
            "reading `{name}` from Neo4j: expected a number, got {other:?}"
        ))),
    }
}

fn hit(row: &Row) -> GraphResult<Hit> {
    Ok(Hit {
        key: required(row, "key")?,
        score: float_column(row, "score")?,
        passage: None,
    })
}

/// A vector hit over Sources: `ordinal` names the best passage, -1 the summary.
fn source_hit(row: &Row) -> GraphResult<Hit> {
    let ordinal = int_column(row, "ordinal")?;
    Ok(Hit {
        passage: u32::try_from(ordinal).ok(),
        ..hit(row)?
    })
}

impl Neo4jGraph {
    pub(super) async fn vector_search_impl(
        &self,
        scope: &SearchScope,
        target: Target,
        query: &[f32],
        limit: usize,
    ) -> GraphResult<Vec<Hit>> {
        let norm = query
            .iter()
            .map(|x| f64::from(*x) * f64::from(*x))
            .sum::<f64>()
            .sqrt();
        // A zero (or non-finite) query vector has no cosine with anything.
        if limit == 0 || norm == 0.0 || !norm.is_finite() {
            return Ok(Vec::new());
        }
        let q = scoped(vector_statement(target).bind(), scope)
            .p("embedding", embedding(Some(query)))
            .p("norm", norm)
            .p("candidates", int(limit.saturating_add(CANDIDATE_MARGIN)))
            .p("limit", int(limit));
        let decode = if target == Target::Source {
            source_hit
        } else {
            hit
        };
        self.rows(q.query()?).await?.iter().map(decode).collect()
    }

    pub(super) async fn text_search_impl(
        &self,
        scope: &SearchScope,
        target: Target,
        terms: &[String],
        limit: usize,
    ) -> GraphResult<Vec<Hit>> {
        let Some(query) = lucene_query(target, terms) else {
            return Ok(Vec::new());
        };
        let q = scoped(text_statement(target).bind(), scope)
            .p("query", query)
            .p("limit", int(limit));
        self.rows(q.query()?).await?.iter().map(hit).collect()
    }

    pub(super) async fn neighbours_impl(
        &self,
        scope: &SearchScope,
        target: Target,
        seeds: &[String],
        limit: usize,
    ) -> GraphResult<Vec<Neighbour>> {
        if seeds.is_empty() {
            return Ok(Vec::new());
        }
        let q = scoped(neighbours_statement(target).bind(), scope)
            .p("seeds", list(distinct(seeds)))
            .p("limit", int(limit));
        self.rows(q.query()?)
            .await?
            .iter()
            .map(|r| {
                let mut via = strings_column(r, "via")?;
                via.sort_unstable();
                via.dedup();
                Ok(Neighbour {
                    key: required(r, "key")?,
                    score: float_column(r, "score")?,
                    via,
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(t: &[&str]) -> Vec<String> {
        t.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn lucene_syntax_is_escaped() {
        assert_eq!(escape_lucene("budget"), "budget");
        assert_eq!(
            escape_lucene(r#"a+b-c!(d):^[e]"{f}~*?|&/\"#),
            r#"a\+b\-c\!\(d\)\:\^\[e\]\"\{f\}\~\*\?\|\&\/\\"#
        );
        assert_eq!(escape_lucene("o'brien AND co-op"), r"o'brien AND co\-op");
    }

    #[test]
    fn every_term_is_a_quoted_phrase_in_every_field() {
        assert_eq!(
            lucene_query(Target::Fact, &terms(&["budget", "say \"hi\""])).unwrap(),
            r#"text:"budget" OR value:"budget"^2 OR text:"say \"hi\"" OR value:"say \"hi\""^2"#
        );
        assert_eq!(
            lucene_query(Target::Storyline, &terms(&["OR", "NOT"])).unwrap(),
            r#"description:"OR" OR description:"NOT""#
        );
        assert_eq!(
            lucene_query(Target::Source, &terms(&["x"])).unwrap(),
            r#"summary:"x"^2 OR content:"x" OR keywords:"x"^1.5"#
        );
    }

    #[test]
    fn no_word_no_query() {
        assert_eq!(lucene_query(Target::Node, &[]), None);
        assert_eq!(
            lucene_query(Target::Node, &terms(&["  ", "--", "\"*\""])),
            None
        );
    }
}
