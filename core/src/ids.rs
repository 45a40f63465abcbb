//! Deterministic identifiers. Keys derived from identity (not random) make every write
//! idempotent and every backend produce the same keys for the same input.

use chrono::{DateTime, Utc};
use serde_json::Value;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::domain::{NodeIdentity, SourceType};

/// Cosmo's UUIDv5 namespace.
const NAMESPACE: Uuid = Uuid::from_u128(0x6f1d_2c1e_8a4b_4b7e_9a53_c0a5_3d2e_0c71);

fn v5(parts: &[&str]) -> String {
    Uuid::new_v5(&NAMESPACE, parts.join("\u{1f}").as_bytes()).to_string()
}

/// The entity key of a user's Source with this de-duplication key.
pub fn source_key(user_id: &str, idempotency_key: &str) -> String {
    v5(&["source", user_id, idempotency_key])
}

/// The entity key of a semantic node, from its identity within the user's graph.
pub fn node_key(user_id: &str, identity: &NodeIdentity) -> String {
    v5(&["node", user_id, &identity.key_string()])
}

/// The entity key of a user's owner Person when created from the profile: from the
/// user alone, so a later rename cannot collide with a Person extracted under the old
/// name.
pub fn owner_key(user_id: &str) -> String {
    v5(&["owner", user_id])
}

/// The key of a semantic relationship between two nodes.
pub fn relationship_key(
    user_id: &str,
    from_key: &str,
    to_key: &str,
    relationship_type: &str,
) -> String {
    v5(&["relationship", user_id, from_key, to_key, relationship_type])
}

/// The id of a note: the same text by the same author from the same Source on the same
/// target is the same note.
pub fn note_id(target_key: &str, added_by: &str, source_id: Option<&str>, text: &str) -> String {
    let digest = Sha256::digest(
        [target_key, added_by, source_id.unwrap_or(""), text]
            .join("\u{1f}")
            .as_bytes(),
    );
    hex::encode(&digest[..12])
}

/// The id of a Storyline about an anchor, told apart from the anchor's other
/// Storylines by the first Source it includes.
pub fn storyline_id(anchor_key: &str, first_source_key: &str) -> String {
    v5(&["storyline", anchor_key, first_source_key])
}

/// The id of the Macro rooted in an anchor (one per anchor).
pub fn macro_id(anchor_key: &str) -> String {
    v5(&["macro", anchor_key])
}

/// SHA-256 over the source type, the raw content with object keys sorted, and the
/// event start: what "the same content" means for duplicate detection.
pub fn content_hash(
    source_type: SourceType,
    raw: &Value,
    started_at: Option<DateTime<Utc>>,
) -> String {
    let mut canonical = String::new();
    write_canonical(raw, &mut canonical);
    let mut hasher = Sha256::new();
    hasher.update(source_type.as_str().as_bytes());
    hasher.update([0x1f]);
    hasher.update(canonical.as_bytes());
    hasher.update([0x1f]);
    hasher.update(
        started_at
            .map(|t| t.to_rfc3339())
            .unwrap_or_default()
            .as_bytes(),
    );
    hex::encode(hasher.finalize())
}

fn write_canonical(v: &Value, out: &mut String) {
    match v {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                write_canonical(&map[k], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// The id the graph, the queue and the usage ledger know a user by when another tenant
/// already has a user of this id: `<tenant>/<user id>`. The first tenant to use an id
/// keeps the bare id. User ids cannot contain `/`, so the two forms never meet, and the
/// user id is always what follows the last `/` ([`user_id_of`]).
pub fn tenant_graph_user_id(tenant_id: &str, user_id: &str) -> String {
    format!("{tenant_id}/{user_id}")
}

/// The user id a tenant knows a graph user id by: what answers show.
pub fn user_id_of(graph_user_id: &str) -> &str {
    graph_user_id.rsplit('/').next().unwrap_or(graph_user_id)
}

/// Serializes a graph user id as the tenant's user id (`#[serde(serialize_with)]` on
/// the user ids of what the API answers).
pub fn serialize_user_id<S: serde::Serializer>(
    graph_user_id: &str,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.serialize_str(user_id_of(graph_user_id))
}

/// [`serialize_user_id`] for a list of users.
pub fn serialize_user_ids<S: serde::Serializer>(
    graph_user_ids: &[String],
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_seq(graph_user_ids.iter().map(|g| user_id_of(g)))
}

/// A new API key: `cosmo_` + 32 random bytes in hex. Shown once, stored hashed.
pub fn new_api_key() -> String {
    let bytes: [u8; 32] = rand::random();
    format!("cosmo_{}", hex::encode(bytes))
}

/// How API keys are stored: SHA-256 hex. Keys are 256-bit random, so a fast hash is
/// enough (no dictionary to attack).
pub fn hash_api_key(key: &str) -> String {
    hex::encode(Sha256::digest(key.as_bytes()))
}

/// The first characters of a key, kept to tell keys apart in listings: at most 10, and
/// never more than a third of the key (a short configured key is not given away).
pub fn api_key_prefix(key: &str) -> String {
    let n = (key.chars().count() / 3).min(10);
    key.chars().take(n).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn content_hash_ignores_key_order_but_not_content() {
        let a = json!({"type": "text-note", "content": "hi"});
        let b = json!({"content": "hi", "type": "text-note"});
        let c = json!({"content": "hi!", "type": "text-note"});
        let h = |v| content_hash(SourceType::TextNote, v, None);
        assert_eq!(h(&a), h(&b));
        assert_ne!(h(&a), h(&c));
        assert_ne!(h(&a), content_hash(SourceType::Email, &a, None));
    }

    #[test]
    fn keys_are_stable_and_scoped() {
        assert_eq!(source_key("alice", "k"), source_key("alice", "k"));
        assert_ne!(source_key("alice", "k"), source_key("bob", "k"));
        let id = NodeIdentity::person("Sarah Chen");
        assert_ne!(node_key("alice", &id), node_key("bob", &id));
    }

    #[test]
    fn a_graph_user_id_shows_as_the_tenants_user_id() {
        assert_eq!(user_id_of("alex"), "alex");
        assert_eq!(user_id_of(&tenant_graph_user_id("acme", "alex")), "alex");
        // A tenant id may hold a `/`; a user id never does.
        assert_eq!(
            user_id_of(&tenant_graph_user_id("acme/eu", "a.b@c:d")),
            "a.b@c:d"
        );
        #[derive(serde::Serialize)]
        struct Answer {
            #[serde(serialize_with = "serialize_user_id")]
            user_id: String,
            #[serde(serialize_with = "serialize_user_ids")]
            participants: Vec<String>,
        }
        let answer = Answer {
            user_id: "acme/alex".into(),
            participants: vec!["sam".into(), "acme/kim".into()],
        };
        assert_eq!(
            serde_json::to_value(answer).unwrap(),
            json!({"user_id": "alex", "participants": ["sam", "kim"]})
        );
    }

    #[test]
    fn api_keys_are_random_and_hash_stably() {
        let (a, b) = (new_api_key(), new_api_key());
        assert_ne!(a, b);
        assert!(a.starts_with("cosmo_") && a.len() == 70);
        assert_eq!(hash_api_key(&a), hash_api_key(&a));
        assert_ne!(hash_api_key(&a), hash_api_key(&b));
    }
}
