//! Domain vocabulary: what a Source, a semantic node, a note or an extraction is, and
//! the checked values the API turns its input into.

pub mod extraction;
pub mod fact;
pub mod input;
pub mod lifecycle;
pub mod links;
pub mod memory;
pub mod names;
pub mod or_unknown;
pub mod raw;
pub mod retrieval;
pub mod semantic;
pub mod source;
pub mod stats;
pub mod storyline;

pub use extraction::*;
pub use fact::*;
pub use lifecycle::*;
pub use links::{CausalCandidate, NewCausalLink, SourceLink, SourceLinkKind, thread_key};
pub use memory::*;
pub use or_unknown::OrUnknown;
pub use retrieval::*;
pub use semantic::*;
pub use source::*;
pub use stats::*;
pub use storyline::*;

/// A string that is not one of an enum's names.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown value `{value}`, expected one of: {}", expected.trim_end())]
pub struct ParseEnumError {
    pub value: String,
    pub expected: &'static str,
}

/// A closed enum with wire names: every [`string_enum!`] type, so that code generic over
/// such enums ([`OrUnknown`]) can name their values.
pub trait StringEnum:
    Copy + Eq + std::str::FromStr<Err = ParseEnumError> + std::fmt::Display + 'static
{
    fn as_str(self) -> &'static str;
}

/// Gives a closed enum its wire names: `as_str`, `FromStr`, `Display`, `ALL` and
/// [`StringEnum`]. Labels, relationship types and statuses only ever come from these
/// names.
#[macro_export]
macro_rules! string_enum {
    ($ty:ident { $($variant:ident = $name:literal),+ $(,)? }) => {
        impl $ty {
            pub const ALL: &'static [$ty] = &[$($ty::$variant),+];

            pub fn as_str(self) -> &'static str {
                match self { $($ty::$variant => $name),+ }
            }
        }

        impl std::str::FromStr for $ty {
            type Err = $crate::domain::ParseEnumError;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                match s {
                    $($name => Ok($ty::$variant),)+
                    _ => Err($crate::domain::ParseEnumError {
                        value: s.to_owned(),
                        expected: concat!($($name, " "),+),
                    }),
                }
            }
        }

        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl $crate::domain::StringEnum for $ty {
            fn as_str(self) -> &'static str {
                $ty::as_str(self)
            }
        }
    };
}
pub use crate::string_enum;
