//! Builders for the read-side cases: memories of every kind with the texts and
//! embeddings a case chooses, through the write side of the trait only.

use chrono::{DateTime, Utc};
use cosmo_shared::domain::{
    FactWrite, Hit, MemoryKind, MemoryState, NewFact, NewMacro, NewSource, NewStoryline,
    ProcessedContent, SearchScope,
};
use cosmo_shared::graph::GraphStore;
use cosmo_shared::ids;

use super::support::{EMBEDDED_WITH, set_lifecycle, t0};

/// The stores' embedding length (their vector indexes are built for it).
pub const DIMS: usize = 384;

/// A unit vector at `degrees` in the plane of the first two axes: its cosine with
/// `angle(0.0)` is `cos(degrees)`.
pub fn angle(degrees: f64) -> Vec<f32> {
    let mut v = vec![0.0f32; DIMS];
    let r = degrees.to_radians();
    v[0] = r.cos() as f32;
    v[1] = r.sin() as f32;
    v
}

pub fn cos_deg(degrees: f64) -> f64 {
    degrees.to_radians().cos()
}

/// Saves `new` and its processed fields; returns its key.
pub async fn processed(
    g: &dyn GraphStore,
    new: &NewSource,
    summary: &str,
    keywords: &[&str],
    embedding: Vec<f32>,
) -> String {
    g.create_source(new).await.unwrap();
    let content = new.raw_content["content"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let p = ProcessedContent {
        content,
        summary: summary.to_owned(),
        keywords: keywords.iter().map(|k| (*k).to_owned()).collect(),
        tags: Vec::new(),
        embedding,
        passages: Vec::new(),
        embedded_with: EMBEDDED_WITH.into(),
    };
    assert!(g.save_processed(&new.entity_key, &p, t0()).await.unwrap());
    new.entity_key.clone()
}

/// A free-text fact of `user`, 0.9 confident, with a fresh id.
pub fn fact(user: &str, text: &str, at: DateTime<Utc>) -> NewFact {
    NewFact {
        fact_id: ulid::Ulid::generate().to_string(),
        user_id: user.to_owned(),
        text: text.to_owned(),
        category: None,
        key: None,
        value: None,
        confidence: 0.9,
        about: Vec::new(),
        source_keys: Vec::new(),
        embedding: None,
        at,
    }
}

/// A structured fact (`category`, `key`, `value`) with this confidence.
pub fn slot(user: &str, category: &str, key: &str, value: &str, confidence: f64) -> NewFact {
    NewFact {
        category: Some(category.to_owned()),
        key: Some(key.to_owned()),
        value: Some(value.to_owned()),
        confidence,
        ..fact(user, &format!("{category} {key}: {value}"), t0())
    }
}

/// Stores a fact that must be new; returns it as stored.
pub async fn stored(g: &dyn GraphStore, f: &NewFact) -> cosmo_shared::domain::Fact {
    match g.store_fact(f).await.unwrap() {
        FactWrite::Stored { fact, .. } => fact,
        other => panic!("expected a new fact for {:?}, got {other:?}", f.text),
    }
}

/// A Storyline about `anchor` with `sources`; returns its id.
pub async fn storyline(
    g: &dyn GraphStore,
    user: &str,
    anchor: &str,
    sources: &[String],
    description: &str,
    embedding: Option<Vec<f32>>,
    at: DateTime<Utc>,
) -> String {
    let id = ids::storyline_id(anchor, &sources[0]);
    g.create_storyline(&NewStoryline {
        storyline_id: id.clone(),
        user_id: user.to_owned(),
        anchor_key: anchor.to_owned(),
        description: description.to_owned(),
        embedding,
        source_keys: sources.to_vec(),
        at,
    })
    .await
    .unwrap();
    id
}

/// A Macro rooted in `anchor` grouping `storylines`; returns its id.
pub async fn macro_(
    g: &dyn GraphStore,
    user: &str,
    anchor: &str,
    storylines: &[String],
    description: &str,
    embedding: Option<Vec<f32>>,
    at: DateTime<Utc>,
) -> String {
    let id = ids::macro_id(anchor);
    g.create_macro(&NewMacro {
        macro_id: id.clone(),
        user_id: user.to_owned(),
        anchor_key: anchor.to_owned(),
        description: description.to_owned(),
        embedding,
        storyline_ids: storylines.to_vec(),
        at,
    })
    .await
    .unwrap();
    id
}

/// Archives a memory as decay would.
pub async fn archive(g: &dyn GraphStore, kind: MemoryKind, key: &str, user: &str) {
    set_lifecycle(g, kind, key, user, |l| l.state = MemoryState::Archived).await;
}

/// The keys of a hit list, in order.
pub fn keys(hits: &[Hit]) -> Vec<String> {
    hits.iter().map(|h| h.key.clone()).collect()
}

/// `user`'s scope with archived memories too.
pub fn with_archived(user: &str) -> SearchScope {
    SearchScope {
        include_archived: true,
        ..SearchScope::user(user)
    }
}

/// Asserts a hit list's keys and (within 1e-4) scores.
pub fn assert_hits(what: &str, hits: &[Hit], want: &[(&String, f64)]) {
    let got: Vec<(String, f64)> = hits.iter().map(|h| (h.key.clone(), h.score)).collect();
    assert_eq!(got.len(), want.len(), "{what}: got {got:?}, want {want:?}");
    for ((key, score), (want_key, want_score)) in got.iter().zip(want) {
        assert_eq!(key, *want_key, "{what}: got {got:?}, want {want:?}");
        assert!(
            (score - want_score).abs() < 1e-4,
            "{what}: {key} scored {score}, want {want_score}"
        );
    }
}
