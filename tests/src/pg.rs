//! A PostgreSQL database per test, dropped afterwards. The server is the one at
//! `COSMO_TEST_POSTGRES_URL` (default `postgres://postgres@127.0.0.1:5432/postgres`);
//! the test command starts it if it is installed but stopped.

use sqlx::{Connection, Executor, PgConnection};

pub fn admin_url() -> String {
    std::env::var("COSMO_TEST_POSTGRES_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into())
}

/// A fresh, empty database; dropped (connections forced closed) when this is dropped.
#[derive(Debug)]
pub struct TempPostgres {
    pub url: String,
    name: String,
}

impl TempPostgres {
    pub async fn create() -> Self {
        let admin = admin_url();
        let mut conn = PgConnection::connect(&admin).await.unwrap_or_else(|e| {
            panic!(
                "PostgreSQL is required for this test and is not reachable at {admin}: {e}\n\
                 Start it (e.g. `pg_ctlcluster 15 main start`) or set COSMO_TEST_POSTGRES_URL."
            )
        });
        let name = format!(
            "cosmo_test_{}",
            ulid::Ulid::generate().to_string().to_lowercase()
        );
        conn.execute(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .await
            .expect("create test database");
        let base = admin
            .rsplit_once('/')
            .map_or(admin.as_str(), |(base, _)| base)
            .to_owned();
        Self {
            url: format!("{base}/{name}"),
            name,
        }
    }
}

impl TempPostgres {
    /// Closes the database to connections (cutting those it has), or opens it again: an
    /// outage of this database alone, as clients see one.
    pub async fn allow_connections(&self, allow: bool) {
        let mut conn = PgConnection::connect(&admin_url())
            .await
            .expect("connect to PostgreSQL as admin");
        conn.execute(sqlx::AssertSqlSafe(format!(
            "ALTER DATABASE {} WITH ALLOW_CONNECTIONS {allow}",
            self.name
        )))
        .await
        .expect("allow or refuse connections");
        if !allow {
            conn.execute(sqlx::AssertSqlSafe(format!(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{}'",
                self.name
            )))
            .await
            .expect("cut the database's connections");
        }
    }
}

impl Drop for TempPostgres {
    fn drop(&mut self) {
        let (admin, name) = (admin_url(), self.name.clone());
        // Drop runs outside any runtime we may use; a short-lived one does the work.
        let _ = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .ok()?;
            rt.block_on(async {
                let mut conn = PgConnection::connect(&admin).await.ok()?;
                conn.execute(sqlx::AssertSqlSafe(format!(
                    "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
                )))
                .await
                .ok()
            })
        })
        .join();
    }
}
