//! The change log (`search_vector_log`) as the cache reads it: where it stands
//! ([`Bounds`]), and the memories it names since a part's entry, re-read ([`catch_up`]).

use std::collections::HashMap;

use cosmo_core::domain::Target;
use cosmo_core::graph::GraphResult;
use cosmo_core::query_file;
use futures::TryStreamExt;
use sqlx::SqlitePool;

use super::{Part, State};
use crate::search::json;

/// Where the log stands: the oldest entry it still keeps, and the highest sequence
/// number it ever gave (an erased user's entries leave with them, so the newest entry
/// kept can be older than that).
#[derive(Clone, Copy)]
pub(super) struct Bounds {
    first: Option<i64>,
    pub(super) last: i64,
}

impl Bounds {
    pub(super) async fn read(pool: &SqlitePool) -> GraphResult<Self> {
        // Each subquery reads one end of an index (one query asking for min and max of
        // the log would scan it).
        let (first, last): (Option<i64>, i64) =
            sqlx::query_as(query_file!("search/log_bounds.sql"))
                .fetch_one(pool)
                .await?;
        Ok(Self { first, last })
    }

    /// Whether entries after `seq` may be gone before a reader that stands at `seq`
    /// read them (pruned, or with an erased user), so that it must load anew.
    pub(super) fn missed_after(&self, seq: i64) -> bool {
        match self.first {
            Some(first) => seq + 1 < first,
            None => seq < self.last,
        }
    }
}

/// Re-reads the memories the log names for this user since the part's entry, up to
/// `last`.
pub(super) async fn catch_up<P: Part>(
    pool: &SqlitePool,
    user_id: &str,
    target: Target,
    state: &mut State<P>,
    last: i64,
) -> GraphResult<()> {
    let keys: Vec<String> = sqlx::query_scalar(query_file!("search/log_keys_since.sql"))
        .bind(user_id)
        .bind(target.as_str())
        .bind(state.seq)
        .bind(last)
        .fetch_all(pool)
        .await?;
    for chunk in keys.chunks(500) {
        let mut found: HashMap<String, P::Entry> = HashMap::new();
        let mut rows = sqlx::query(P::rows_sql(target, true))
            .bind(user_id)
            .bind(json(chunk)?)
            .fetch(pool);
        while let Some(row) = rows.try_next().await? {
            if let Some((key, entry)) = P::from_row(target, &row)? {
                found.insert(key, entry);
            }
        }
        drop(rows);
        for key in chunk {
            let entry = found.remove(key);
            state.part.put(key.clone(), entry);
        }
    }
    state.seq = last;
    Ok(())
}
