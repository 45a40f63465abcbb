//! Phase 2's extraction: People, Concepts and Entities with confidence (0–10) and
//! subpoints, in one structured call. The pipeline applies the confidence/subpoint filter.

use async_trait::async_trait;
use serde::Deserialize;
use serde_json::json;

use super::OpenAiProvider;
use crate::{Completion, EntityExtractor, ExtractedEntity, ExtractionContext, LlmResult};
use cosmo_core::domain::NodeKind;

const EXTRACT: &str = "You extract the People, Concepts and Entities a piece of someone's memory \
is about. People: real persons (full names as written). Concepts: ideas, topics, plans, \
activities (lower case, e.g. \"hiring plan\"). Entities: organizations, places, products, \
works (books, films, shows, games, music), pets, projects, events (with `entity_type`: \
organization, place, product, work, pet, project, event or other); a title is never a person. \
For each, give `confidence` 0-10 that it is real and relevant, and `subpoints`: the distinct \
facts this text states about it, one short sentence each. Do not invent facts. Never list the \
owner twice; if the owner appears, use the owner's name exactly as given.";

#[derive(Debug, Deserialize)]
struct Extraction {
    entities: Vec<Item>,
}

#[derive(Debug, Deserialize)]
struct Item {
    kind: String,
    name: String,
    entity_type: Option<String>,
    confidence: f64,
    subpoints: Vec<String>,
}

fn schema() -> serde_json::Value {
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["entities"],
        "properties": {
            "entities": {
                "type": "array",
                "items": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["kind", "name", "entity_type", "confidence", "subpoints"],
                    "properties": {
                        "kind": { "type": "string", "enum": ["person", "concept", "entity"] },
                        "name": { "type": "string" },
                        "entity_type": { "type": ["string", "null"] },
                        "confidence": { "type": "number" },
                        "subpoints": { "type": "array", "items": { "type": "string" } },
                    },
                },
            },
        },
    })
}

fn check(e: &Extraction) -> Result<(), String> {
    for item in &e.entities {
        item.kind
            .parse::<NodeKind>()
            .map_err(|err| format!("entity kind: {err}"))?;
        if item.name.trim().is_empty() {
            return Err("an entity without a name".into());
        }
        if !(0.0..=10.0).contains(&item.confidence) {
            return Err(format!("confidence {} is outside 0-10", item.confidence));
        }
    }
    Ok(())
}

#[async_trait]
impl EntityExtractor for OpenAiProvider {
    async fn extract(
        &self,
        content: &str,
        context: &ExtractionContext,
    ) -> LlmResult<Vec<ExtractedEntity>> {
        let mut user = String::new();
        if let Some(owner) = &context.owner_name {
            user.push_str(&format!("The owner of this memory is {owner}.\n"));
        }
        if !context.speakers.is_empty() {
            user.push_str(&format!(
                "Speakers/authors: {}.\n",
                context.speakers.join(", ")
            ));
        }
        if let Some(t) = context.source_type {
            user.push_str(&format!("Source type: {t}.\n"));
        }
        user.push_str(&format!(
            "\nExtract all People, Concepts and Entities:\n\n{content}"
        ));
        let Completion { value, usage } = self
            .structured(
                &self.cfg.extraction_model,
                EXTRACT,
                &user,
                ("extraction", schema()),
                check,
            )
            .await?;
        let entities = value
            .entities
            .into_iter()
            .filter_map(|i| {
                let kind = i.kind.parse::<NodeKind>().ok()?;
                Some(ExtractedEntity {
                    kind,
                    name: i.name.trim().to_owned(),
                    entity_type: if kind == NodeKind::Entity {
                        i.entity_type.or(Some("other".into()))
                    } else {
                        None
                    },
                    confidence: i.confidence,
                    subpoints: i
                        .subpoints
                        .into_iter()
                        .filter(|s| !s.trim().is_empty())
                        .collect(),
                })
            })
            .collect();
        Ok(Completion {
            value: entities,
            usage,
        })
    }
}
