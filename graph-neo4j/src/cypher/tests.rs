//! Offline checks of the Cypher files against the constants that load them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use regex::Regex;

use super::{DIMENSIONS_PLACEHOLDER, Statement, all};

fn cypher_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../cypher")
}

fn cypher_files(dir: &Path, prefix: &str, out: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).expect("read cypher/") {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = format!("{prefix}{name}");
        if entry.file_type().unwrap().is_dir() {
            cypher_files(&entry.path(), &format!("{path}/"), out);
        } else if name.ends_with(".cypher") {
            out.insert(path);
        }
    }
}

/// The text without `//` comments, string literals and backquoted names.
fn code(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '/' if chars.peek() == Some(&'/') => break,
                '\'' | '"' | '`' => {
                    for d in chars.by_ref() {
                        if d == c {
                            break;
                        }
                    }
                    out.push_str("''");
                }
                c => out.push(c),
            }
        }
        out.push('\n');
    }
    out
}

fn names(re: &Regex, text: &str) -> BTreeSet<String> {
    re.captures_iter(&code(text))
        .map(|c| c[1].to_owned())
        .collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

#[test]
fn every_cypher_file_is_loaded_by_exactly_one_constant() {
    let mut on_disk = BTreeSet::new();
    cypher_files(&cypher_dir(), "", &mut on_disk);
    let mut loaded: BTreeMap<&str, usize> = BTreeMap::new();
    for s in all() {
        *loaded.entry(s.file).or_default() += 1;
    }
    let twice: Vec<_> = loaded.iter().filter(|(_, n)| **n > 1).collect();
    assert!(
        twice.is_empty(),
        "files loaded by several constants: {twice:?}"
    );
    let loaded: BTreeSet<String> = loaded.keys().map(|f| (*f).to_owned()).collect();
    assert_eq!(on_disk, loaded, "cypher/ files and constants differ");
}

#[test]
fn every_statement_has_code() {
    for s in all() {
        assert!(
            !code(s.text).trim().is_empty(),
            "cypher/{} is empty",
            s.file
        );
        assert!(
            !code(s.text).contains(';'),
            "cypher/{}: one statement, no `;`",
            s.file
        );
    }
}

#[test]
fn parameters_are_exactly_the_ones_the_code_binds() {
    let re = Regex::new(r"\$([A-Za-z_][A-Za-z0-9_]*)").unwrap();
    for s in all() {
        assert_eq!(
            names(&re, s.text),
            set(s.params),
            "cypher/{}: $parameters in the file vs. declared",
            s.file
        );
    }
}

#[test]
fn row_fields_are_exactly_the_ones_the_code_builds() {
    let re = Regex::new(r"\brow\.([A-Za-z_][A-Za-z0-9_]*)").unwrap();
    for s in all() {
        let used = names(&re, s.text);
        assert_eq!(used, set(s.row_fields), "cypher/{}: row fields", s.file);
        let unwinds_rows = code(s.text).contains("UNWIND $rows AS row");
        assert_eq!(
            unwinds_rows,
            !s.row_fields.is_empty(),
            "cypher/{}: rows are read with `UNWIND $rows AS row`",
            s.file
        );
    }
}

#[test]
fn only_the_vector_dimension_is_substituted() {
    let placeholder = Regex::new(r"\{\s*[A-Za-z_]*\s*\}").unwrap();
    for s in all() {
        let found: Vec<String> = placeholder
            .find_iter(&code(s.text))
            .map(|m| m.as_str().to_owned())
            .collect();
        let is_vector = s.text.contains("CREATE VECTOR INDEX");
        if is_vector {
            assert!(s.file.starts_with("schema/"), "cypher/{}", s.file);
            assert_eq!(found, vec![DIMENSIONS_PLACEHOLDER], "cypher/{}", s.file);
        } else {
            assert!(
                found.is_empty(),
                "cypher/{}: placeholders {found:?}",
                s.file
            );
        }
    }
}

#[test]
fn schema_statements_are_idempotent_and_nothing_needs_plugins() {
    for s in all() {
        let code = code(s.text);
        if s.file.starts_with("schema/") {
            assert!(code.contains(" IF NOT EXISTS"), "cypher/{}", s.file);
            assert!(
                s.params.is_empty(),
                "cypher/{}: no parameters in schema commands",
                s.file
            );
        }
        for banned in ["apoc.", "gds.", "CYPHER 25", "SEARCH ", "$("] {
            assert!(!code.contains(banned), "cypher/{}: `{banned}`", s.file);
        }
    }
}

#[test]
fn binding_checks_the_declared_names() {
    let s: &'static Statement = &super::sources::GET;
    assert!(s.bind().p("entity_key", "k").query().is_ok());
    assert!(s.bind().query().is_err(), "a missing parameter");
    assert!(
        s.bind().p("entity_key", "k").p("other", 1).query().is_err(),
        "an undeclared parameter"
    );
    let rows = &super::extraction::NODE_NOTES;
    assert!(rows.row([("target", "x".into())]).is_err());
}
