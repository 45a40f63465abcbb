//! The keys that name an item across runs (a JSONL line by a hash of its content) and the
//! `external_id` derived from a key.

/// The key of a JSONL line: the file and a hash of the line's content (trailing
/// whitespace aside).
pub fn jsonl_key(rel: &str, line: &[u8]) -> String {
    let end = line
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(0, |i| i + 1);
    format!("{rel}#{:016x}", fnv1a(&line[..end]))
}

/// `import:<key>`; keys too long for the API's 256 bytes, or with control characters,
/// keep their tail and gain a hash of the whole key.
pub fn external_id(key: &str) -> String {
    let plain = format!("import:{key}");
    if plain.len() <= 256 && !plain.chars().any(char::is_control) {
        return plain;
    }
    let clean: String = key
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    let mut tail_start = clean.len().saturating_sub(200);
    while !clean.is_char_boundary(tail_start) {
        tail_start += 1;
    }
    format!(
        "import:{:016x}:{}",
        fnv1a(key.as_bytes()),
        &clean[tail_start..]
    )
}

/// FNV-1a, 64 bits: a hash that never changes between versions or platforms.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}
