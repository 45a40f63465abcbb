//! Tests of the items: transcripts told from notes, external ids, JSON bodies and JSONL
//! keys.

use super::read::{json_body, looks_like_transcript};
use super::*;

#[test]
fn transcripts_are_told_from_notes() {
    assert!(looks_like_transcript(
        "Sarah Chen: Acme signed.\n\nPriya: Great news.\nSarah Chen: Indeed."
    ));
    assert!(!looks_like_transcript(
        "Call Bob at 3:30\nBuy milk\nSee https://example.com"
    ));
    assert!(!looks_like_transcript("Note: just one line"));
}

#[test]
fn external_ids_fit_the_api() {
    assert_eq!(external_id("calls.jsonl#3"), "import:calls.jsonl#3");
    let long = "a/".repeat(200) + "x.txt";
    let id = external_id(&long);
    assert!(id.len() <= 256 && id.ends_with("/x.txt"), "{id}");
    assert_ne!(id, external_id(&("b/".repeat(200) + "x.txt")));
    assert!(!external_id("a\nb").chars().any(char::is_control));
}

#[test]
fn json_bodies_get_user_and_external_id_only_when_missing() {
    let Body::Ready(b) = json_body(br#"{"source_type": "text-note"}"#, "f.jsonl#2", Some("al"))
    else {
        panic!()
    };
    assert_eq!(
        (b["user_id"].as_str(), b["external_id"].as_str()),
        (Some("al"), Some("import:f.jsonl#2"))
    );
    let Body::Ready(b) = json_body(br#"{"user_id": "bo", "external_id": "x"}"#, "k", Some("al"))
    else {
        panic!()
    };
    assert_eq!(
        (b["user_id"].as_str(), b["external_id"].as_str()),
        (Some("bo"), Some("x"))
    );
    assert!(matches!(json_body(b"[1]", "k", None), Body::Invalid(_)));
    assert!(
        matches!(json_body(b"{oops", "k", None), Body::Invalid(m) if m.starts_with("invalid JSON"))
    );
}

#[test]
fn a_jsonl_line_is_keyed_by_its_content_not_its_position() {
    let key = jsonl_key("calls.jsonl", br#"{"a": 1}"#);
    assert!(key.starts_with("calls.jsonl#") && key.len() == "calls.jsonl#".len() + 16);
    assert_eq!(
        key,
        jsonl_key("calls.jsonl", b"{\"a\": 1}  \r"),
        "CRLF files"
    );
    assert_ne!(key, jsonl_key("calls.jsonl", br#"{"a": 2}"#));
    assert_ne!(key, jsonl_key("other.jsonl", br#"{"a": 1}"#));
}
