//! Values to and from Bolt. Neo4j properties are primitives or homogeneous lists of
//! primitives: times are DATETIME in UTC, days DATE, embeddings lists of FLOAT, JSON
//! documents strings, and absent optionals absent properties (a null parameter in `SET`
//! removes the property).

use std::str::FromStr;

use chrono::{DateTime, NaiveDate, Utc};
use cosmo_core::domain::{Lifecycle, MemoryState, TtlPolicy};
use cosmo_core::graph::{GraphError, GraphResult};
use neo4rs::{BoltDate, BoltDateTime, BoltDateTimeZoneId, BoltMap, BoltNull, BoltType, Row};

/// `note_expires_at` cannot hold nulls: a note that never expires gets this instead.
pub fn never() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("9999-12-31T00:00:00Z")
        .map(|t| t.with_timezone(&Utc))
        .unwrap_or(DateTime::<Utc>::MAX_UTC)
}

pub fn null() -> BoltType {
    BoltType::Null(BoltNull)
}

/// `None` as null, so `SET x.p = $p` leaves the property absent.
pub fn opt<T: Into<BoltType>>(v: Option<T>) -> BoltType {
    v.map_or_else(null, Into::into)
}

pub fn list<T: Into<BoltType>>(items: impl IntoIterator<Item = T>) -> BoltType {
    BoltType::List(items.into_iter().map(Into::into).collect())
}

/// An embedding as a list of FLOAT (f32 widened exactly to f64).
pub fn embedding(v: Option<&[f32]>) -> BoltType {
    v.map_or_else(null, |v| list(v.iter().map(|x| f64::from(*x))))
}

/// A count or limit as a Cypher INTEGER.
pub fn int(n: usize) -> BoltType {
    i64::try_from(n).unwrap_or(i64::MAX).into()
}

fn decode(what: &str, detail: impl std::fmt::Display) -> GraphError {
    GraphError::Backend(anyhow::anyhow!("reading {what} from Neo4j: {detail}"))
}

/// A column of a result row.
pub fn column(row: &Row, name: &str) -> GraphResult<BoltType> {
    row.get::<BoltType>(name)
        .map_err(|e| decode(name, format!("column `{name}`: {e}")))
}

pub fn string_column(row: &Row, name: &str) -> GraphResult<Option<String>> {
    match column(row, name)? {
        BoltType::Null(_) => Ok(None),
        BoltType::String(s) => Ok(Some(s.value)),
        other => Err(decode(name, format!("expected a string, got {other:?}"))),
    }
}

pub fn int_column(row: &Row, name: &str) -> GraphResult<i64> {
    match column(row, name)? {
        BoltType::Integer(i) => Ok(i.value),
        BoltType::Null(_) => Ok(0),
        other => Err(decode(name, format!("expected an integer, got {other:?}"))),
    }
}

pub fn bool_column(row: &Row, name: &str) -> GraphResult<bool> {
    match column(row, name)? {
        BoltType::Boolean(b) => Ok(b.value),
        other => Err(decode(name, format!("expected a boolean, got {other:?}"))),
    }
}

pub fn strings_column(row: &Row, name: &str) -> GraphResult<Vec<String>> {
    match column(row, name)? {
        BoltType::List(l) => l.value.into_iter().map(|v| as_string(name, v)).collect(),
        BoltType::Null(_) => Ok(Vec::new()),
        other => Err(decode(name, format!("expected a list, got {other:?}"))),
    }
}

fn as_string(what: &str, v: BoltType) -> GraphResult<String> {
    match v {
        BoltType::String(s) => Ok(s.value),
        other => Err(decode(what, format!("expected a string, got {other:?}"))),
    }
}

fn as_time(what: &str, v: &BoltType) -> GraphResult<DateTime<Utc>> {
    let t = match v {
        BoltType::DateTime(t) => DateTime::<Utc>::try_from(t as &BoltDateTime),
        BoltType::DateTimeZoneId(t) => DateTime::<Utc>::try_from(t as &BoltDateTimeZoneId),
        other => return Err(decode(what, format!("expected a DATETIME, got {other:?}"))),
    };
    t.map_err(|e| decode(what, e))
}

fn as_date(what: &str, v: &BoltType) -> GraphResult<NaiveDate> {
    match v {
        BoltType::Date(d) => NaiveDate::try_from(d as &BoltDate).map_err(|e| decode(what, e)),
        other => Err(decode(what, format!("expected a DATE, got {other:?}"))),
    }
}

/// The properties of one node or relationship (`properties(x)` in a result).
#[derive(Debug)]
pub struct Props {
    what: &'static str,
    map: BoltMap,
}

impl Props {
    pub fn from_row(row: &Row, column_name: &'static str) -> GraphResult<Self> {
        match column(row, column_name)? {
            BoltType::Map(map) => Ok(Self {
                what: column_name,
                map,
            }),
            other => Err(decode(
                column_name,
                format!("expected a map, got {other:?}"),
            )),
        }
    }

    #[cfg(test)]
    pub fn new(what: &'static str, map: BoltMap) -> Self {
        Self { what, map }
    }

    /// The maps of a column holding a list of maps (`collect(properties(x))`,
    /// `collect(x {…})`).
    pub fn list_from_row(row: &Row, column_name: &'static str) -> GraphResult<Vec<Self>> {
        let items = match column(row, column_name)? {
            BoltType::List(l) => l.value,
            BoltType::Null(_) => Vec::new(),
            other => {
                return Err(decode(
                    column_name,
                    format!("expected a list, got {other:?}"),
                ));
            }
        };
        items
            .into_iter()
            .map(|item| match item {
                BoltType::Map(map) => Ok(Self {
                    what: column_name,
                    map,
                }),
                other => Err(decode(
                    column_name,
                    format!("expected a list of maps, got {other:?}"),
                )),
            })
            .collect()
    }

    fn err(&self, key: &str, detail: impl std::fmt::Display) -> GraphError {
        decode(self.what, format!("property `{key}`: {detail}"))
    }

    /// A property's value; absent and null are the same.
    fn get(&self, key: &str) -> Option<&BoltType> {
        self.map
            .value
            .get(key)
            .filter(|v| !matches!(v, BoltType::Null(_)))
    }

    fn required(&self, key: &str) -> GraphResult<&BoltType> {
        self.get(key).ok_or_else(|| self.err(key, "missing"))
    }

    pub fn opt_string(&self, key: &str) -> GraphResult<Option<String>> {
        self.get(key)
            .map(|v| as_string(self.what, v.clone()).map_err(|_| self.err(key, "not a string")))
            .transpose()
    }

    pub fn string(&self, key: &str) -> GraphResult<String> {
        self.opt_string(key)?
            .ok_or_else(|| self.err(key, "missing"))
    }

    pub fn parse<T: FromStr>(&self, key: &str) -> GraphResult<T>
    where
        T::Err: std::fmt::Display,
    {
        self.string(key)?.parse().map_err(|e| self.err(key, e))
    }

    pub fn int(&self, key: &str) -> GraphResult<i64> {
        match self.required(key)? {
            BoltType::Integer(i) => Ok(i.value),
            other => Err(self.err(key, format!("expected an integer, got {other:?}"))),
        }
    }

    /// A FLOAT (an INTEGER is accepted: Cypher may store `0` for `0.0`).
    pub fn float(&self, key: &str) -> GraphResult<f64> {
        match self.required(key)? {
            BoltType::Float(f) => Ok(f.value),
            BoltType::Integer(i) => Ok(i.value as f64),
            other => Err(self.err(key, format!("expected a float, got {other:?}"))),
        }
    }

    pub fn bool(&self, key: &str) -> GraphResult<bool> {
        match self.get(key) {
            Some(BoltType::Boolean(b)) => Ok(b.value),
            None => Ok(false),
            Some(other) => Err(self.err(key, format!("expected a boolean, got {other:?}"))),
        }
    }

    pub fn opt_time(&self, key: &str) -> GraphResult<Option<DateTime<Utc>>> {
        self.get(key).map(|v| as_time(key, v)).transpose()
    }

    pub fn time(&self, key: &str) -> GraphResult<DateTime<Utc>> {
        self.opt_time(key)?.ok_or_else(|| self.err(key, "missing"))
    }

    fn items(&self, key: &str) -> GraphResult<&[BoltType]> {
        match self.get(key) {
            None => Ok(&[]),
            Some(BoltType::List(l)) => Ok(&l.value),
            Some(other) => Err(self.err(key, format!("expected a list, got {other:?}"))),
        }
    }

    /// A list of strings; absent is empty.
    pub fn strings(&self, key: &str) -> GraphResult<Vec<String>> {
        self.items(key)?
            .iter()
            .map(|v| as_string(key, v.clone()))
            .collect()
    }

    pub fn times(&self, key: &str) -> GraphResult<Vec<DateTime<Utc>>> {
        self.items(key)?.iter().map(|v| as_time(key, v)).collect()
    }

    pub fn dates(&self, key: &str) -> GraphResult<Vec<NaiveDate>> {
        self.items(key)?.iter().map(|v| as_date(key, v)).collect()
    }

    /// A list of FLOAT narrowed back to f32 (exact for values written from f32).
    pub fn embedding(&self, key: &str) -> GraphResult<Option<Vec<f32>>> {
        if self.get(key).is_none() {
            return Ok(None);
        }
        self.items(key)?
            .iter()
            .map(|v| match v {
                BoltType::Float(f) => Ok(f.value as f32),
                BoltType::Integer(i) => Ok(i.value as f32),
                other => Err(self.err(key, format!("expected floats, got {other:?}"))),
            })
            .collect::<GraphResult<Vec<f32>>>()
            .map(Some)
    }

    /// A JSON document stored as a string.
    pub fn json(&self, key: &str) -> GraphResult<Option<serde_json::Value>> {
        self.opt_string(key)?
            .map(|t| serde_json::from_str(&t).map_err(|e| self.err(key, e)))
            .transpose()
    }

    /// The lifecycle properties every node and semantic relationship has.
    pub fn lifecycle(&self) -> GraphResult<Lifecycle> {
        Ok(Lifecycle {
            salience: self.float("salience")?,
            state: self.parse::<MemoryState>("state")?,
            confidence: self.float("confidence")?,
            access_count: self.int("access_count")?,
            recall_frequency: self.int("recall_frequency")?,
            last_recall_interval: self.float("last_recall_interval")?,
            decay_gradient: self.float("decay_gradient")?,
            last_accessed_at: self.opt_time("last_accessed_at")?,
            last_decayed_at: self.opt_time("last_decayed_at")?,
            ttl_policy: self.parse::<TtlPolicy>("ttl_policy")?,
            pinned: self.bool("pinned")?,
            created_at: self.time("created_at")?,
            updated_at: self.time("updated_at")?,
        })
    }
}
