//! Name normalisation: the identity keys of semantic nodes come from here, so "Sarah
//! Chen", "sarah  chen" and "Sarah-Chen" are one person.

/// Lower case, words joined by single hyphens: `"Alex  Johnson"` → `"alex-johnson"`.
pub fn canonical_person(name: &str) -> String {
    words(name).join("-")
}

/// Lower case, words joined by single spaces: `" Quarterly   Budget "` → `"quarterly budget"`.
pub fn normalise(name: &str) -> String {
    words(name).join(" ")
}

fn words(name: &str) -> Vec<String> {
    name.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '&' || c == '.' || c == '+'))
        .map(|w| {
            w.trim_matches(|c: char| c == '\'' || c == '.')
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn people_with_the_same_name_share_one_canonical_name() {
        assert_eq!(canonical_person("Alex Johnson"), "alex-johnson");
        assert_eq!(canonical_person("  alex   JOHNSON "), "alex-johnson");
        assert_eq!(canonical_person("Alex-Johnson"), "alex-johnson");
        assert_eq!(canonical_person("O'Brien, Pat"), "o'brien-pat");
        assert_eq!(canonical_person("José Álvarez"), "josé-álvarez");
    }

    #[test]
    fn concept_names_collapse_case_and_spacing() {
        assert_eq!(normalise(" Quarterly   Budget "), "quarterly budget");
        assert_eq!(normalise("AT&T"), "at&t");
        assert_eq!(normalise("Node.js"), "node.js");
    }
}
