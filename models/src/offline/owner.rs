//! The owner as the offline model sees them: their profile name, matched in text by
//! full name or, for a one-word mention or speaker label, by first name.

use cosmo_core::domain::names::canonical_person;

/// The owner's profile name, matched by full name or, for a one-word mention, first name.
#[derive(Debug, Clone, Default)]
pub struct Owner {
    pub name: Option<String>,
    canonical: String,
    first: String,
}

impl Owner {
    pub fn new(name: Option<&str>) -> Self {
        let name = name
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(str::to_owned);
        let canonical = name.as_deref().map(canonical_person).unwrap_or_default();
        let first = canonical.split('-').next().unwrap_or("").to_owned();
        Self {
            name,
            canonical,
            first,
        }
    }

    pub fn matches(&self, name: &str) -> bool {
        let canonical = canonical_person(name);
        !self.canonical.is_empty()
            && !canonical.is_empty()
            && (canonical == self.canonical
                || (!canonical.contains('-') && canonical == self.first))
    }
}
