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
mod keys;
mod read;
mod scan;
#[cfg(test)]
mod tests;

use std::path::Path;

use serde_json::Value;

pub use self::keys::{external_id, jsonl_key};
pub use self::scan::Scan;

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

#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    /// Imported by an earlier run (in the checkpoint).
    Skipped,
    Ready(Value),
    /// Could not be read or is not a source body; the reason.
    Invalid(String),
}
