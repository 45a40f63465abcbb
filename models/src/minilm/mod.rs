//! The `local` embedding provider: sentence-transformers' all-MiniLM-L6-v2 run on this
//! machine's CPU with `candle`, from model files on disk (see docs/offline-model.md).
//! Unlike the offline hashing embedder, texts that mean the same thing in other words
//! get close vectors; like it, nothing leaves the machine.
//!
//! * [`files`] — the model folder and the errors that name a missing file;
//! * [`encoder`] — tokenising, the forward pass, mean pooling and normalisation.
//!
//! The weights are loaded once per process per folder and shared; inference runs on
//! tokio's blocking pool so it never stalls the async workers.
//!
//! The model itself is built only with the `minilm` cargo feature (candle is a fifth of
//! a cold build, and the embedded default does not need it); without it, choosing the
//! `local` provider stops start-up with a message that says so.

#[cfg(feature = "minilm")]
mod embedder;
#[cfg(feature = "minilm")]
pub mod encoder;
pub mod files;

#[cfg(feature = "minilm")]
pub use embedder::MiniLmEmbedder;
#[cfg(feature = "minilm")]
pub use encoder::{Embedded, Encoder, MAX_TOKENS};
pub use files::{LoadError, ModelFiles};

/// Provider name in the usage ledger.
pub const PROVIDER: &str = "local";
/// Model name in the usage ledger.
pub const MODEL: &str = "all-MiniLM-L6-v2";
/// The model's vector size; `models.embedding_dimensions` must equal it.
pub const DIMENSIONS: usize = 384;
