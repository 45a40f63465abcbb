//! The `local` embedding provider (all-MiniLM-L6-v2 with candle) on the real model
//! files: meaning rather than shared words decides closeness, vectors are unit-length
//! and repeatable, tokens are counted, a wrong folder is named precisely, and the
//! pipeline stores its vectors on Sources. The files come from `cosmo_tests::minilm`;
//! without them these tests say why they skip.

use std::path::Path;

use cosmo_shared::config::{Config, Provider};
use cosmo_shared::llm::Embedder;
use cosmo_shared::llm::minilm::{DIMENSIONS, MAX_TOKENS, MiniLmEmbedder};
use cosmo_shared::services::Services;
use cosmo_tests::{fixtures, minilm, stores};

fn model(what: &str) -> Option<MiniLmEmbedder> {
    let dir = minilm::model_dir(what)?;
    Some(MiniLmEmbedder::load(&dir).expect("load all-MiniLM-L6-v2"))
}

async fn embed(model: &MiniLmEmbedder, texts: &[&str]) -> Vec<Vec<f32>> {
    let texts: Vec<String> = texts.iter().map(|t| (*t).to_owned()).collect();
    model.embed(&texts).await.expect("embed").value
}

fn cosine(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[tokio::test]
async fn paraphrases_are_closer_than_unrelated_text() {
    let Some(model) = model("local embeddings: similarity") else {
        return;
    };
    let v = embed(
        &model,
        &[
            "The cat sat on the mat",
            "A kitten rests on a rug",
            "Quarterly revenue grew 8%",
            "How do I reset my password?",
            "I forgot my login credentials",
        ],
    )
    .await;
    let (cat, kitten, revenue, reset, forgot) = (&v[0], &v[1], &v[2], &v[3], &v[4]);
    // No content word is shared: the offline hashing embedder cannot see these.
    assert!(
        cosine(cat, kitten) > cosine(cat, revenue) + 0.2,
        "cat~kitten {} vs cat~revenue {}",
        cosine(cat, kitten),
        cosine(cat, revenue)
    );
    assert!(
        cosine(reset, forgot) > cosine(reset, cat) + 0.2
            && cosine(reset, forgot) > cosine(reset, revenue) + 0.2,
        "reset~forgot {} vs reset~cat {}, reset~revenue {}",
        cosine(reset, forgot),
        cosine(reset, cat),
        cosine(reset, revenue)
    );
}

#[tokio::test]
async fn vectors_are_unit_length_384_dimensional_and_repeatable() {
    let Some(model) = model("local embeddings: shape") else {
        return;
    };
    assert_eq!(model.dimensions(), DIMENSIONS);
    let texts = [
        "Sarah is drafting the hiring plan",
        "",
        "ünïcödé 🌱 text",
        "x",
    ];
    let first = embed(&model, &texts).await;
    assert_eq!(first.len(), texts.len());
    for (text, v) in texts.iter().zip(&first) {
        assert_eq!(v.len(), DIMENSIONS, "{text:?}");
        let norm = cosine(v, v).sqrt();
        assert!((norm - 1.0).abs() < 1e-4, "{text:?}: norm {norm}");
    }
    assert_eq!(
        first,
        embed(&model, &texts).await,
        "same input, same vectors"
    );
    // Batching (and the padding it brings) does not change a text's vector.
    let alone = embed(&model, &[texts[0]]).await;
    assert!(cosine(&alone[0], &first[0]) > 0.9999);
    assert!(embed(&model, &[]).await.is_empty());
}

/// sentence-transformers' own output for this model and sentence (first components),
/// as published with the model and reproduced by independent implementations.
#[tokio::test]
async fn vectors_match_sentence_transformers() {
    let Some(model) = model("local embeddings: reference") else {
        return;
    };
    let v = embed(&model, &["This is an example sentence"]).await;
    let expected = [
        0.067_656_93,
        0.063_495_93,
        0.048_713_14,
        0.079_304_95,
        0.037_448_06,
    ];
    for (i, (got, want)) in v[0].iter().zip(expected).enumerate() {
        assert!((got - want).abs() < 1e-4, "component {i}: {got} vs {want}");
    }
}

#[tokio::test]
async fn token_usage_is_counted_by_the_tokenizer_and_capped_at_the_model_limit() {
    let Some(model) = model("local embeddings: usage") else {
        return;
    };
    let texts = ["The cat sat on the mat".to_owned()];
    let done = model.embed(&texts).await.unwrap();
    assert_eq!(
        (done.usage.provider.as_str(), done.usage.model.as_str()),
        ("local", "all-MiniLM-L6-v2")
    );
    // [CLS] the cat sat on the mat [SEP]
    assert_eq!(
        (done.usage.prompt_tokens, done.usage.completion_tokens),
        (8, 0)
    );
    let long = vec!["budget ".repeat(1000), "The cat sat on the mat".to_owned()];
    let done = model.embed(&long).await.unwrap();
    assert_eq!(done.usage.prompt_tokens, MAX_TOKENS as u64 + 8, "truncated");
    assert_eq!(done.value.len(), 2);
}

#[tokio::test]
async fn a_wrong_folder_names_what_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    let err = MiniLmEmbedder::load(dir.path()).unwrap_err().to_string();
    assert!(
        err.contains(&dir.path().canonicalize().unwrap().display().to_string())
            && err.contains("has no config.json"),
        "{err}"
    );
    // At start-up: Services refuse to start, saying which folder is wrong.
    let absent = dir.path().join("no-such-model");
    let err = Services::connect(local_config(dir.path(), &absent))
        .await
        .unwrap_err();
    let err = format!("{err:#}");
    assert!(
        err.contains("loading the local embedding model")
            && err.contains("no-such-model")
            && err.contains("does not exist"),
        "{err}"
    );
}

/// The embedded store in `dir` with `local` embeddings from `model_dir`.
fn local_config(dir: &Path, model_dir: &Path) -> Config {
    let db = dir.join("cosmo.db");
    let mut config = stores::test_config(&format!("sqlite://{}", db.display()), &db);
    config.models.providers.embeddings = Provider::Local;
    config.models.local.model_dir = Some(model_dir.to_owned());
    config
}

#[tokio::test]
async fn the_pipeline_stores_local_embeddings_on_sources() {
    let Some(model_dir) = minilm::model_dir("local embeddings: pipeline") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let svc = stores::connect(local_config(dir.path(), &model_dir)).await;
    let key = cosmo_tests::ingest::ingest(&svc, "default", fixtures::text_note("alex")).await;

    let source = svc.graph.source(&key).await.unwrap().unwrap();
    let stored = source.embedding.expect("the Source has an embedding");
    assert_eq!(stored.len(), DIMENSIONS);
    // The note is about tomatoes in a garden: a query in other words finds it.
    let queries = ["growing vegetables at home", "quarterly revenue grew 8%"];
    let queries: Vec<String> = queries.iter().map(|q| (*q).to_owned()).collect();
    let q = svc.models.embedder.embed(&queries).await.unwrap().value;
    assert!(
        cosine(&stored, &q[0]) > cosine(&stored, &q[1]) + 0.1,
        "vegetables {} vs revenue {}",
        cosine(&stored, &q[0]),
        cosine(&stored, &q[1])
    );
}
