//! Bulk lifecycle writes: many rows of one table in one `UPDATE … FROM (VALUES …)`
//! statement, each row found by its key (the table's unique index), and many events in
//! one `INSERT`. Table, key and column names are fixed per kind and column; only the
//! number of rows varies.

use cosmo_core::domain::{Lifecycle, LifecycleEvent, MemoryKind};
use cosmo_core::graph::GraphResult;
use sqlx::Arguments;
use sqlx::sqlite::SqliteArguments;

use super::lifecycle::per_kind;
use super::{micros, opt_micros};

/// SQLite allows 32,766 bound values a statement; stay well under.
const MAX_VALUES: usize = 30_000;
/// And at most this many rows a statement.
const MAX_ROWS: usize = 1_000;

/// The lifecycle columns a write sets (every field but `created_at`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Column {
    Salience,
    State,
    Confidence,
    AccessCount,
    RecallFrequency,
    LastRecallInterval,
    DecayGradient,
    LastAccessedAt,
    LastDecayedAt,
    TtlPolicy,
    Pinned,
    UpdatedAt,
}

impl Column {
    const ALL: [Column; 12] = [
        Column::Salience,
        Column::State,
        Column::Confidence,
        Column::AccessCount,
        Column::RecallFrequency,
        Column::LastRecallInterval,
        Column::DecayGradient,
        Column::LastAccessedAt,
        Column::LastDecayedAt,
        Column::TtlPolicy,
        Column::Pinned,
        Column::UpdatedAt,
    ];

    fn name(self) -> &'static str {
        match self {
            Column::Salience => "salience",
            Column::State => "state",
            Column::Confidence => "confidence",
            Column::AccessCount => "access_count",
            Column::RecallFrequency => "recall_frequency",
            Column::LastRecallInterval => "last_recall_interval",
            Column::DecayGradient => "decay_gradient",
            Column::LastAccessedAt => "last_accessed_at",
            Column::LastDecayedAt => "last_decayed_at",
            Column::TtlPolicy => "ttl_policy",
            Column::Pinned => "pinned",
            Column::UpdatedAt => "updated_at",
        }
    }

    /// The column's value in `l`, as stored.
    fn value(self, l: &Lifecycle) -> Value {
        match self {
            Column::Salience => Value::Real(l.salience),
            Column::State => Value::Text(l.state.as_str()),
            Column::Confidence => Value::Real(l.confidence),
            Column::AccessCount => Value::Int(Some(l.access_count)),
            Column::RecallFrequency => Value::Int(Some(l.recall_frequency)),
            Column::LastRecallInterval => Value::Real(l.last_recall_interval),
            Column::DecayGradient => Value::Real(l.decay_gradient),
            Column::LastAccessedAt => Value::Int(opt_micros(l.last_accessed_at)),
            Column::LastDecayedAt => Value::Int(opt_micros(l.last_decayed_at)),
            Column::TtlPolicy => Value::Text(l.ttl_policy.as_str()),
            Column::Pinned => Value::Int(Some(i64::from(l.pinned))),
            Column::UpdatedAt => Value::Int(Some(micros(l.updated_at))),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Value {
    Real(f64),
    Int(Option<i64>),
    Text(&'static str),
}

impl Value {
    fn add_to(self, args: &mut SqliteArguments) -> Result<(), sqlx::error::BoxDynError> {
        match self {
            Value::Real(v) => Arguments::add(args, v),
            Value::Int(v) => Arguments::add(args, v),
            Value::Text(v) => Arguments::add(args, v),
        }
    }
}

/// The table and key column of a kind.
macro_rules! names {
    ($table:literal, $key:literal) => {
        ($table, $key)
    };
}

/// `n` rows of `width` placeholders: `(?, ?), (?, ?)`.
fn placeholders(width: usize, n: usize) -> String {
    let row = format!("({})", vec!["?"; width].join(", "));
    vec![row; n].join(", ")
}

/// Writes every lifecycle column of each (key, new lifecycle), in as few statements as
/// the limit on bound values allows. A key must appear once (one statement cannot update
/// a row twice).
pub async fn write(
    tx: &mut crate::WriteTx,
    kind: MemoryKind,
    rows: &[(&str, &Lifecycle)],
) -> GraphResult<()> {
    let (table, key): (&str, &str) = per_kind!(kind, names);
    let columns = Column::ALL;
    let names: Vec<&str> = columns.iter().map(|c| c.name()).collect();
    let set = names
        .iter()
        .map(|c| format!("{c} = c.{c}"))
        .collect::<Vec<_>>()
        .join(", ");
    let width = columns.len() + 1;
    for chunk in rows.chunks((MAX_VALUES / width).min(MAX_ROWS)) {
        let sql = format!(
            "WITH c(k, {}) AS (VALUES {}) UPDATE {table} SET {set} FROM c WHERE {table}.{key} = c.k",
            names.join(", "),
            placeholders(width, chunk.len()),
        );
        let mut args = SqliteArguments::default();
        for (k, l) in chunk {
            Arguments::add(&mut args, k.to_string()).map_err(anyhow::Error::from_boxed)?;
            for c in columns {
                c.value(l)
                    .add_to(&mut args)
                    .map_err(anyhow::Error::from_boxed)?;
            }
        }
        sqlx::query_with(sqlx::AssertSqlSafe(sql), args)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

/// Records events in bulk; an event already recorded (or twice in `events`) keeps its
/// first row. `id` names an event (derived from its content).
pub async fn record_events(
    tx: &mut crate::WriteTx,
    events: &[&LifecycleEvent],
    id: impl Fn(&LifecycleEvent) -> String,
) -> GraphResult<()> {
    const WIDTH: usize = 9;
    for chunk in events.chunks(MAX_VALUES / WIDTH) {
        let sql = format!(
            "INSERT INTO lifecycle_events (event_id, memory_kind, memory_key, user_id, previous_state,
                new_state, reason, actor, at) VALUES {} ON CONFLICT DO NOTHING",
            placeholders(WIDTH, chunk.len())
        );
        let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
        for e in chunk {
            q = q
                .bind(id(e))
                .bind(e.memory_kind.as_str())
                .bind(e.memory_key.clone())
                .bind(e.user_id.clone())
                .bind(e.previous_state.as_str())
                .bind(e.new_state.as_str())
                .bind(e.reason.clone())
                .bind(e.actor.as_str())
                .bind(micros(e.at));
        }
        q.execute(&mut **tx).await?;
    }
    Ok(())
}
