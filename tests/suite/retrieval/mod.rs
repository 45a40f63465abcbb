//! Retrieval tests on every graph backend here: quality on the benchmark's corpus and
//! on small hand-made cases (`quality.rs`); notes, facts and relationship notes found by
//! explore and context, with their dates and Sources (`memories.rs`). The helpers both
//! use are here.

use chrono::{DateTime, Duration, Utc};
use cosmo_pipeline::retrieval::{self, Exploration};
use cosmo_shared::domain::input::read::ExploreInput;
use cosmo_shared::services::Services;
use serde_json::{Value, json};

/// One test per backend for each `case(svc, user, other)`: SQLite always, Neo4j when
/// `NEO4J_URI` is set (the users then carry the test's key-space suffix, so the key
/// space deletes what they wrote).
macro_rules! on_every_backend {
    ($($case:ident),+ $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test]
                async fn $case() {
                    let dir = tempfile::tempdir().unwrap();
                    let svc = cosmo_tests::stores::sqlite(dir.path()).await;
                    let (svc, _clock) = cosmo_tests::stores::manual_clock(svc, crate::retrieval::now());
                    super::$case(svc, "alex".into(), "priya".into()).await;
                }
            )+
        }
        mod neo4j {
            $(
                #[tokio::test]
                async fn $case() {
                    let dir = tempfile::tempdir().unwrap();
                    if let Some((svc, suffix, _space)) =
                        cosmo_tests::stores::neo4j(dir.path(), stringify!($case)).await
                    {
                        let (svc, _clock) = cosmo_tests::stores::manual_clock(svc, crate::retrieval::now());
                        super::$case(svc, format!("alex{suffix}"), format!("priya{suffix}"))
                            .await;
                    }
                }
            )+
        }
    };
}

mod chains;
mod memories;
mod quality;
mod routing;

pub fn now() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-06-01T10:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

/// Stores a Source as the API does and runs its pipeline jobs.
pub async fn ingest(svc: &Services, body: Value) -> String {
    cosmo_tests::ingest::ingest(svc, "default", body).await
}

/// A chat of `turns` between the owner and Priya, as a `conversation` body.
pub fn chat(user: &str, other: &str, day: i64, turns: &[(&str, &str)]) -> Value {
    let content: Vec<String> = turns
        .iter()
        .map(|(speaker, text)| json!({ "speaker": speaker, "text": text }).to_string())
        .collect();
    json!({
        "user_id": user, "participants": [user, other], "source_type": "conversation",
        "started_at": (now() - Duration::days(100 - day)).to_rfc3339(),
        "raw_content": { "content": content.join("\n") },
    })
}

pub async fn explore(svc: &Services, user: &str, query: &str) -> Exploration {
    let input = ExploreInput::parse(json!({
        "user_id": user, "queries": [{ "query": query }], "limit": 10,
    }))
    .unwrap();
    retrieval::explore(svc, &input, None).await.unwrap()
}

pub fn keys(found: &Exploration) -> Vec<String> {
    found
        .sources
        .as_ref()
        .unwrap()
        .iter()
        .map(|r| r.item.entity_key.clone())
        .collect()
}
