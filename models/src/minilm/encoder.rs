//! The model in memory and one forward pass: WordPiece tokens (truncated to the model's
//! 256), BERT on the CPU, mean pooling over the attention mask, L2 normalisation —
//! what sentence-transformers does for all-MiniLM-L6-v2, so vectors match its output.

use anyhow::Context;
use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config};
use tokenizers::{Encoding, Tokenizer, TruncationParams};

use super::DIMENSIONS;
use super::files::{LoadError, ModelFiles, read};

/// The longest input the model was trained on (`sentence_bert_config.json`'s
/// `max_seq_length`); longer texts are cut, as sentence-transformers does.
pub const MAX_TOKENS: usize = 256;
/// Texts per forward pass: bounds memory (batch × tokens² attention scores per head).
const BATCH: usize = 32;

/// Vectors in input order and the tokens the model read for them.
#[derive(Debug, Clone, PartialEq)]
pub struct Embedded {
    pub vectors: Vec<Vec<f32>>,
    pub tokens: u64,
}

/// The loaded weights and tokenizer; immutable, shared by every caller of a process.
pub struct Encoder {
    model: BertModel,
    tokenizer: Tokenizer,
    files: ModelFiles,
}

impl std::fmt::Debug for Encoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Encoder")
            .field("dir", &self.files.dir)
            .finish_non_exhaustive()
    }
}

impl Encoder {
    /// Reads the three files (≈ 90 MB of weights). Nothing is fetched from anywhere.
    pub fn load(files: ModelFiles) -> Result<Self, LoadError> {
        let wrong = |path: &std::path::Path, message: String| LoadError::WrongModel {
            path: path.into(),
            message,
        };
        let config: Config = serde_json::from_slice(&read(&files.config)?)
            .map_err(|e| wrong(&files.config, e.to_string()))?;
        if config.hidden_size != DIMENSIONS {
            return Err(wrong(
                &files.config,
                format!("hidden_size is {}, not {DIMENSIONS}", config.hidden_size),
            ));
        }
        let device = Device::Cpu;
        let weights =
            VarBuilder::from_buffered_safetensors(read(&files.weights)?, DType::F32, &device)
                .map_err(|e| wrong(&files.weights, e.to_string()))?;
        let model =
            BertModel::load(weights, &config).map_err(|e| wrong(&files.weights, e.to_string()))?;
        let mut tokenizer = Tokenizer::from_file(&files.tokenizer)
            .map_err(|e| wrong(&files.tokenizer, e.to_string()))?;
        // tokenizer.json pads every input to 128 and cuts there; padding is per batch
        // here and the cut is the model's 256.
        tokenizer.with_padding(None);
        tokenizer
            .with_truncation(Some(TruncationParams {
                max_length: MAX_TOKENS,
                ..TruncationParams::default()
            }))
            .map_err(|e| wrong(&files.tokenizer, e.to_string()))?;
        Ok(Self {
            model,
            tokenizer,
            files,
        })
    }

    /// Unit vectors of [`DIMENSIONS`] for `texts`, in order. CPU-bound: call it off the
    /// async runtime.
    pub fn embed(&self, texts: &[String]) -> anyhow::Result<Embedded> {
        let inputs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let encodings = self
            .tokenizer
            .encode_batch(inputs, true)
            .map_err(|e| anyhow::anyhow!("tokenizing: {e}"))?;
        // Similar lengths share a batch, so little compute goes to padding.
        let mut order: Vec<usize> = (0..encodings.len()).collect();
        order.sort_by_key(|&i| encodings[i].len());
        let mut vectors = vec![Vec::new(); encodings.len()];
        for chunk in order.chunks(BATCH) {
            let batch: Vec<&Encoding> = chunk.iter().map(|&i| &encodings[i]).collect();
            let pooled = self.forward(&batch).context("running all-MiniLM-L6-v2")?;
            for (&i, vector) in chunk.iter().zip(pooled) {
                vectors[i] = vector;
            }
        }
        let tokens = encodings
            .iter()
            .map(|e| {
                e.get_attention_mask()
                    .iter()
                    .map(|&m| u64::from(m))
                    .sum::<u64>()
            })
            .sum();
        Ok(Embedded { vectors, tokens })
    }

    /// One padded batch through the model, pooled and normalised.
    fn forward(&self, batch: &[&Encoding]) -> candle_core::Result<Vec<Vec<f32>>> {
        let width = batch.iter().map(|e| e.len()).max().unwrap_or(0);
        let (mut ids, mut mask) = (Vec::new(), Vec::new());
        for encoding in batch {
            let pad = width - encoding.len();
            ids.extend(
                encoding
                    .get_ids()
                    .iter()
                    .copied()
                    .chain(std::iter::repeat_n(0, pad)),
            );
            mask.extend(
                encoding
                    .get_attention_mask()
                    .iter()
                    .copied()
                    .chain(std::iter::repeat_n(0, pad)),
            );
        }
        let shape = (batch.len(), width);
        let device = &self.model.device;
        let ids = Tensor::from_vec(ids, shape, device)?;
        let mask = Tensor::from_vec(mask, shape, device)?;
        let types = ids.zeros_like()?;
        let hidden = self.model.forward(&ids, &types, Some(&mask))?;
        mean_pool_normalised(&hidden, &mask)?.to_vec2::<f32>()
    }
}

/// Mean of the token vectors the mask keeps, scaled to unit length.
/// `hidden`: (batch, tokens, dims); `mask`: (batch, tokens) of 0/1.
fn mean_pool_normalised(hidden: &Tensor, mask: &Tensor) -> candle_core::Result<Tensor> {
    let mask = mask.to_dtype(DType::F32)?.unsqueeze(2)?;
    let summed = hidden.broadcast_mul(&mask)?.sum(1)?;
    // Every input has at least [CLS] and [SEP], so no count is zero.
    let counts = mask.sum(1)?;
    let mean = summed.broadcast_div(&counts)?;
    let norms = mean
        .sqr()?
        .sum_keepdim(1)?
        .sqrt()?
        .clamp(1e-12f32, f32::MAX)?;
    mean.broadcast_div(&norms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pooling_ignores_padding_and_gives_unit_vectors() {
        let dev = Device::Cpu;
        // One text of two tokens and one padding position.
        let hidden = Tensor::from_vec(vec![3f32, 0., 1., 4., 100., 100.], (1, 3, 2), &dev).unwrap();
        let mask = Tensor::from_vec(vec![1u32, 1, 0], (1, 3), &dev).unwrap();
        let pooled = mean_pool_normalised(&hidden, &mask)
            .unwrap()
            .to_vec2::<f32>()
            .unwrap();
        // Mean (2, 2) → (0.7071, 0.7071).
        let expected = std::f32::consts::FRAC_1_SQRT_2;
        assert!(
            pooled[0].iter().all(|x| (x - expected).abs() < 1e-6),
            "{pooled:?}"
        );
    }
}
