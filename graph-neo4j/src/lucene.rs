//! Lucene queries for the full-text indexes: the query's words escaped and quoted, one
//! clause per word and field, with the SQLite store's FTS5 column weights as boosts.
//! Values are escaped, never passed as query syntax.

use cosmo_core::domain::Target;

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
