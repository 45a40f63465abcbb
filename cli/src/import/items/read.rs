//! Reading a file's items: each file or JSONL line made a source body, completed with
//! the user and the derived `external_id`; `.txt` files told apart as transcripts or notes.

use std::collections::HashSet;
use std::io::BufRead;
use std::path::Path;

use serde_json::{Map, Value, json};

use super::keys::{external_id, jsonl_key};
use super::{Body, Format, Item};

pub(super) fn file_items<'a>(
    path: &'a Path,
    rel: &'a str,
    format: Format,
    user: Option<&'a str>,
    done: &'a HashSet<String>,
) -> Box<dyn Iterator<Item = Item> + 'a> {
    if format != Format::Jsonl {
        let key = rel.to_owned();
        let body = if done.contains(&key) {
            Body::Skipped
        } else {
            match std::fs::read(path) {
                Ok(bytes) => file_body(&bytes, rel, format, user),
                Err(e) => Body::Invalid(format!("cannot read the file: {e}")),
            }
        };
        return Box::new(std::iter::once(Item {
            place: key.clone(),
            key,
            body,
        }));
    }
    let lines = match std::fs::File::open(path) {
        Ok(f) => std::io::BufReader::new(f).split(b'\n'),
        Err(e) => {
            return Box::new(std::iter::once(Item {
                key: rel.to_owned(),
                place: rel.to_owned(),
                body: Body::Invalid(format!("cannot read the file: {e}")),
            }));
        }
    };
    Box::new(
        lines
            .enumerate()
            .filter_map(move |(i, line)| {
                let place = format!("{rel} line {}", i + 1);
                let (key, body) = match line {
                    Ok(l) if l.iter().all(u8::is_ascii_whitespace) => return None,
                    Ok(l) => {
                        let key = jsonl_key(rel, &l);
                        let body = if done.contains(&key) {
                            Body::Skipped
                        } else {
                            json_body(&l, &key, user)
                        };
                        (key, body)
                    }
                    Err(e) => (
                        format!("{rel}#{}", i + 1),
                        Body::Invalid(format!("cannot read the line: {e}")),
                    ),
                };
                Some(Item { key, place, body })
            })
            .fuse(),
    )
}

fn file_body(bytes: &[u8], rel: &str, format: Format, user: Option<&str>) -> Body {
    let title = rel
        .rsplit('/')
        .next()
        .and_then(|name| name.rsplit_once('.').map(|(stem, _)| stem).or(Some(name)))
        .unwrap_or(rel);
    let user = user.unwrap_or_default();
    let body = match format {
        Format::Json => return json_body(bytes, rel, Some(user).filter(|u| !u.is_empty())),
        Format::Jsonl => unreachable!("JSONL files are read line by line"),
        Format::Text | Format::Markdown => {
            let text = String::from_utf8_lossy(bytes);
            let source_type = if format == Format::Text && looks_like_transcript(&text) {
                "conversation"
            } else {
                "text-note"
            };
            json!({
                "user_id": user,
                "source_type": source_type,
                "raw_content": {"title": title, "content": text},
            })
        }
        Format::Email => {
            let mail = super::super::eml::parse(bytes);
            let mut body = json!({
                "user_id": user,
                "source_type": "email",
                "raw_content": mail.raw_content(),
            });
            if let Some(date) = mail.date {
                body["started_at"] = json!(date.to_rfc3339());
            }
            body
        }
    };
    let Value::Object(mut body) = body else {
        unreachable!("built as an object")
    };
    body.insert("external_id".into(), json!(external_id(rel)));
    Body::Ready(Value::Object(body))
}

/// A JSON source body (a `.json` file or a JSONL line), completed with the user and the
/// derived `external_id` when it has none.
pub(super) fn json_body(bytes: &[u8], key: &str, user: Option<&str>) -> Body {
    let mut body: Map<String, Value> = match serde_json::from_slice(bytes) {
        Ok(Value::Object(map)) => map,
        Ok(_) => return Body::Invalid("not a JSON object".into()),
        Err(e) => return Body::Invalid(format!("invalid JSON: {e}")),
    };
    if let Some(user) = user
        && body.get("user_id").is_none_or(Value::is_null)
    {
        body.insert("user_id".into(), json!(user));
    }
    if body.get("external_id").is_none_or(Value::is_null) {
        body.insert("external_id".into(), json!(external_id(key)));
    }
    Body::Ready(Value::Object(body))
}

/// At least two non-blank lines, and most of them `Speaker: text` with a speaker that
/// looks like a name (capitalised, up to four words and 40 characters).
pub(super) fn looks_like_transcript(text: &str) -> bool {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let turns = lines.iter().filter(|l| is_turn(l)).count();
    turns >= 2 && turns * 2 >= lines.len()
}

fn is_turn(line: &str) -> bool {
    let Some((label, text)) = line.split_once(':') else {
        return false;
    };
    let label = label.trim();
    !text.trim().is_empty()
        && label.chars().next().is_some_and(char::is_uppercase)
        && label.chars().count() <= 40
        && label.split_whitespace().count() <= 4
        && label
            .chars()
            .all(|c| c.is_alphabetic() || c == ' ' || ".'-".contains(c))
}
