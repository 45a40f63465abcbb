//! [`MiniLmEmbedder`]: the model as an [`Embedder`], loaded once per process per folder.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use async_trait::async_trait;

use super::{DIMENSIONS, Encoder, LoadError, MODEL, ModelFiles, PROVIDER};
use crate::{Completion, Embedder, LlmError, LlmResult, Usage};

/// Models loaded by this process, by canonical folder: Services built twice (API and
/// workers in one process, tests) share one copy of the weights.
static LOADED: Mutex<Vec<(PathBuf, Arc<Encoder>)>> = Mutex::new(Vec::new());

/// all-MiniLM-L6-v2 as an [`Embedder`]; clones share the loaded model.
#[derive(Debug, Clone)]
pub struct MiniLmEmbedder {
    encoder: Arc<Encoder>,
}

impl MiniLmEmbedder {
    /// The model in `dir` (the folder holding `config.json`, `model.safetensors` and
    /// `tokenizer.json`), loaded on first use in this process. Blocks while reading
    /// the weights (well under a second from a local disk): call it at start-up.
    pub fn load(dir: &Path) -> Result<Self, LoadError> {
        let files = ModelFiles::locate(dir)?;
        // Held while loading, so two callers never load the same folder twice.
        let mut loaded = LOADED.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((_, encoder)) = loaded.iter().find(|(d, _)| *d == files.dir) {
            return Ok(Self {
                encoder: encoder.clone(),
            });
        }
        let dir = files.dir.clone();
        let encoder = Arc::new(Encoder::load(files)?);
        loaded.push((dir, encoder.clone()));
        Ok(Self { encoder })
    }
}

fn usage(tokens: u64) -> Usage {
    Usage {
        provider: PROVIDER.to_owned(),
        model: MODEL.to_owned(),
        prompt_tokens: tokens,
        completion_tokens: 0,
    }
}

#[async_trait]
impl Embedder for MiniLmEmbedder {
    fn dimensions(&self) -> usize {
        DIMENSIONS
    }

    /// Usage counts the tokens the model read, `[CLS]` and `[SEP]` included, after
    /// truncation to [`MAX_TOKENS`](super::MAX_TOKENS).
    async fn embed(&self, texts: &[String]) -> LlmResult<Vec<Vec<f32>>> {
        if texts.is_empty() {
            return Ok(Completion {
                value: Vec::new(),
                usage: usage(0),
            });
        }
        let encoder = self.encoder.clone();
        let texts = texts.to_vec();
        let embedded = tokio::task::spawn_blocking(move || encoder.embed(&texts))
            .await
            .map_err(|e| LlmError::Unavailable {
                provider: PROVIDER.into(),
                message: format!("the embedding task stopped: {e}"),
            })?
            // The same input would fail the same way: not worth a retry.
            .map_err(|e| LlmError::Refused {
                provider: PROVIDER.into(),
                message: format!("{e:#}"),
            })?;
        Ok(Completion {
            value: embedded.vectors,
            usage: usage(embedded.tokens),
        })
    }
}
