//! A tool's input schema: the REST body's OpenAPI schema as a standalone JSON schema.

use std::sync::Arc;

use cosmo_shared::domain::input::fact::CorrectionBody;
use rmcp::model::JsonObject;
use serde_json::{Value, json};
use utoipa::ToSchema;

/// The JSON schema of a tool's input: the type's OpenAPI schema, with the schemas it
/// refers to under `$defs`.
pub fn input_schema<T: ToSchema>() -> Arc<JsonObject> {
    let mut defs = Vec::new();
    T::schemas(&mut defs);
    let mut schema = serde_json::to_value(T::schema()).expect("a schema is JSON");
    if !defs.is_empty() {
        let defs: serde_json::Map<String, Value> = defs
            .into_iter()
            .map(|(name, s)| (name, serde_json::to_value(s).expect("a schema is JSON")))
            .collect();
        schema["$defs"] = Value::Object(defs);
    }
    point_refs_at_defs(&mut schema);
    match schema {
        Value::Object(object) => Arc::new(object),
        other => unreachable!("an object's schema is an object: {other}"),
    }
}

/// `correct_fact`'s input: the correction body plus the `fact_id` to correct.
pub(super) fn correction_schema() -> Arc<JsonObject> {
    let mut schema = (*input_schema::<CorrectionBody>()).clone();
    if let Some(Value::Object(properties)) = schema.get_mut("properties") {
        properties.insert(
            "fact_id".into(),
            json!({ "type": "string", "description": "The fact to correct." }),
        );
    }
    let required = schema.entry("required").or_insert_with(|| json!([]));
    if let Value::Array(required) = required {
        required.insert(0, json!("fact_id"));
    }
    Arc::new(schema)
}

/// `#/components/schemas/X` (OpenAPI) → `#/$defs/X` (a standalone JSON schema).
fn point_refs_at_defs(v: &mut Value) {
    match v {
        Value::Object(map) => {
            for (k, child) in map.iter_mut() {
                match child {
                    Value::String(s) if k == "$ref" => {
                        if let Some(name) = s.strip_prefix("#/components/schemas/") {
                            *s = format!("#/$defs/{name}");
                        }
                    }
                    _ => point_refs_at_defs(child),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(point_refs_at_defs),
        _ => {}
    }
}
