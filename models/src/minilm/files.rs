//! The model folder on disk: which files it must hold, and errors that name the one
//! that is missing, so a wrong `models.local.model_dir` is fixed at the first attempt.

use std::path::{Path, PathBuf};

/// The model's architecture (BERT hyper-parameters).
pub const CONFIG: &str = "config.json";
/// The weights.
pub const WEIGHTS: &str = "model.safetensors";
/// The WordPiece vocabulary and normalisation rules.
pub const TOKENIZER: &str = "tokenizer.json";

const REQUIRED: [&str; 3] = [CONFIG, WEIGHTS, TOKENIZER];

/// Why the model could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error(
        "the all-MiniLM-L6-v2 model folder {} does not exist or is not a folder \
         (models.local.model_dir; see docs/offline-model.md)",
        dir.display()
    )]
    NoFolder { dir: PathBuf },
    #[error(
        "the all-MiniLM-L6-v2 model folder {} has no {file} (it needs {}; \
         see docs/offline-model.md)",
        dir.display(),
        REQUIRED.join(", ")
    )]
    MissingFile { dir: PathBuf, file: &'static str },
    /// The folder of the Python package rather than its `model/` folder.
    #[error(
        "{} holds the model one level down: set models.local.model_dir to {}",
        dir.display(),
        inner.display()
    )]
    OneLevelUp { dir: PathBuf, inner: PathBuf },
    #[error("cannot read {}: {message}", path.display())]
    Unreadable { path: PathBuf, message: String },
    /// The files load but describe another model.
    #[error("{} is not all-MiniLM-L6-v2: {message}", path.display())]
    WrongModel { path: PathBuf, message: String },
}

/// The paths of a folder that holds every file the model needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelFiles {
    /// Canonical, so two spellings of one folder share one loaded model.
    pub dir: PathBuf,
    pub config: PathBuf,
    pub weights: PathBuf,
    pub tokenizer: PathBuf,
}

impl ModelFiles {
    /// Checks that `dir` holds every required file, naming the first one missing.
    pub fn locate(dir: &Path) -> Result<Self, LoadError> {
        if !dir.is_dir() {
            return Err(LoadError::NoFolder { dir: dir.into() });
        }
        let dir = dir.canonicalize().map_err(|e| LoadError::Unreadable {
            path: dir.into(),
            message: e.to_string(),
        })?;
        if let Some(file) = REQUIRED.into_iter().find(|f| !dir.join(f).is_file()) {
            // `pip install` / the unpacked wheel put the files in `<package>/model/`.
            let inner = dir.join("model");
            if REQUIRED.iter().all(|f| inner.join(f).is_file()) {
                return Err(LoadError::OneLevelUp { dir, inner });
            }
            return Err(LoadError::MissingFile { dir, file });
        }
        Ok(Self {
            config: dir.join(CONFIG),
            weights: dir.join(WEIGHTS),
            tokenizer: dir.join(TOKENIZER),
            dir,
        })
    }
}

/// The bytes of `path`, or an error naming it.
pub fn read(path: &Path) -> Result<Vec<u8>, LoadError> {
    std::fs::read(path).map_err(|e| LoadError::Unreadable {
        path: path.into(),
        message: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_missing_file_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let err = ModelFiles::locate(dir.path()).unwrap_err().to_string();
        assert!(err.contains("has no config.json"), "{err}");
        std::fs::write(dir.path().join(CONFIG), "{}").unwrap();
        std::fs::write(dir.path().join(WEIGHTS), "").unwrap();
        let err = ModelFiles::locate(dir.path()).unwrap_err().to_string();
        assert!(err.contains("has no tokenizer.json"), "{err}");
        std::fs::write(dir.path().join(TOKENIZER), "{}").unwrap();
        let files = ModelFiles::locate(dir.path()).unwrap();
        assert!(files.weights.ends_with(WEIGHTS));
    }

    #[test]
    fn a_missing_folder_and_the_package_folder_are_told_apart() {
        let dir = tempfile::tempdir().unwrap();
        let absent = dir.path().join("absent");
        let err = ModelFiles::locate(&absent).unwrap_err().to_string();
        assert!(
            err.contains("does not exist") && err.contains("absent"),
            "{err}"
        );
        let inner = dir.path().join("model");
        std::fs::create_dir(&inner).unwrap();
        for file in REQUIRED {
            std::fs::write(inner.join(file), "").unwrap();
        }
        let err = ModelFiles::locate(dir.path()).unwrap_err();
        assert!(matches!(err, LoadError::OneLevelUp { .. }), "{err}");
    }
}
