//! What `cosmo import` posts: the items below a path, each a `POST /api/sources` body.
//!
//! * `.jsonl` — one source body per non-blank line;
//! * `.json` — one source body;
//! * `.txt` — a `conversation` transcript when most of its lines are `Speaker: text`,
//!   otherwise a `text-note` (title: the file name without extension);
//! * `.md` — a `text-note`;
//! * `.eml` — an `email` (see [`super::eml`]).
//!
//! Every item has a key that stays the same across runs: its path relative to the
//! imported folder (or the file's name), plus `#<line>` for a JSONL line. The key is
//! what the checkpoint records, and `import:<key>` is the item's `external_id` when the
//! body has none, so Cosmo itself de-duplicates a re-import. `--user` fills a missing
//! `user_id`. Hidden files and folders (`.name`) are left out, and so are other
//! extensions (listed as ignored).

use std::collections::HashSet;
use std::io::BufRead;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

/// How a file's items are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Jsonl,
    Json,
    Text,
    Markdown,
    Email,
}

impl Format {
    fn of(path: &Path) -> Option<Self> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "jsonl" | "ndjson" => Self::Jsonl,
            "json" => Self::Json,
            "txt" => Self::Text,
            "md" | "markdown" => Self::Markdown,
            "eml" => Self::Email,
            _ => return None,
        })
    }

    /// Items of this format carry no user id of their own.
    pub fn needs_user(self) -> bool {
        matches!(self, Self::Text | Self::Markdown | Self::Email)
    }
}

/// The files to import, in a stable order, and how many items they hold.
#[derive(Debug)]
pub struct Scan {
    pub files: Vec<(PathBuf, String, Format)>,
    pub total: usize,
    /// Files with an extension `cosmo import` does not read.
    pub ignored: Vec<String>,
}

impl Scan {
    /// Walks `root` (a file or a folder), leaving out `exclude` (the checkpoint).
    pub fn of(root: &Path, exclude: &Path) -> anyhow::Result<Self> {
        let meta = std::fs::metadata(root)
            .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", root.display()))?;
        let mut paths = Vec::new();
        if meta.is_dir() {
            walk(root, &mut paths)?;
        } else {
            paths.push(root.to_owned());
        }
        paths.sort();
        let mut scan = Self {
            files: Vec::new(),
            total: 0,
            ignored: Vec::new(),
        };
        for path in paths {
            if same_file(&path, exclude) {
                continue;
            }
            let rel = if meta.is_dir() {
                path.strip_prefix(root).unwrap_or(&path).to_owned()
            } else {
                PathBuf::from(path.file_name().unwrap_or_default())
            };
            let rel = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            match Format::of(&path) {
                Some(Format::Jsonl) => {
                    scan.total += jsonl_lines(&path)?;
                    scan.files.push((path, rel, Format::Jsonl));
                }
                Some(format) => {
                    scan.total += 1;
                    scan.files.push((path, rel, format));
                }
                None => scan.ignored.push(rel),
            }
        }
        Ok(scan)
    }

    pub fn needs_user(&self) -> usize {
        self.files.iter().filter(|f| f.2.needs_user()).count()
    }

    /// Every item in order; those whose key is in `done` are [`Body::Skipped`] without
    /// being read further.
    pub fn items<'a>(
        &'a self,
        user: Option<&'a str>,
        done: &'a HashSet<String>,
    ) -> impl Iterator<Item = Item> + 'a {
        self.files
            .iter()
            .flat_map(move |(path, rel, format)| file_items(path, rel, *format, user, done))
    }
}

/// One thing to post.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// Stable across runs and edits of other items: `notes/a.txt`, or for a JSONL line
    /// `calls.jsonl#<hash of the line>` (a line keeps its key when lines are added,
    /// removed or reordered around it).
    pub key: String,
    /// Where the item is now, for messages: `notes/a.txt`, `calls.jsonl line 3`.
    pub place: String,
    pub body: Body,
}

/// The key of a JSONL line: the file and a hash of the line's content (trailing
/// whitespace aside).
pub fn jsonl_key(rel: &str, line: &[u8]) -> String {
    let end = line
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(0, |i| i + 1);
    format!("{rel}#{:016x}", fnv1a(&line[..end]))
}

#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    /// Imported by an earlier run (in the checkpoint).
    Skipped,
    Ready(Value),
    /// Could not be read or is not a source body; the reason.
    Invalid(String),
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry?;
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let path = entry.path();
        let kind = entry.file_type()?;
        // Symlinked folders are not followed (no cycles); symlinked files are read.
        if kind.is_dir() {
            walk(&path, out)?;
        } else if kind.is_file() || (kind.is_symlink() && path.is_file()) {
            out.push(path);
        }
    }
    Ok(())
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

fn jsonl_lines(path: &Path) -> anyhow::Result<usize> {
    let file = std::fs::File::open(path)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
    let mut n = 0;
    for line in std::io::BufReader::new(file).split(b'\n') {
        if !line?.iter().all(u8::is_ascii_whitespace) {
            n += 1;
        }
    }
    Ok(n)
}

fn file_items<'a>(
    path: &'a Path,
    rel: &'a str,
    format: Format,
    user: Option<&'a str>,
    done: &'a HashSet<String>,
) -> Box<dyn Iterator<Item = Item> + 'a> {
    if format != Format::Jsonl {
        let key = rel.to_owned();
        let body = if done.contains(&key) {
            Body::Skipped
        } else {
            match std::fs::read(path) {
                Ok(bytes) => file_body(&bytes, rel, format, user),
                Err(e) => Body::Invalid(format!("cannot read the file: {e}")),
            }
        };
        return Box::new(std::iter::once(Item {
            place: key.clone(),
            key,
            body,
        }));
    }
    let lines = match std::fs::File::open(path) {
        Ok(f) => std::io::BufReader::new(f).split(b'\n'),
        Err(e) => {
            return Box::new(std::iter::once(Item {
                key: rel.to_owned(),
                place: rel.to_owned(),
                body: Body::Invalid(format!("cannot read the file: {e}")),
            }));
        }
    };
    Box::new(
        lines
            .enumerate()
            .filter_map(move |(i, line)| {
                let place = format!("{rel} line {}", i + 1);
                let (key, body) = match line {
                    Ok(l) if l.iter().all(u8::is_ascii_whitespace) => return None,
                    Ok(l) => {
                        let key = jsonl_key(rel, &l);
                        let body = if done.contains(&key) {
                            Body::Skipped
                        } else {
                            json_body(&l, &key, user)
                        };
                        (key, body)
                    }
                    Err(e) => (
                        format!("{rel}#{}", i + 1),
                        Body::Invalid(format!("cannot read the line: {e}")),
                    ),
                };
                Some(Item { key, place, body })
            })
            .fuse(),
    )
}

fn file_body(bytes: &[u8], rel: &str, format: Format, user: Option<&str>) -> Body {
    let title = rel
        .rsplit('/')
        .next()
        .and_then(|name| name.rsplit_once('.').map(|(stem, _)| stem).or(Some(name)))
        .unwrap_or(rel);
    let user = user.unwrap_or_default();
    let body = match format {
        Format::Json => return json_body(bytes, rel, Some(user).filter(|u| !u.is_empty())),
        Format::Jsonl => unreachable!("JSONL files are read line by line"),
        Format::Text | Format::Markdown => {
            let text = String::from_utf8_lossy(bytes);
            let source_type = if format == Format::Text && looks_like_transcript(&text) {
                "conversation"
            } else {
                "text-note"
            };
            json!({
                "user_id": user,
                "source_type": source_type,
                "raw_content": {"title": title, "content": text},
            })
        }
        Format::Email => {
            let mail = super::eml::parse(bytes);
            let mut body = json!({
                "user_id": user,
                "source_type": "email",
                "raw_content": mail.raw_content(),
            });
            if let Some(date) = mail.date {
                body["started_at"] = json!(date.to_rfc3339());
            }
            body
        }
    };
    let Value::Object(mut body) = body else {
        unreachable!("built as an object")
    };
    body.insert("external_id".into(), json!(external_id(rel)));
    Body::Ready(Value::Object(body))
}

/// A JSON source body (a `.json` file or a JSONL line), completed with the user and the
/// derived `external_id` when it has none.
fn json_body(bytes: &[u8], key: &str, user: Option<&str>) -> Body {
    let mut body: Map<String, Value> = match serde_json::from_slice(bytes) {
        Ok(Value::Object(map)) => map,
        Ok(_) => return Body::Invalid("not a JSON object".into()),
        Err(e) => return Body::Invalid(format!("invalid JSON: {e}")),
    };
    if let Some(user) = user
        && body.get("user_id").is_none_or(Value::is_null)
    {
        body.insert("user_id".into(), json!(user));
    }
    if body.get("external_id").is_none_or(Value::is_null) {
        body.insert("external_id".into(), json!(external_id(key)));
    }
    Body::Ready(Value::Object(body))
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

/// At least two non-blank lines, and most of them `Speaker: text` with a speaker that
/// looks like a name (capitalised, up to four words and 40 characters).
fn looks_like_transcript(text: &str) -> bool {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let turns = lines.iter().filter(|l| is_turn(l)).count();
    turns >= 2 && turns * 2 >= lines.len()
}

fn is_turn(line: &str) -> bool {
    let Some((label, text)) = line.split_once(':') else {
        return false;
    };
    let label = label.trim();
    !text.trim().is_empty()
        && label.chars().next().is_some_and(char::is_uppercase)
        && label.chars().count() <= 40
        && label.split_whitespace().count() <= 4
        && label
            .chars()
            .all(|c| c.is_alphabetic() || c == ' ' || ".'-".contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transcripts_are_told_from_notes() {
        assert!(looks_like_transcript(
            "Sarah Chen: Acme signed.\n\nPriya: Great news.\nSarah Chen: Indeed."
        ));
        assert!(!looks_like_transcript(
            "Call Bob at 3:30\nBuy milk\nSee https://example.com"
        ));
        assert!(!looks_like_transcript("Note: just one line"));
    }

    #[test]
    fn external_ids_fit_the_api() {
        assert_eq!(external_id("calls.jsonl#3"), "import:calls.jsonl#3");
        let long = "a/".repeat(200) + "x.txt";
        let id = external_id(&long);
        assert!(id.len() <= 256 && id.ends_with("/x.txt"), "{id}");
        assert_ne!(id, external_id(&("b/".repeat(200) + "x.txt")));
        assert!(!external_id("a\nb").chars().any(char::is_control));
    }

    #[test]
    fn json_bodies_get_user_and_external_id_only_when_missing() {
        let Body::Ready(b) = json_body(br#"{"source_type": "text-note"}"#, "f.jsonl#2", Some("al"))
        else {
            panic!()
        };
        assert_eq!(
            (b["user_id"].as_str(), b["external_id"].as_str()),
            (Some("al"), Some("import:f.jsonl#2"))
        );
        let Body::Ready(b) =
            json_body(br#"{"user_id": "bo", "external_id": "x"}"#, "k", Some("al"))
        else {
            panic!()
        };
        assert_eq!(
            (b["user_id"].as_str(), b["external_id"].as_str()),
            (Some("bo"), Some("x"))
        );
        assert!(matches!(json_body(b"[1]", "k", None), Body::Invalid(_)));
        assert!(
            matches!(json_body(b"{oops", "k", None), Body::Invalid(m) if m.starts_with("invalid JSON"))
        );
    }

    #[test]
    fn a_jsonl_line_is_keyed_by_its_content_not_its_position() {
        let key = jsonl_key("calls.jsonl", br#"{"a": 1}"#);
        assert!(key.starts_with("calls.jsonl#") && key.len() == "calls.jsonl#".len() + 16);
        assert_eq!(
            key,
            jsonl_key("calls.jsonl", b"{\"a\": 1}  \r"),
            "CRLF files"
        );
        assert_ne!(key, jsonl_key("calls.jsonl", br#"{"a": 2}"#));
        assert_ne!(key, jsonl_key("other.jsonl", br#"{"a": 1}"#));
    }
}
