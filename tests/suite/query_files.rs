//! The SQL statements kept in files (`<crate>/queries/`, loaded with
//! `cosmo_core::query_file!`): every file is loaded by exactly one call, and every call
//! names a file that holds one statement.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The crates that run SQL.
const CRATES: [&str; 3] = ["graph-sqlite", "queue", "shared"];

fn files_under(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files_under(&path, ext, out);
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
}

/// The file names each `query_file!("…")` call of `src` loads, with how often.
fn loaded(src: &Path) -> BTreeMap<String, usize> {
    let mut sources = Vec::new();
    files_under(src, "rs", &mut sources);
    let mut loaded = BTreeMap::new();
    for file in sources {
        let text = std::fs::read_to_string(&file).unwrap();
        for call in text.split("query_file!(").skip(1) {
            // rustfmt may break the call after its parenthesis.
            let Some(literal) = call.trim_start().strip_prefix('"') else {
                continue;
            };
            let name = literal.split('"').next().unwrap().to_owned();
            *loaded.entry(name).or_insert(0) += 1;
        }
    }
    loaded
}

#[test]
fn every_sql_file_is_loaded_once_and_holds_one_statement() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = 0;
    for krate in CRATES {
        let queries = root.join(krate).join("queries");
        let mut sql = Vec::new();
        files_under(&queries, "sql", &mut sql);
        let mut loaded = loaded(&root.join(krate).join("src"));
        for file in &sql {
            let name = file
                .strip_prefix(&queries)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let text = std::fs::read_to_string(file).unwrap();
            let statement = text.trim().trim_end_matches(';');
            assert!(
                !statement.is_empty() && !statement.contains(';'),
                "{krate}/queries/{name} holds one statement"
            );
            assert_eq!(
                loaded.remove(&name),
                Some(1),
                "{krate}/queries/{name} is loaded by exactly one query_file! call"
            );
            files += 1;
        }
        assert!(
            loaded.is_empty(),
            "{krate}: query_file! calls without a file: {loaded:?}"
        );
    }
    assert!(files > 0, "the crates keep their SQL in files");
}
