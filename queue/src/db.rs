//! The relational database behind the queue and the directory: one SQLite file (the
//! embedded default) or PostgreSQL (production), chosen by `database.url`.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use cosmo_core::query_file;
use sqlx::postgres::PgPoolOptions;
use sqlx::{PgPool, SqlitePool};

/// A pool on one of the two supported databases.
#[derive(Debug, Clone)]
pub enum Db {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// Runs the same expression against whichever pool `db` holds. The SQL it runs must be
/// portable: `$n` parameters, `ON CONFLICT`, no dialect-only functions.
#[doc(hidden)]
#[macro_export]
macro_rules! __on_db {
    ($db:expr, $pool:ident => $body:expr) => {
        match $db {
            $crate::db::Db::Sqlite($pool) => $body,
            $crate::db::Db::Postgres($pool) => $body,
        }
    };
}
pub use crate::__on_db as on_db;

/// Executes a statement built from `pool` on whichever database `db` holds; returns the
/// number of rows it changed.
#[doc(hidden)]
#[macro_export]
macro_rules! __execute_on {
    ($db:expr, $pool:ident => $query:expr) => {
        match $db {
            $crate::db::Db::Sqlite($pool) => $query.execute($pool).await.map(|r| r.rows_affected()),
            $crate::db::Db::Postgres($pool) => {
                $query.execute($pool).await.map(|r| r.rows_affected())
            }
        }
    };
}
pub use crate::__execute_on as execute_on;

/// Where a database URL points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DbUrl {
    /// `sqlite://path/to/file.db` (relative) or `sqlite:///abs/path.db`.
    Sqlite(PathBuf),
    Postgres(String),
}

impl DbUrl {
    pub fn parse(url: &str) -> anyhow::Result<Self> {
        if let Some(path) = url
            .strip_prefix("sqlite://")
            .or_else(|| url.strip_prefix("sqlite:"))
        {
            let path = path.split('?').next().unwrap_or_default();
            anyhow::ensure!(
                !path.is_empty(),
                "database.url `{url}` names no SQLite file"
            );
            Ok(Self::Sqlite(PathBuf::from(path)))
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Ok(Self::Postgres(url.to_owned()))
        } else {
            anyhow::bail!(
                "database.url must start with sqlite:// or postgres:// (got `{}`)",
                redact(url)
            )
        }
    }
}

impl Db {
    /// A pool on `url` of at most `max_connections`; a PostgreSQL connection is waited
    /// for at most `acquire_timeout`.
    pub async fn connect(
        url: &str,
        max_connections: u32,
        acquire_timeout: Duration,
    ) -> anyhow::Result<Self> {
        Ok(match DbUrl::parse(url)? {
            DbUrl::Sqlite(path) => {
                Self::Sqlite(cosmo_graph_sqlite::open_pool(&path, max_connections).await?)
            }
            DbUrl::Postgres(url) => Self::Postgres(
                PgPoolOptions::new()
                    .max_connections(max_connections)
                    .acquire_timeout(acquire_timeout)
                    .connect(&url)
                    .await
                    .with_context(|| format!("connecting to PostgreSQL at {}", redact(&url)))?,
            ),
        })
    }

    pub fn kind(&self) -> &'static str {
        match self {
            Self::Sqlite(_) => "sqlite",
            Self::Postgres(_) => "postgres",
        }
    }

    pub async fn ping(&self) -> anyhow::Result<()> {
        execute_on!(self, pool => sqlx::query(query_file!("db/ping.sql")))?;
        Ok(())
    }
}

/// A URL fit for logs: the password replaced by `***`.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let creds = &url[scheme + 3..at];
            match creds.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..scheme + 3], &url[at..]),
                None => url.to_owned(),
            }
        }
        _ => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_name_their_database() {
        assert_eq!(
            DbUrl::parse("sqlite://data/cosmo.db").unwrap(),
            DbUrl::Sqlite("data/cosmo.db".into())
        );
        assert_eq!(
            DbUrl::parse("sqlite:///var/lib/cosmo.db").unwrap(),
            DbUrl::Sqlite("/var/lib/cosmo.db".into())
        );
        assert!(matches!(
            DbUrl::parse("postgres://u:p@h/db").unwrap(),
            DbUrl::Postgres(_)
        ));
        assert!(DbUrl::parse("mysql://x").is_err());
        assert!(DbUrl::parse("sqlite://").is_err());
    }

    #[test]
    fn passwords_never_reach_logs() {
        assert_eq!(
            redact("postgres://cosmo:s3cret@db:5432/cosmo"),
            "postgres://cosmo:***@db:5432/cosmo"
        );
        assert_eq!(
            redact("postgres://postgres@127.0.0.1/x"),
            "postgres://postgres@127.0.0.1/x"
        );
    }
}
