//! The relational database behind the queue and the directory: one SQLite file (the
//! embedded default) or PostgreSQL (production), chosen by `database.url`.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
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
macro_rules! on_db {
    ($db:expr, $pool:ident => $body:expr) => {
        match $db {
            $crate::db::Db::Sqlite($pool) => $body,
            $crate::db::Db::Postgres($pool) => $body,
        }
    };
}
pub(crate) use on_db;

/// Executes a statement built from `pool` on whichever database `db` holds; returns the
/// number of rows it changed.
macro_rules! execute_on {
    ($db:expr, $pool:ident => $query:expr) => {
        match $db {
            $crate::db::Db::Sqlite($pool) => $query.execute($pool).await.map(|r| r.rows_affected()),
            $crate::db::Db::Postgres($pool) => {
                $query.execute($pool).await.map(|r| r.rows_affected())
            }
        }
    };
}
pub(crate) use execute_on;

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
                Self::Sqlite(crate::graph::sqlite::open_pool(&path, max_connections).await?)
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
        execute_on!(self, pool => sqlx::query("SELECT 1"))?;
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

/// Whether an error means a store was out of reach (down, refusing connections, its
/// pool exhausted, its file locked or unreadable), so the same request may succeed
/// later, rather than a bug. The API answers the first with 503 and `Retry-After`.
pub fn is_outage(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        if let Some(crate::graph::GraphError::Backend(inner)) =
            cause.downcast_ref::<crate::graph::GraphError>()
        {
            // Transparent: its `source()` skips the store error it holds.
            is_outage(inner)
        } else if let Some(e) = cause.downcast_ref::<sqlx::Error>() {
            sqlx_outage(e)
        } else if let Some(e) = cause.downcast_ref::<neo4rs::Error>() {
            matches!(
                e,
                neo4rs::Error::IOError { .. }
                    | neo4rs::Error::ConnectionError
                    | neo4rs::Error::ConnectionTimedOut
                    | neo4rs::Error::ServerUnavailableError(_)
                    | neo4rs::Error::RoutingTableRefreshFailed(_)
            )
        } else {
            cause.is::<std::io::Error>()
        }
    })
}

fn sqlx_outage(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(db) => {
            let code = db.code().unwrap_or_default();
            if db
                .try_downcast_ref::<sqlx::postgres::PgDatabaseError>()
                .is_some()
            {
                // Connection exceptions (08…), the server shutting down or not accepting
                // connections (57P01–57P03), too many connections (53300), the database
                // gone or closed to connections (3D000, 55000).
                code.starts_with("08")
                    || matches!(
                        &*code,
                        "57P01" | "57P02" | "57P03" | "53300" | "3D000" | "55000"
                    )
            } else {
                // SQLite's primary result codes BUSY, LOCKED, READONLY, IOERR, FULL and
                // CANTOPEN (an extended code carries its primary one in the low byte).
                code.parse::<i64>()
                    .is_ok_and(|c| matches!(c & 0xff, 5 | 6 | 8 | 10 | 13 | 14))
            }
        }
        _ => false,
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

    #[test]
    fn only_a_store_out_of_reach_is_an_outage() {
        let outage = |e: anyhow::Error| is_outage(&e);
        assert!(outage(sqlx::Error::PoolTimedOut.into()));
        assert!(outage(
            anyhow::Error::from(sqlx::Error::PoolClosed).context("directory")
        ));
        assert!(outage(
            std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "refused").into()
        ));
        assert!(outage(neo4rs::Error::ConnectionError.into()));
        assert!(!outage(sqlx::Error::RowNotFound.into()));
        assert!(!outage(anyhow::anyhow!("a bug")));
        assert!(!outage(neo4rs::Error::NotSingleResult.into()));
        let in_graph = crate::graph::GraphError::from(sqlx::Error::PoolTimedOut);
        assert!(outage(anyhow::Error::new(in_graph).context("reading")));
    }
}
