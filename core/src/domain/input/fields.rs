//! Checks the bodies share: whole numbers, identifiers, keys, timestamps, provenance,
//! and turning a JSON body into its struct with the failing field named.

use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::Value;

use super::FieldError;

/// An optional whole number as JSON Schema's `integer` means it: any number without a
/// fraction, so `17.0` is 17 (`#[serde(default, deserialize_with = "whole_number")]`).
pub fn whole_number<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: TryFrom<u64>,
{
    use serde::de::Error;
    let Some(n) = Option::<serde_json::Number>::deserialize(d)? else {
        return Ok(None);
    };
    n.as_u64()
        .or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(f))
                .map(|f| f as u64)
        })
        .and_then(|w| T::try_from(w).ok())
        .map(Some)
        .ok_or_else(|| D::Error::custom(format!("must be a whole number in range, not {n}")))
}

/// Deserialises a JSON object with the path of the failing field in the error.
pub fn from_value<T: for<'de> Deserialize<'de>>(body: Value) -> Result<T, FieldError> {
    if !body.is_object() {
        return Err(FieldError::new("body", "must be a JSON object"));
    }
    serde_path_to_error::deserialize(body).map_err(|e| {
        let message = e.inner().to_string();
        let named = ["missing field `", "unknown field `"].iter().find_map(|p| {
            message
                .strip_prefix(p)
                .and_then(|rest| rest.split('`').next())
        });
        // The path ends at the struct for a missing field, at the field for an unknown one.
        let path = e.path().to_string();
        let field = match named {
            Some(name) if path == "." => name.to_owned(),
            Some(name) if path == name || path.ends_with(&format!(".{name}")) => path,
            Some(name) => format!("{path}.{name}"),
            None => path,
        };
        let message = if message.starts_with("missing field") {
            "is required".to_owned()
        } else if message.starts_with("unknown field") {
            format!(
                "is not a known field ({})",
                message.split(", expected").nth(1).map_or("", |s| s.trim())
            )
        } else {
            message
        };
        FieldError::new(field, message)
    })
}

/// User ids: 1–128 characters of letters, digits and `. _ - @ :`.
pub fn parse_user_id(field: &str, s: &str) -> Result<String, FieldError> {
    identifier(field, s)
}

pub(super) fn identifier(field: &str, s: &str) -> Result<String, FieldError> {
    let ok = !s.is_empty()
        && s.len() <= 128
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-@:".contains(c));
    if !ok {
        return Err(FieldError::new(
            field,
            "must be 1-128 characters of letters, digits and . _ - @ :",
        ));
    }
    // Path segments of their own in every URL that names an id.
    if s == "." || s == ".." {
        return Err(FieldError::new(field, "must not be `.` or `..`"));
    }
    Ok(s.to_owned())
}

pub(super) fn key_field(field: &str, s: &str) -> Result<String, FieldError> {
    if s.is_empty() || s.chars().count() > 256 || s.chars().any(char::is_control) {
        return Err(FieldError::new(field, "must be 1-256 printable characters"));
    }
    Ok(s.to_owned())
}

/// Validates an `Idempotency-Key` header value.
pub fn idempotency_header(s: &str) -> Result<String, FieldError> {
    key_field("Idempotency-Key", s)
}

pub(super) fn context_type(s: &str) -> Result<String, FieldError> {
    let s = s.trim();
    if s.is_empty() || s.chars().count() > 64 || s.chars().any(char::is_control) {
        return Err(FieldError::new(
            "context_type",
            "must be 1-64 printable characters",
        ));
    }
    Ok(s.to_owned())
}

pub(crate) fn timestamp(field: &str, s: &str) -> Result<DateTime<Utc>, FieldError> {
    DateTime::parse_from_rfc3339(s)
        .map(|t| crate::clock::truncate_to_micros(t.with_timezone(&Utc)))
        .map_err(|_| {
            FieldError::new(
                field,
                "must be an RFC 3339 timestamp, e.g. 2026-11-22T09:30:00Z",
            )
        })
}

pub(super) fn provenance(v: Value) -> Result<Value, FieldError> {
    let obj = v
        .as_object()
        .ok_or_else(|| FieldError::new("provenance", "must be a JSON object"))?;
    if let Some(c) = obj.get("confidence") {
        match c.as_f64() {
            Some(c) if (0.0..=1.0).contains(&c) => {}
            _ => {
                return Err(FieldError::new(
                    "provenance.confidence",
                    "must be a number from 0 to 1",
                ));
            }
        }
    }
    Ok(v)
}

pub(super) fn enum_field<T: std::str::FromStr<Err = crate::domain::ParseEnumError>>(
    field: &str,
    v: Option<String>,
) -> Result<Option<T>, FieldError> {
    v.map(|s| {
        s.parse::<T>()
            .map_err(|e| FieldError::new(field, e.to_string()))
    })
    .transpose()
}
