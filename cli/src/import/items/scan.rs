//! Finding the files to import below a path ([`Scan`]): hidden ones left out, the
//! checkpoint excluded, JSONL lines counted, other extensions listed as ignored.

use std::collections::HashSet;
use std::io::BufRead;
use std::path::{Path, PathBuf};

use super::read::file_items;
use super::{Format, Item};

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

    /// Every item in order; those whose key is in `done` are
    /// [`Body::Skipped`](super::Body::Skipped) without being read further.
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
