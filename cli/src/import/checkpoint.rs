//! The import's checkpoint: an append-only JSON-lines file (`<PATH>.cosmo-import` by
//! default). The first line names the target (server URL and `--user`); each further
//! line is one accepted item, written as soon as Cosmo accepted it:
//!
//! ```text
//! {"cosmo_import":1,"url":"http://127.0.0.1:8080","user":"alex"}
//! {"item":"notes/standup.txt","source":"6a00ca70-4a24-51f5-9423-6ce74b60a71f"}
//! ```
//!
//! A re-run skips the items it lists. A line cut short by a kill is dropped when the
//! file is opened again; the item is posted again and Cosmo answers "duplicate".

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// Where the import goes: a checkpoint is only valid for the same target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Target {
    pub cosmo_import: u32,
    pub url: String,
    pub user: Option<String>,
}

#[derive(Debug, Serialize, Deserialize)]
struct Entry {
    item: String,
    source: String,
}

#[derive(Debug)]
pub struct Checkpoint {
    pub path: PathBuf,
    file: std::fs::File,
    /// Item key → the Source's entity key.
    done: HashMap<String, String>,
}

impl Checkpoint {
    /// The default place for `path`'s checkpoint: beside it, `<name>.cosmo-import`.
    pub fn default_path(path: &Path) -> anyhow::Result<PathBuf> {
        let full = path
            .canonicalize()
            .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
        let name = full.file_name().ok_or_else(|| {
            anyhow::anyhow!(
                "cannot put a checkpoint beside {}: pass --checkpoint",
                full.display()
            )
        })?;
        let mut file = name.to_owned();
        file.push(".cosmo-import");
        Ok(full.with_file_name(file))
    }

    /// Opens (or creates) the checkpoint at `path` for `target`.
    pub fn open(path: &Path, target: &Target) -> anyhow::Result<Self> {
        let context = |e: std::io::Error| anyhow::anyhow!("checkpoint {}: {e}", path.display());
        let mut done = HashMap::new();
        let existing = match std::fs::read(path) {
            Ok(bytes) => Some(bytes),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(context(e)),
        };
        if let Some(bytes) = &existing {
            // Only complete lines count; a torn last line is cut off before appending.
            let complete = bytes.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
            let text = String::from_utf8_lossy(&bytes[..complete]);
            let mut lines = text.lines();
            if let Some(first) = lines.next() {
                let theirs: Target = serde_json::from_str(first).map_err(|_| {
                    anyhow::anyhow!(
                        "{} is not a cosmo import checkpoint; pass --checkpoint <file>",
                        path.display()
                    )
                })?;
                anyhow::ensure!(
                    theirs == *target,
                    "checkpoint {} belongs to an import into {} as user {}; use \
                     --checkpoint <file> for this one, or delete it to start over",
                    path.display(),
                    theirs.url,
                    theirs.user.as_deref().unwrap_or("(from the items)"),
                );
            }
            for line in lines {
                if let Ok(e) = serde_json::from_str::<Entry>(line) {
                    done.insert(e.item, e.source);
                }
            }
            if complete < bytes.len() {
                let f = std::fs::OpenOptions::new()
                    .write(true)
                    .open(path)
                    .map_err(context)?;
                f.set_len(complete as u64).map_err(context)?;
            }
        }
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(context)?;
        if existing.as_ref().is_none_or(|b| !b.contains(&b'\n')) {
            let mut header = serde_json::to_vec(target)?;
            header.push(b'\n');
            file.write_all(&header).map_err(context)?;
        }
        Ok(Self {
            path: path.to_owned(),
            file,
            done,
        })
    }

    pub fn done(&self) -> &HashMap<String, String> {
        &self.done
    }

    /// Records an accepted item (one write of a whole line, before the next item).
    pub fn record(&mut self, item: &str, source: &str) -> anyhow::Result<()> {
        let mut line = serde_json::to_vec(&Entry {
            item: item.to_owned(),
            source: source.to_owned(),
        })?;
        line.push(b'\n');
        self.file
            .write_all(&line)
            .map_err(|e| anyhow::anyhow!("writing checkpoint {}: {e}", self.path.display()))?;
        self.done.insert(item.to_owned(), source.to_owned());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(user: &str) -> Target {
        Target {
            cosmo_import: 1,
            url: "http://x".into(),
            user: Some(user.into()),
        }
    }

    #[test]
    fn resumes_drops_torn_lines_and_refuses_other_targets() {
        let dir = tempfile_dir();
        let path = dir.join("data.cosmo-import");
        let mut c = Checkpoint::open(&path, &target("al")).unwrap();
        c.record("a.txt", "k1").unwrap();
        c.record("b.jsonl#2", "k2").unwrap();
        drop(c);
        // A kill in the middle of a write.
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        f.write_all(br#"{"item":"c.tx"#).unwrap();
        drop(f);
        let mut c = Checkpoint::open(&path, &target("al")).unwrap();
        assert_eq!(c.done().len(), 2);
        assert_eq!(c.done()["b.jsonl#2"], "k2");
        c.record("c.txt", "k3").unwrap();
        drop(c);
        let c = Checkpoint::open(&path, &target("al")).unwrap();
        assert_eq!(c.done().len(), 3, "the torn line did not swallow the next");
        let err = Checkpoint::open(&path, &target("bo")).unwrap_err();
        assert!(err.to_string().contains("belongs to an import"), "{err}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    fn tempfile_dir() -> PathBuf {
        let dir = std::env::temp_dir().join(format!("cosmo-checkpoint-{}", ulid::Ulid::generate()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }
}
