//! Phase 2: the note-taking agent. The model calls the tools
//! `add_note_to_person|concept|entity`, `create_relationship` and
//! `add_note_to_relationship`; each call is checked and answered ("ok" or what is wrong),
//! and collected as an [`AgentAction`]. Nothing touches the graph here: the job applies
//! all actions in one transaction afterwards.

use async_trait::async_trait;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{OpenAiProvider, ToolCall, usage};
use crate::{
    AgentAction, Completion, ExtractedEntity, ExtractionContext, LlmResult, NoteTaker, OWNER,
};
use cosmo_core::domain::{NodeKind, NoteLifetime, names};

const AGENT: &str = "You maintain a person's long-term memory. For the people, concepts and \
entities listed, record what this text says about them with the tools: one note per distinct \
fact (short, self-contained, in the third person), with a lifetime: week (transient details, \
near-term plans), month (typical context, the default), year (major events, ongoing projects) or \
forever (foundational facts: family, health, lasting traits). Create relationships between them \
when the text states one (snake_case type such as works_with, manages, likes, lives_in), and add \
notes to relationships. Refer to entities by the names listed, and to the owner of the memory as \
@owner. When everything is recorded, answer without calling tools.";

#[derive(Debug, Deserialize)]
struct NoteArgs {
    name: String,
    note: String,
    lifetime: NoteLifetime,
}

#[derive(Debug, Deserialize)]
struct RelationshipArgs {
    from: String,
    to: String,
    relationship_type: String,
    description: String,
    attitude: String,
    proximity: f64,
    strength: f64,
    confidence: f64,
}

#[derive(Debug, Deserialize)]
struct RelationshipNoteArgs {
    from: String,
    to: String,
    relationship_type: String,
    note: String,
    lifetime: NoteLifetime,
}

fn tool(name: &str, description: &str, properties: Value, required: &[&str]) -> Value {
    json!({
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "strict": true,
            "parameters": {
                "type": "object",
                "additionalProperties": false,
                "required": required,
                "properties": properties,
            },
        },
    })
}

fn tools() -> Value {
    let lifetime = json!({ "type": "string", "enum": ["week", "month", "year", "forever"] });
    let note = |what: &str| {
        json!({
            "name": { "type": "string", "description": format!("the {what}'s name as listed") },
            "note": { "type": "string" },
            "lifetime": lifetime.clone(),
        })
    };
    let ends = json!({ "type": "string", "description": "a listed name or @owner" });
    json!([
        tool(
            "add_note_to_person",
            "Record a fact about a person.",
            note("person"),
            &["name", "note", "lifetime"]
        ),
        tool(
            "add_note_to_concept",
            "Record a fact about a concept.",
            note("concept"),
            &["name", "note", "lifetime"]
        ),
        tool(
            "add_note_to_entity",
            "Record a fact about an entity.",
            note("entity"),
            &["name", "note", "lifetime"]
        ),
        tool(
            "create_relationship",
            "Create or confirm a relationship between two listed names (or @owner).",
            json!({
                "from": ends, "to": ends,
                "relationship_type": { "type": "string" },
                "description": { "type": "string" },
                "attitude": { "type": "string", "enum": ["positive", "neutral", "negative", "mixed"] },
                "proximity": { "type": "number", "description": "0-1, how close" },
                "strength": { "type": "number", "description": "0-1, how much evidence" },
                "confidence": { "type": "number", "description": "0-1" },
            }),
            &[
                "from",
                "to",
                "relationship_type",
                "description",
                "attitude",
                "proximity",
                "strength",
                "confidence"
            ],
        ),
        tool(
            "add_note_to_relationship",
            "Record a fact about a relationship created with create_relationship.",
            json!({ "from": ends, "to": ends, "relationship_type": { "type": "string" },
                    "note": { "type": "string" }, "lifetime": lifetime }),
            &["from", "to", "relationship_type", "note", "lifetime"],
        ),
    ])
}

/// Turns one tool call into an action, or says what is wrong with it.
fn action(call: &ToolCall, entities: &[ExtractedEntity]) -> Result<AgentAction, String> {
    let known = |name: &str| {
        name == OWNER
            || entities
                .iter()
                .any(|e| names::normalise(&e.name) == names::normalise(name))
    };
    let check = |name: &str| {
        if known(name) {
            Ok(())
        } else {
            let listed: Vec<&str> = entities.iter().map(|e| e.name.as_str()).collect();
            Err(format!(
                "unknown name {name:?}; use one of {listed:?} or {OWNER}"
            ))
        }
    };
    let args = &call.function.arguments;
    let parse_err = |e: serde_json::Error| format!("invalid arguments: {e}");
    let node_note = |kind: NodeKind| -> Result<AgentAction, String> {
        let a: NoteArgs = serde_json::from_str(args).map_err(parse_err)?;
        check(&a.name)?;
        Ok(AgentAction::AddNote {
            kind,
            name: a.name,
            note: a.note,
            lifetime: a.lifetime,
        })
    };
    match call.function.name.as_str() {
        "add_note_to_person" => node_note(NodeKind::Person),
        "add_note_to_concept" => node_note(NodeKind::Concept),
        "add_note_to_entity" => node_note(NodeKind::Entity),
        "create_relationship" => {
            let a: RelationshipArgs = serde_json::from_str(args).map_err(parse_err)?;
            check(&a.from)?;
            check(&a.to)?;
            Ok(AgentAction::CreateRelationship {
                from: a.from,
                to: a.to,
                relationship_type: a.relationship_type,
                description: a.description,
                attitude: a.attitude,
                proximity: a.proximity,
                strength: a.strength,
                confidence: a.confidence,
            })
        }
        "add_note_to_relationship" => {
            let a: RelationshipNoteArgs = serde_json::from_str(args).map_err(parse_err)?;
            check(&a.from)?;
            check(&a.to)?;
            Ok(AgentAction::AddNoteToRelationship {
                from: a.from,
                to: a.to,
                relationship_type: a.relationship_type,
                note: a.note,
                lifetime: a.lifetime,
            })
        }
        other => Err(format!("there is no tool {other:?}")),
    }
}

#[async_trait]
impl NoteTaker for OpenAiProvider {
    async fn take_notes(
        &self,
        content: &str,
        entities: &[ExtractedEntity],
        context: &ExtractionContext,
    ) -> LlmResult<Vec<AgentAction>> {
        let model = &self.cfg.notes_model;
        let mut total = usage(model);
        if entities.is_empty() {
            return Ok(Completion {
                value: Vec::new(),
                usage: total,
            });
        }
        let listed: Vec<String> = entities
            .iter()
            .map(|e| format!("- {} ({})", e.name, e.kind))
            .collect();
        let owner = context
            .owner_name
            .as_deref()
            .map_or(String::new(), |o| format!("The owner (@owner) is {o}.\n"));
        let user = format!(
            "{owner}## Extracted entities\n{}\n\n## Processed content\n{content}",
            listed.join("\n")
        );
        let mut messages =
            json!([{ "role": "system", "content": AGENT }, { "role": "user", "content": user }]);
        let mut actions: Vec<AgentAction> = Vec::new();
        for round in 0..self.cfg.max_agent_rounds {
            let answer = self
                .chat(
                    model,
                    json!({ "messages": messages, "tools": tools(), "tool_choice": "auto" }),
                )
                .await?;
            answer.add_usage(&mut total);
            let message = answer.message();
            let calls = message
                .and_then(|m| m.tool_calls.clone())
                .unwrap_or_default();
            if calls.is_empty() {
                break;
            }
            let echoed: Vec<Value> = calls
                .iter()
                .map(|c| json!({ "id": c.id, "type": "function",
                                 "function": { "name": c.function.name, "arguments": c.function.arguments } }))
                .collect();
            let list = messages.as_array_mut().expect("messages are a list");
            list.push(json!({ "role": "assistant", "content": message.and_then(|m| m.content.clone()), "tool_calls": echoed }));
            for call in &calls {
                let reply = match action(call, entities) {
                    Ok(a) => {
                        if !actions.contains(&a) {
                            actions.push(a);
                        }
                        "ok".to_owned()
                    }
                    Err(problem) => {
                        tracing::debug!(round, tool = %call.function.name, %problem, "tool call refused");
                        format!("error: {problem}")
                    }
                };
                list.push(json!({ "role": "tool", "tool_call_id": call.id, "content": reply }));
            }
        }
        Ok(Completion {
            value: actions,
            usage: total,
        })
    }
}
