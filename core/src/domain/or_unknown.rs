//! A name read back from a table that more than this version of Cosmo writes.
//!
//! The job queue's rows outlive the code that wrote them: after a rollback a row may
//! name a job kind this version does not have, and an apalis upgrade may write a status
//! it does not know. Such a value is kept as the text it is stored as ([`OrUnknown::Unknown`]),
//! so the row can still be listed, counted, retried or deleted under its own name;
//! every `match` on it decides in an arm of its own what an unknown value means.

use serde::{Serialize, Serializer};

use super::StringEnum;

/// One of `T`'s names, or a stored text that is none of them.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OrUnknown<T> {
    Known(T),
    /// The stored text, as it is.
    Unknown(String),
}

impl<T: StringEnum> OrUnknown<T> {
    /// `stored` as one of `T`'s names, or kept as it is.
    pub fn read(stored: String) -> Self {
        match stored.parse() {
            Ok(known) => Self::Known(known),
            Err(_) => Self::Unknown(stored),
        }
    }

    /// The value as stored.
    pub fn as_str(&self) -> &str {
        match self {
            Self::Known(known) => known.as_str(),
            Self::Unknown(stored) => stored,
        }
    }

    /// The known value, if it is one.
    pub fn known(&self) -> Option<T> {
        match self {
            Self::Known(known) => Some(*known),
            Self::Unknown(_) => None,
        }
    }
}

impl<T: StringEnum> From<T> for OrUnknown<T> {
    fn from(known: T) -> Self {
        Self::Known(known)
    }
}

/// For `#[sqlx(try_from = "String")]`: reading never fails.
impl<T: StringEnum> From<String> for OrUnknown<T> {
    fn from(stored: String) -> Self {
        Self::read(stored)
    }
}

impl<T: StringEnum> std::fmt::Display for OrUnknown<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// As the stored text: known or not, the same string as before it was read.
impl<T: StringEnum> Serialize for OrUnknown<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<T: StringEnum> PartialEq<T> for OrUnknown<T> {
    fn eq(&self, other: &T) -> bool {
        self.known() == Some(*other)
    }
}

/// Compares the stored text (`record.status == "Done"`).
impl<T: StringEnum> PartialEq<str> for OrUnknown<T> {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl<T: StringEnum> PartialEq<&str> for OrUnknown<T> {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jobs::JobKind;

    #[test]
    fn known_names_are_read_and_others_kept_as_stored() {
        let known = OrUnknown::<JobKind>::read("decay".into());
        assert_eq!(known, OrUnknown::Known(JobKind::Decay));
        assert_eq!(known, JobKind::Decay);
        assert_eq!(known.as_str(), "decay");

        let unknown = OrUnknown::<JobKind>::read("Decay-everything".into());
        assert_eq!(unknown, OrUnknown::Unknown("Decay-everything".into()));
        assert_eq!(unknown.known(), None);
        assert_ne!(unknown, JobKind::Decay);
        assert_eq!(unknown, "Decay-everything");
    }

    #[test]
    fn serialises_as_the_stored_text() {
        let both = [
            OrUnknown::Known(JobKind::ExtractEntities),
            OrUnknown::Unknown("summarise-week".into()),
        ];
        assert_eq!(
            serde_json::to_value(both).unwrap(),
            serde_json::json!(["extract-entities", "summarise-week"])
        );
    }
}
