//! Rules the generated document cannot state from the Rust types alone, added to the
//! served JSON: which `raw_content` shape goes with which `source_type`, and that a
//! fact's `category`, `key` and `value` come all together or not at all (with `text`
//! required without them). With these, a request the document calls valid is one the
//! server accepts, and the other way round. Three rules relate two fields in a way JSON
//! Schema cannot state (`until` after `since`, `ended_at` not before `started_at`,
//! usage `from` not after `to`): the document says them in words.

use cosmo_shared::domain::{SourceType, raw};
use serde_json::{Value, json};

/// Adds the rules to the document (as JSON).
pub fn add(doc: &mut Value) {
    let schemas = &mut doc["components"]["schemas"];
    raw_content_by_source_type(&mut schemas["SourceBody"]);
    for body in ["RememberFactBody", "CorrectionBody"] {
        slot_all_or_none(&mut schemas[body]);
    }
}

/// `SourceBody`: `raw_content` has the shape of its `source_type` (and its optional
/// `type` equals `source_type`).
fn raw_content_by_source_type(body: &mut Value) {
    let rules: Vec<Value> = SourceType::ALL
        .iter()
        .map(|source_type| {
            let shape = raw::schema::shape(*source_type);
            json!({
                "if": {
                    "properties": { "source_type": { "const": source_type.as_str() } },
                    "required": ["source_type"],
                },
                "then": { "properties": { "raw_content": shape } },
            })
        })
        .collect();
    body["allOf"] = Value::Array(rules);
}

/// A fact body: without a slot, `text` is required; with one, all of `category`, `key`
/// and `value` are given.
fn slot_all_or_none(body: &mut Value) {
    let text = body["properties"]["text"].clone();
    let none = json!({ "type": "null" });
    body["anyOf"] = json!([
        {
            "properties": { "category": none, "key": none, "value": none, "text": text_only(&text) },
            "required": ["text"],
        },
        {
            "properties": {
                "category": { "type": "string" },
                "key": { "type": "string" },
                "value": { "type": "string" },
            },
            "required": ["category", "key", "value"],
        },
    ]);
}

/// A nullable string property as a required string.
fn text_only(text: &Value) -> Value {
    let mut t = text.clone();
    t["type"] = json!("string");
    t
}
