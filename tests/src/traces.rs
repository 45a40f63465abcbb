//! Looking for a word everywhere in a SQLite file (for erasure tests): every column of
//! every table (FTS5 shadow tables included), every term of every full-text index, and
//! the raw bytes of the database and WAL files.

use std::path::Path;

// Table, column and index names below come from `sqlite_schema`, never from input.
use sqlx::{AssertSqlSafe, Row, SqlitePool};

/// `(table, column)` of every stored value holding `word` (case-insensitive).
pub async fn columns_holding(pool: &SqlitePool, word: &str) -> Vec<(String, String)> {
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'
         ORDER BY name",
    )
    .fetch_all(pool)
    .await
    .expect("list tables");
    let mut found = Vec::new();
    for table in tables {
        let columns: Vec<String> =
            sqlx::query(AssertSqlSafe(format!("PRAGMA table_info(\"{table}\")")))
                .fetch_all(pool)
                .await
                .expect("list columns")
                .iter()
                .map(|r| r.get::<String, _>("name"))
                .collect();
        for column in columns {
            // Blobs are searched byte for byte, as text.
            let sql = format!(
                "SELECT count(*) FROM \"{table}\" WHERE instr(lower(CAST(\"{column}\" AS TEXT)), $1) > 0"
            );
            let n: i64 = sqlx::query_scalar(AssertSqlSafe(sql))
                .bind(word.to_lowercase())
                .fetch_one(pool)
                .await
                .unwrap_or_else(|e| panic!("scanning {table}.{column}: {e}"));
            if n > 0 {
                found.push((table.clone(), column));
            }
        }
    }
    found
}

/// `(index, term)` of every full-text term starting with `prefix` (lower case), read
/// through `fts5vocab`: the index's own term list, whatever its page layout.
pub async fn fts_terms_starting(pool: &SqlitePool, prefix: &str) -> Vec<(String, String)> {
    let indexes: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%fts5(%'
         ORDER BY name",
    )
    .fetch_all(pool)
    .await
    .expect("list fts tables");
    let mut conn = pool.acquire().await.expect("connection");
    let mut found = Vec::new();
    for index in indexes {
        let vocab = format!("vocab_{index}");
        sqlx::query(AssertSqlSafe(format!(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.\"{vocab}\" USING fts5vocab(main, \"{index}\", 'row')"
        )))
        .execute(&mut *conn)
        .await
        .expect("fts5vocab");
        let terms: Vec<String> = sqlx::query_scalar(AssertSqlSafe(format!(
            "SELECT term FROM temp.\"{vocab}\" WHERE substr(term, 1, length($1)) = $1"
        )))
        .bind(prefix.to_lowercase())
        .fetch_all(&mut *conn)
        .await
        .expect("read vocabulary");
        found.extend(terms.into_iter().map(|t| (index.clone(), t)));
    }
    found
}

/// Moves the WAL into the database file and empties it; fails if a reader prevents it.
pub async fn checkpoint(pool: &SqlitePool) {
    let row = sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
        .fetch_one(pool)
        .await
        .expect("checkpoint");
    let busy: i64 = row.get(0);
    assert_eq!(
        busy, 0,
        "the checkpoint could not complete (a reader is active)"
    );
}

/// The files of a SQLite database (`path`, its `-wal`) that hold `word` in their raw
/// bytes, in lower or title case or as written.
pub fn files_holding(path: &Path, word: &str) -> Vec<String> {
    let mut title = word.to_lowercase();
    if let Some(first) = title.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    let needles = [
        word.to_owned(),
        word.to_lowercase(),
        title,
        word.to_uppercase(),
    ];
    let mut found = Vec::new();
    for suffix in ["", "-wal"] {
        let file = format!("{}{suffix}", path.display());
        let Ok(bytes) = std::fs::read(&file) else {
            continue;
        };
        if needles
            .iter()
            .any(|n| bytes.windows(n.len()).any(|w| w == n.as_bytes()))
        {
            found.push(file);
        }
    }
    found
}
