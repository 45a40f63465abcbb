//! The relational database behind the queue and the directory (`cosmo-queue`'s [`db`](cosmo_queue::db),
//! re-exported), and what counts as a store being out of reach, whichever store it is.

pub use cosmo_queue::db::*;

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
        } else if cause.is::<std::io::Error>() {
            true
        } else {
            neo4j_outage(cause)
        }
    })
}

#[cfg(feature = "neo4j")]
fn neo4j_outage(cause: &(dyn std::error::Error + 'static)) -> bool {
    cause.downcast_ref::<neo4rs::Error>().is_some_and(|e| {
        matches!(
            e,
            neo4rs::Error::IOError { .. }
                | neo4rs::Error::ConnectionError
                | neo4rs::Error::ConnectionTimedOut
                | neo4rs::Error::ServerUnavailableError(_)
                | neo4rs::Error::RoutingTableRefreshFailed(_)
        )
    })
}

/// Built without the Neo4j store: no error comes from it.
#[cfg(not(feature = "neo4j"))]
fn neo4j_outage(_cause: &(dyn std::error::Error + 'static)) -> bool {
    false
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
    fn only_a_store_out_of_reach_is_an_outage() {
        let outage = |e: anyhow::Error| is_outage(&e);
        assert!(outage(sqlx::Error::PoolTimedOut.into()));
        assert!(outage(
            anyhow::Error::from(sqlx::Error::PoolClosed).context("directory")
        ));
        assert!(outage(
            std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "refused").into()
        ));
        assert!(!outage(sqlx::Error::RowNotFound.into()));
        assert!(!outage(anyhow::anyhow!("a bug")));
        #[cfg(feature = "neo4j")]
        {
            assert!(outage(neo4rs::Error::ConnectionError.into()));
            assert!(!outage(neo4rs::Error::NotSingleResult.into()));
        }
        let in_graph = crate::graph::GraphError::from(sqlx::Error::PoolTimedOut);
        assert!(outage(anyhow::Error::new(in_graph).context("reading")));
    }
}
