//! The bodies about a user: their profile (`PUT /api/users/{user_id}`) and a
//! participant's request to extract a team Source (`POST /api/sources/{key}/extractions`).

use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::{FieldError, from_value, parse_user_id};

/// The body of `PUT /api/users/{user_id}`.
#[derive(Debug, Clone, PartialEq, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"full_name": "Alex Johnson"}))]
pub struct ProfileInput {
    /// The user's full name (trimmed, at most 200 characters, with a letter or digit);
    /// names the owner Person.
    #[schema(
        min_length = 1,
        max_length = 200,
        pattern = r"^[^\u0000-\u001F\u007F-\u009F]*[^\W_][^\u0000-\u001F\u007F-\u009F]*$"
    )]
    pub full_name: String,
}

impl ProfileInput {
    pub fn parse(body: Value) -> Result<Self, FieldError> {
        let profile: Self = from_value(body)?;
        let name = profile.full_name.trim();
        if !crate::domain::names::canonical_person(name)
            .chars()
            .any(char::is_alphanumeric)
        {
            return Err(FieldError::new("full_name", "must contain a name"));
        }
        if name.chars().count() > 200 {
            return Err(FieldError::new("full_name", "at most 200 characters"));
        }
        if name.chars().any(char::is_control) {
            return Err(FieldError::new(
                "full_name",
                "must not contain control characters (line breaks, tabs, NUL…)",
            ));
        }
        Ok(Self {
            full_name: name.to_owned(),
        })
    }
}

/// The body of `POST /api/sources/{key}/extractions`.
#[derive(Debug, Clone, PartialEq, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"user_id": "bob"}))]
pub struct ExtractionRequestInput {
    /// A participant of the Source.
    #[schema(
        min_length = 1,
        max_length = 128,
        pattern = r"^(?!\.\.?$)[A-Za-z0-9._@:-]+$"
    )]
    pub user_id: String,
}

impl ExtractionRequestInput {
    pub fn parse(body: Value) -> Result<Self, FieldError> {
        let input: Self = from_value(body)?;
        Ok(Self {
            user_id: parse_user_id("user_id", &input.user_id)?,
        })
    }
}
