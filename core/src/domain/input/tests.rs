//! Unit tests for the write-endpoint input parsers (Phase 0).

use chrono::TimeZone;
use serde_json::json;

use super::*;
use crate::domain::MemoryState;
use crate::domain::raw::{RawContent, Turn};

// ---------------------------------------------------------------- helpers

/// A minimal valid body: a text note owned by `alice`.
fn note_body() -> Value {
    json!({
        "user_id": "alice",
        "source_type": "text-note",
        "raw_content": {"title": "Groceries", "content": "Buy oat milk and coffee."}
    })
}

/// `note_body()` with `key` set to `value` (or removed when `value` is `None`).
fn note_with(key: &str, value: Option<Value>) -> Value {
    let mut body = note_body();
    let obj = body.as_object_mut().unwrap();
    match value {
        Some(v) => {
            obj.insert(key.to_owned(), v);
        }
        None => {
            obj.remove(key);
        }
    }
    body
}

fn parse_ok(body: Value) -> SourceInput {
    match SourceInput::parse(body.clone()) {
        Ok(input) => input,
        Err(e) => panic!("expected {body} to parse, got {e:?}"),
    }
}

fn parse_err(body: Value) -> FieldError {
    match SourceInput::parse(body.clone()) {
        Ok(input) => panic!("expected {body} to be refused, got {input:?}"),
        Err(e) => e,
    }
}

/// Asserts the error names `field` and its message contains `message_part`.
#[track_caller]
fn assert_field_error(e: &FieldError, field: &str, message_part: &str) {
    assert_eq!(e.field, field, "wrong field in {e:?}");
    assert!(
        e.message.contains(message_part),
        "message of {e:?} should contain {message_part:?}"
    );
}

fn at() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 22, 12, 0, 0).unwrap()
}

// ---------------------------------------------------------------- required fields, body shape

mod required_and_shape {
    use super::*;

    #[test]
    fn missing_user_id_is_named() {
        let e = parse_err(note_with("user_id", None));
        assert_field_error(&e, "user_id", "is required");
        assert_eq!(e.code, "validation_failed");
    }

    #[test]
    fn null_user_id_counts_as_missing() {
        let e = parse_err(note_with("user_id", Some(Value::Null)));
        assert_field_error(&e, "user_id", "is required");
    }

    #[test]
    fn missing_source_type_is_named() {
        let e = parse_err(note_with("source_type", None));
        assert_field_error(&e, "source_type", "is required");
        assert_eq!(e.code, "validation_failed");
    }

    #[test]
    fn missing_raw_content_is_named() {
        let e = parse_err(note_with("raw_content", None));
        assert_field_error(&e, "raw_content", "is required");
    }

    #[test]
    fn null_raw_content_counts_as_missing() {
        let e = parse_err(note_with("raw_content", Some(Value::Null)));
        assert_field_error(&e, "raw_content", "is required");
    }

    #[test]
    fn unknown_top_level_field_is_refused_by_name() {
        let e = parse_err(note_with("participant", Some(json!(["bob"]))));
        assert_field_error(&e, "participant", "is not a known field");
        // The message lists the accepted fields, so the typo is easy to spot.
        assert!(e.message.contains("participants"), "{e:?}");
        assert_eq!(e.code, "validation_failed");
    }

    #[test]
    fn body_that_is_not_an_object_is_refused() {
        for body in [json!([]), json!("text"), json!(5), Value::Null] {
            let e = parse_err(body);
            assert_field_error(&e, "body", "must be a JSON object");
        }
    }

    #[test]
    fn user_id_of_the_wrong_type_is_refused() {
        let e = parse_err(note_with("user_id", Some(json!(5))));
        assert_field_error(&e, "user_id", "must be a string");
    }

    #[test]
    fn source_type_of_the_wrong_type_is_refused() {
        let e = parse_err(note_with("source_type", Some(json!(["email"]))));
        assert_field_error(&e, "source_type", "must be a string");
    }

    #[test]
    fn participants_as_a_string_is_refused() {
        let e = parse_err(note_with("participants", Some(json!("bob"))));
        assert_field_error(&e, "participants", "invalid type");
        assert!(e.message.contains("sequence"), "{e:?}");
    }

    #[test]
    fn participant_of_the_wrong_type_names_its_index() {
        let e = parse_err(note_with("participants", Some(json!(["bob", 5]))));
        assert_field_error(&e, "participants[1]", "invalid type");
    }

    #[test]
    fn started_at_as_a_number_is_refused() {
        let e = parse_err(note_with("started_at", Some(json!(5))));
        assert_field_error(&e, "started_at", "invalid type");
    }

    #[test]
    fn team_id_of_the_wrong_type_is_refused() {
        let e = parse_err(note_with("team_id", Some(json!(42))));
        assert_field_error(&e, "team_id", "invalid type");
    }

    #[test]
    fn user_id_is_checked_before_source_type() {
        let e = parse_err(json!({"raw_content": {"content": "x"}}));
        assert_eq!(e.field, "user_id");
    }
}

// ---------------------------------------------------------------- source_type

mod source_type {
    use super::*;

    #[test]
    fn unknown_source_type_has_its_own_code_and_lists_valid_types() {
        let e = parse_err(note_with("source_type", Some(json!("podcast"))));
        assert_eq!(e.field, "source_type");
        assert_eq!(e.code, "unknown_source_type");
        assert!(e.message.contains("podcast"), "{e:?}");
        for valid in [
            "conversation",
            "meeting",
            "voice-memo",
            "email",
            "slack-thread",
            "text-note",
        ] {
            assert!(
                e.message.contains(valid),
                "message should list {valid}: {e:?}"
            );
        }
    }

    #[test]
    fn source_type_is_case_sensitive() {
        let e = parse_err(note_with("source_type", Some(json!("Text-Note"))));
        assert_eq!(e.code, "unknown_source_type");
    }

    #[test]
    fn snake_case_spelling_is_not_accepted() {
        let e = parse_err(note_with("source_type", Some(json!("text_note"))));
        assert_eq!(e.code, "unknown_source_type");
        assert_eq!(e.field, "source_type");
    }
}

// ---------------------------------------------------------------- identifiers

mod identifiers {
    use super::*;

    const ID_MESSAGE: &str = "must be 1-128 characters of letters, digits and . _ - @ :";

    #[test]
    fn parse_user_id_accepts_the_documented_alphabet() {
        for id in [
            "alice",
            "Alice_01",
            "a.b-c@example.com",
            "tenant:user-7",
            "x",
            "a".repeat(128).as_str(),
        ] {
            assert_eq!(parse_user_id("user_id", id).unwrap(), id);
        }
    }

    #[test]
    fn parse_user_id_refuses_empty() {
        let e = parse_user_id("user_id", "").unwrap_err();
        assert_field_error(&e, "user_id", ID_MESSAGE);
        assert_eq!(e.code, "validation_failed");
    }

    #[test]
    fn parse_user_id_refuses_129_characters() {
        let e = parse_user_id("user_id", &"a".repeat(129)).unwrap_err();
        assert_field_error(&e, "user_id", "1-128 characters");
    }

    #[test]
    fn parse_user_id_refuses_spaces_slashes_and_other_characters() {
        for id in [
            "alice smith",
            " alice",
            "alice/bob",
            "../etc",
            "alice\n",
            "élodie",
            "a#b",
            "a+b",
        ] {
            let e = parse_user_id("user_id", id).unwrap_err();
            assert_field_error(&e, "user_id", ID_MESSAGE);
        }
    }

    #[test]
    fn parse_user_id_uses_the_given_field_name() {
        let e = parse_user_id("path.user_id", "a b").unwrap_err();
        assert_eq!(e.field, "path.user_id");
    }

    #[test]
    fn invalid_user_id_in_a_body_is_refused() {
        for id in ["", "alice smith", "alice/bob"] {
            let e = parse_err(note_with("user_id", Some(json!(id))));
            assert_field_error(&e, "user_id", ID_MESSAGE);
        }
        let e = parse_err(note_with("user_id", Some(json!("a".repeat(129)))));
        assert_field_error(&e, "user_id", ID_MESSAGE);
    }

    #[test]
    fn user_id_of_128_characters_is_accepted_in_a_body() {
        let id = "u".repeat(128);
        assert_eq!(parse_ok(note_with("user_id", Some(json!(id)))).user_id, id);
    }

    #[test]
    fn invalid_team_id_is_refused() {
        for team in ["", "team one", "team/one", "t".repeat(129).as_str()] {
            let e = parse_err(note_with("team_id", Some(json!(team))));
            assert_field_error(&e, "team_id", ID_MESSAGE);
        }
    }

    #[test]
    fn valid_team_id_is_kept() {
        let input = parse_ok(note_with("team_id", Some(json!("team-42"))));
        assert_eq!(input.team_id.as_deref(), Some("team-42"));
    }

    #[test]
    fn invalid_participant_names_its_index() {
        let e = parse_err(note_with(
            "participants",
            Some(json!(["bob", "carol smith", "dave"])),
        ));
        assert_field_error(&e, "participants[1]", ID_MESSAGE);
    }

    #[test]
    fn empty_participant_names_its_index() {
        let e = parse_err(note_with("participants", Some(json!(["bob", ""]))));
        assert_field_error(&e, "participants[1]", ID_MESSAGE);
    }

    #[test]
    fn more_than_199_other_participants_are_refused() {
        let many: Vec<String> = (0..200).map(|i| format!("user-{i}")).collect();
        let e = parse_err(note_with("participants", Some(json!(many))));
        assert_field_error(&e, "participants", "at most 199 other users");
    }

    #[test]
    fn a_long_list_is_refused_by_its_length_whatever_it_holds() {
        // The same id repeated, and ids that are not even valid: the length alone
        // refuses it, before any element is read.
        let e = parse_err(note_with("participants", Some(json!(vec!["bob"; 150_000]))));
        assert_field_error(&e, "participants", "at most 199 other users");
        let e = parse_err(note_with(
            "participants",
            Some(json!(vec!["not valid"; 500])),
        ));
        assert_field_error(&e, "participants", "at most 199 other users");
    }

    #[test]
    fn duplicates_within_the_limit_are_dropped() {
        let many: Vec<String> = (0..199).map(|i| format!("user-{}", i % 10)).collect();
        let input = parse_ok(note_with("participants", Some(json!(many))));
        // Ten distinct participants plus the owner.
        assert_eq!(input.participants.len(), 11);
    }

    #[test]
    fn dot_and_dot_dot_are_not_ids() {
        for id in [".", ".."] {
            let e = parse_user_id("user_id", id).unwrap_err();
            assert_field_error(&e, "user_id", "must not be `.` or `..`");
        }
        for id in ["...", ".a", "a.", "a..b"] {
            assert_eq!(parse_user_id("user_id", id).unwrap(), id);
        }
    }

    #[test]
    fn external_id_must_not_be_empty() {
        let e = parse_err(note_with("external_id", Some(json!(""))));
        assert_field_error(&e, "external_id", "must be 1-256 printable characters");
    }

    #[test]
    fn external_id_over_256_bytes_or_with_control_characters_is_refused() {
        for bad in [
            "x".repeat(257),
            "gmail:abc\u{0}".to_owned(),
            "line\nbreak".to_owned(),
        ] {
            let e = parse_err(note_with("external_id", Some(json!(bad))));
            assert_field_error(&e, "external_id", "1-256 printable characters");
        }
    }

    #[test]
    fn external_id_may_hold_any_printable_characters() {
        let id = "gmail:<CAF=abc/123@mail.gmail.com> #1";
        let input = parse_ok(note_with("external_id", Some(json!(id))));
        assert_eq!(input.external_id.as_deref(), Some(id));
        let long = "e".repeat(256);
        assert_eq!(
            parse_ok(note_with("external_id", Some(json!(long)))).external_id,
            Some(long)
        );
    }
}

// ---------------------------------------------------------------- raw_content through SourceInput

mod raw_content {
    use super::*;

    #[test]
    fn raw_content_that_is_not_an_object_is_refused() {
        for raw in [json!("Buy milk"), json!(["Buy milk"]), json!(42)] {
            let e = parse_err(note_with("raw_content", Some(raw)));
            assert_field_error(&e, "raw_content", "must be a JSON object");
        }
    }

    #[test]
    fn mismatching_raw_content_type_is_refused() {
        let e = parse_err(json!({
            "user_id": "alice",
            "source_type": "email",
            "raw_content": {"type": "text-note", "content": "hello"}
        }));
        assert_field_error(
            &e,
            "raw_content.type",
            "must be \"email\" to match source_type",
        );
    }

    #[test]
    fn matching_raw_content_type_is_kept() {
        let body = note_with(
            "raw_content",
            Some(json!({"type": "text-note", "content": "hi"})),
        );
        let input = parse_ok(body);
        assert_eq!(
            input.raw_content,
            json!({"type": "text-note", "content": "hi"})
        );
    }

    #[test]
    fn raw_content_type_is_filled_in_when_absent() {
        let input = parse_ok(note_body());
        assert_eq!(input.raw_content["type"], json!("text-note"));
        // Everything else is kept verbatim.
        assert_eq!(input.raw_content["title"], json!("Groceries"));
        assert_eq!(
            input.raw_content["content"],
            json!("Buy oat milk and coffee.")
        );
        assert_eq!(input.raw_content.as_object().unwrap().len(), 3);
    }

    #[test]
    fn raw_content_type_is_filled_in_for_every_source_type() {
        let cases = [
            ("conversation", json!({"content": "Alice: hi"})),
            (
                "meeting",
                json!({"content": [{"speaker": "Alice", "text": "hi"}]}),
            ),
            ("voice-memo", json!({"content": "remember the milk"})),
            ("email", json!({"from": "a@example.com", "body": "hi"})),
            (
                "slack-thread",
                json!({"channel": "#general", "messages": [{"user": "U1", "text": "hi"}]}),
            ),
            ("text-note", json!({"content": "hi"})),
        ];
        for (source_type, raw) in cases {
            let input = parse_ok(
                json!({"user_id": "alice", "source_type": source_type, "raw_content": raw}),
            );
            assert_eq!(input.raw_content["type"], json!(source_type));
            assert_eq!(input.source_type.as_str(), source_type);
        }
    }

    #[test]
    fn per_type_errors_surface_with_their_raw_content_field() {
        let cases = [
            (
                "text-note",
                json!({"title": "x"}),
                "raw_content.content",
                "is required",
            ),
            (
                "text-note",
                json!({"content": "   "}),
                "raw_content.content",
                "must not be empty",
            ),
            (
                "email",
                json!({"body": "hi"}),
                "raw_content.from",
                "is required",
            ),
            (
                "email",
                json!({"from": "a@example.com"}),
                "raw_content.body",
                "is required",
            ),
            (
                "slack-thread",
                json!({"messages": [{"user": "U1", "text": "hi"}]}),
                "raw_content.channel",
                "is required",
            ),
            (
                "slack-thread",
                json!({"channel": "#c", "messages": []}),
                "raw_content.messages",
                "must not be empty",
            ),
            (
                "conversation",
                json!({}),
                "raw_content.content",
                "is required",
            ),
        ];
        for (source_type, raw, field, message) in cases {
            let e = parse_err(
                json!({"user_id": "alice", "source_type": source_type, "raw_content": raw}),
            );
            assert_field_error(&e, field, message);
        }
    }

    #[test]
    fn parsed_view_matches_the_source_type() {
        let input = parse_ok(note_body());
        assert_eq!(
            input.parsed,
            RawContent::Text(crate::domain::raw::TextNote {
                title: Some("Groceries".into()),
                content: "Buy oat milk and coffee.".into()
            })
        );
        let input = parse_ok(json!({
            "user_id": "alice",
            "source_type": "conversation",
            "raw_content": {"content": "{\"speaker\":\"Alice\",\"text\":\"hi\"}"}
        }));
        let RawContent::Transcript(t) = input.parsed else {
            panic!("expected a transcript")
        };
        assert_eq!(
            t.turns,
            vec![Turn {
                speaker: Some("Alice".into()),
                text: "hi".into(),
                timestamp: None
            }]
        );
    }
}

// ---------------------------------------------------------------- optional fields

mod optional_fields {
    use super::*;

    #[test]
    fn started_at_must_be_rfc3339() {
        for bad in [
            "yesterday",
            "2026-11-22",
            "2026-11-22T09:30:00",
            "22/11/2026 09:30",
            "",
        ] {
            let e = parse_err(note_with("started_at", Some(json!(bad))));
            assert_field_error(&e, "started_at", "must be an RFC 3339 timestamp");
        }
    }

    #[test]
    fn ended_at_must_be_rfc3339() {
        let e = parse_err(note_with("ended_at", Some(json!("tomorrow"))));
        assert_field_error(&e, "ended_at", "must be an RFC 3339 timestamp");
    }

    #[test]
    fn timestamps_are_converted_to_utc_and_truncated_to_microseconds() {
        let mut body = note_body();
        body["started_at"] = json!("2026-11-22T10:30:00.123456789+01:00");
        let input = parse_ok(body);
        let expected = Utc.with_ymd_and_hms(2026, 11, 22, 9, 30, 0).unwrap()
            + chrono::Duration::microseconds(123_456);
        assert_eq!(input.started_at, Some(expected));
    }

    #[test]
    fn ended_at_before_started_at_is_refused() {
        let mut body = note_body();
        body["started_at"] = json!("2026-11-22T10:00:00Z");
        body["ended_at"] = json!("2026-11-22T09:59:59Z");
        let e = parse_err(body);
        assert_field_error(&e, "ended_at", "must not be before started_at");
    }

    #[test]
    fn ended_at_before_started_at_is_judged_in_utc() {
        // 10:30+02:00 is 08:30Z, before 09:00Z.
        let mut body = note_body();
        body["started_at"] = json!("2026-11-22T09:00:00Z");
        body["ended_at"] = json!("2026-11-22T10:30:00+02:00");
        assert_eq!(parse_err(body).field, "ended_at");
    }

    #[test]
    fn ended_at_equal_to_or_after_started_at_is_accepted() {
        let mut body = note_body();
        body["started_at"] = json!("2026-11-22T10:00:00Z");
        body["ended_at"] = json!("2026-11-22T10:00:00Z");
        let input = parse_ok(body.clone());
        assert_eq!(input.started_at, input.ended_at);
        body["ended_at"] = json!("2026-11-22T11:00:00Z");
        let input = parse_ok(body);
        assert_eq!(
            input.ended_at,
            Some(Utc.with_ymd_and_hms(2026, 11, 22, 11, 0, 0).unwrap())
        );
    }

    #[test]
    fn ended_at_alone_is_accepted() {
        let input = parse_ok(note_with("ended_at", Some(json!("2026-11-22T11:00:00Z"))));
        assert!(input.started_at.is_none());
        assert!(input.ended_at.is_some());
    }

    #[test]
    fn unknown_sensitivity_is_refused() {
        let e = parse_err(note_with("sensitivity", Some(json!("secret"))));
        assert_field_error(&e, "sensitivity", "unknown value `secret`");
        assert!(e.message.contains("low normal high"), "{e:?}");
    }

    #[test]
    fn unknown_ttl_policy_is_refused() {
        let e = parse_err(note_with("ttl_policy", Some(json!("forever"))));
        assert_field_error(&e, "ttl_policy", "unknown value `forever`");
        assert!(e.message.contains("keep_forever ephemeral decay"), "{e:?}");
    }

    #[test]
    fn sensitivity_and_ttl_policy_default_to_normal_and_decay() {
        let input = parse_ok(note_body());
        assert_eq!(input.sensitivity, Sensitivity::Normal);
        assert_eq!(input.ttl_policy, TtlPolicy::Decay);
    }

    #[test]
    fn sensitivity_and_ttl_policy_are_parsed() {
        let mut body = note_body();
        body["sensitivity"] = json!("high");
        body["ttl_policy"] = json!("keep_forever");
        let input = parse_ok(body);
        assert_eq!(input.sensitivity, Sensitivity::High);
        assert_eq!(input.ttl_policy, TtlPolicy::KeepForever);
    }

    #[test]
    fn provenance_must_be_an_object() {
        for bad in [json!("slack"), json!(["slack"]), json!(0.5)] {
            let e = parse_err(note_with("provenance", Some(bad)));
            assert_field_error(&e, "provenance", "must be a JSON object");
        }
    }

    #[test]
    fn provenance_confidence_outside_zero_to_one_is_refused() {
        for bad in [json!(1.5), json!(-0.1), json!(2), json!("0.5"), json!(null)] {
            let e = parse_err(note_with("provenance", Some(json!({"confidence": bad}))));
            assert_field_error(&e, "provenance.confidence", "must be a number from 0 to 1");
        }
    }

    #[test]
    fn provenance_confidence_bounds_are_inclusive() {
        for ok in [json!(0), json!(0.0), json!(1), json!(1.0), json!(0.42)] {
            let provenance = json!({"confidence": ok, "source": "gmail"});
            let input = parse_ok(note_with("provenance", Some(provenance.clone())));
            assert_eq!(input.provenance, Some(provenance));
        }
    }

    #[test]
    fn provenance_without_confidence_is_kept_verbatim() {
        let provenance = json!({"source": "zoom", "meeting_id": 42});
        let input = parse_ok(note_with("provenance", Some(provenance.clone())));
        assert_eq!(input.provenance, Some(provenance));
    }

    #[test]
    fn context_type_empty_or_blank_is_refused() {
        for bad in ["", "   "] {
            let e = parse_err(note_with("context_type", Some(json!(bad))));
            assert_field_error(&e, "context_type", "must be 1-64 printable characters");
        }
    }

    #[test]
    fn context_type_over_64_characters_is_refused() {
        let e = parse_err(note_with("context_type", Some(json!("c".repeat(65)))));
        assert_field_error(&e, "context_type", "must be 1-64 printable characters");
    }

    #[test]
    fn context_type_with_control_characters_is_refused() {
        let e = parse_err(note_with("context_type", Some(json!("one\u{0}one"))));
        assert_field_error(&e, "context_type", "printable");
    }

    #[test]
    fn context_type_is_trimmed_and_counted_in_characters() {
        let input = parse_ok(note_with("context_type", Some(json!("  work  "))));
        assert_eq!(input.context_type.as_deref(), Some("work"));
        // 64 multi-byte characters are fine.
        let accented = "é".repeat(64);
        let input = parse_ok(note_with("context_type", Some(json!(accented))));
        assert_eq!(input.context_type, Some(accented));
    }

    #[test]
    fn absent_optional_fields_stay_empty() {
        let input = parse_ok(note_body());
        assert_eq!(input.user_id, "alice");
        assert_eq!(input.source_type, SourceType::TextNote);
        assert!(input.team_id.is_none());
        assert!(input.provenance.is_none());
        assert!(input.context_type.is_none());
        assert!(input.started_at.is_none());
        assert!(input.ended_at.is_none());
        assert!(input.external_id.is_none());
    }

    #[test]
    fn null_optional_fields_count_as_absent() {
        let mut body = note_body();
        for key in [
            "team_id",
            "participants",
            "context_type",
            "started_at",
            "ended_at",
            "provenance",
            "sensitivity",
            "ttl_policy",
            "external_id",
        ] {
            body[key] = Value::Null;
        }
        let input = parse_ok(body);
        assert!(input.team_id.is_none());
        assert!(input.provenance.is_none());
        assert_eq!(input.sensitivity, Sensitivity::Normal);
    }
}

// ---------------------------------------------------------------- participants

mod participants {
    use super::*;

    fn with_participants(owner: &str, participants: Value) -> SourceInput {
        parse_ok(json!({
            "user_id": owner,
            "source_type": "meeting",
            "team_id": "team-1",
            "participants": participants,
            "raw_content": {"content": "Alice: hello\nBob: hi"}
        }))
    }

    #[test]
    fn owner_is_inserted_first_when_missing() {
        let input = with_participants("alice", json!(["bob", "carol"]));
        assert_eq!(input.participants, vec!["alice", "bob", "carol"]);
    }

    #[test]
    fn duplicates_are_removed_keeping_first_occurrence_order() {
        let input = with_participants("alice", json!(["bob", "carol", "bob", "carol", "dave"]));
        assert_eq!(input.participants, vec!["alice", "bob", "carol", "dave"]);
    }

    #[test]
    fn owner_is_not_duplicated_when_listed() {
        let input = with_participants("alice", json!(["alice", "bob", "alice"]));
        assert_eq!(input.participants, vec!["alice", "bob"]);
    }

    #[test]
    fn the_owner_always_comes_first() {
        let input = with_participants("alice", json!(["bob", "alice", "carol"]));
        assert_eq!(input.participants, vec!["alice", "bob", "carol"]);
        assert_eq!(input.users(), vec!["alice", "bob", "carol"]);
    }

    #[test]
    fn users_returns_owner_first_without_duplicates() {
        let input = with_participants("alice", json!(["bob", "carol", "bob"]));
        assert_eq!(input.users(), vec!["alice", "bob", "carol"]);
    }

    #[test]
    fn users_of_a_personal_source_is_just_the_owner() {
        let input = parse_ok(note_body());
        assert_eq!(input.users(), vec!["alice"]);
    }

    #[test]
    fn participant_ids_are_case_sensitive() {
        let input = with_participants("alice", json!(["Bob", "bob"]));
        assert_eq!(input.participants, vec!["alice", "Bob", "bob"]);
    }
}

// ---------------------------------------------------------------- into_new_source

mod new_source {
    use super::*;

    #[test]
    fn external_id_is_the_idempotency_key() {
        let input = parse_ok(note_with("external_id", Some(json!("gmail:123"))));
        let source = input.into_new_source(None, at());
        assert_eq!(source.idempotency_key, "external:gmail:123");
        assert_eq!(source.external_id.as_deref(), Some("gmail:123"));
    }

    #[test]
    fn external_id_wins_over_the_header() {
        let input = parse_ok(note_with("external_id", Some(json!("gmail:123"))));
        let source = input.into_new_source(Some("req-1"), at());
        assert_eq!(source.idempotency_key, "external:gmail:123");
    }

    #[test]
    fn header_is_the_key_without_external_id() {
        let source = parse_ok(note_body()).into_new_source(Some("req-1"), at());
        assert_eq!(source.idempotency_key, "request:req-1");
        assert!(source.external_id.is_none());
    }

    #[test]
    fn content_hash_is_the_key_otherwise() {
        let source = parse_ok(note_body()).into_new_source(None, at());
        assert_eq!(
            source.idempotency_key,
            format!("content:{}", source.content_hash)
        );
        assert_eq!(source.content_hash.len(), 64);
        assert!(source.content_hash.chars().all(|c| c.is_ascii_hexdigit()));
    }

    #[test]
    fn content_hash_is_computed_even_with_an_explicit_key() {
        let with_external =
            parse_ok(note_with("external_id", Some(json!("x")))).into_new_source(None, at());
        let plain = parse_ok(note_body()).into_new_source(None, at());
        assert_eq!(with_external.content_hash, plain.content_hash);
    }

    #[test]
    fn entity_key_is_stable_for_the_same_user_and_key() {
        let a = parse_ok(note_body()).into_new_source(None, at());
        let b = parse_ok(note_body()).into_new_source(None, at() + chrono::Duration::hours(5));
        assert_eq!(a.entity_key, b.entity_key);
        assert_eq!(
            a.entity_key,
            crate::ids::source_key("alice", &a.idempotency_key)
        );
    }

    #[test]
    fn same_external_id_with_different_content_is_the_same_source() {
        let mut first = note_with("external_id", Some(json!("gmail:123")));
        let mut second = first.clone();
        first["raw_content"]["content"] = json!("version one");
        second["raw_content"]["content"] = json!("version two");
        let a = parse_ok(first).into_new_source(None, at());
        let b = parse_ok(second).into_new_source(None, at());
        assert_ne!(a.content_hash, b.content_hash);
        assert_eq!(a.entity_key, b.entity_key);
    }

    #[test]
    fn same_header_is_the_same_source_different_header_is_not() {
        let a = parse_ok(note_body()).into_new_source(Some("req-1"), at());
        let b = parse_ok(note_body()).into_new_source(Some("req-1"), at());
        let c = parse_ok(note_body()).into_new_source(Some("req-2"), at());
        assert_eq!(a.entity_key, b.entity_key);
        assert_ne!(a.entity_key, c.entity_key);
    }

    #[test]
    fn entity_key_differs_across_users() {
        let alice = parse_ok(note_body()).into_new_source(None, at());
        let bob = parse_ok(note_with("user_id", Some(json!("bob")))).into_new_source(None, at());
        assert_eq!(alice.idempotency_key, bob.idempotency_key);
        assert_ne!(alice.entity_key, bob.entity_key);

        let alice =
            parse_ok(note_with("external_id", Some(json!("e-1")))).into_new_source(None, at());
        let mut bob_body = note_with("external_id", Some(json!("e-1")));
        bob_body["user_id"] = json!("bob");
        let bob = parse_ok(bob_body).into_new_source(None, at());
        assert_ne!(alice.entity_key, bob.entity_key);
    }

    #[test]
    fn entity_keys_of_the_three_key_kinds_differ() {
        let external =
            parse_ok(note_with("external_id", Some(json!("k")))).into_new_source(None, at());
        let header = parse_ok(note_body()).into_new_source(Some("k"), at());
        let content = parse_ok(note_body()).into_new_source(None, at());
        assert_ne!(external.entity_key, header.entity_key);
        assert_ne!(header.entity_key, content.entity_key);
        assert_ne!(external.entity_key, content.entity_key);
    }

    #[test]
    fn content_hash_ignores_json_key_order() {
        let a: Value = serde_json::from_str(
            r#"{"user_id":"alice","source_type":"email","raw_content":{"from":"a@x.io","subject":"Hi","body":"Hello","headers":{"X-A":"1","X-B":"2"}}}"#,
        )
        .unwrap();
        let b: Value = serde_json::from_str(
            r#"{"raw_content":{"headers":{"X-B":"2","X-A":"1"},"body":"Hello","subject":"Hi","from":"a@x.io"},"source_type":"email","user_id":"alice"}"#,
        )
        .unwrap();
        // The maps really are in different orders.
        assert_ne!(
            serde_json::to_string(&a["raw_content"]).unwrap(),
            serde_json::to_string(&b["raw_content"]).unwrap()
        );
        let a = parse_ok(a).into_new_source(None, at());
        let b = parse_ok(b).into_new_source(None, at());
        assert_eq!(a.content_hash, b.content_hash);
        assert_eq!(a.entity_key, b.entity_key);
    }

    #[test]
    fn content_hash_is_the_same_with_or_without_an_explicit_type() {
        let implicit = parse_ok(note_body()).into_new_source(None, at());
        let mut body = note_body();
        body["raw_content"]["type"] = json!("text-note");
        let explicit = parse_ok(body).into_new_source(None, at());
        assert_eq!(implicit.content_hash, explicit.content_hash);
        assert_eq!(implicit.entity_key, explicit.entity_key);
    }

    #[test]
    fn content_hash_changes_with_content() {
        let a = parse_ok(note_body()).into_new_source(None, at());
        let mut body = note_body();
        body["raw_content"]["content"] = json!("Buy oat milk and tea.");
        let b = parse_ok(body).into_new_source(None, at());
        assert_ne!(a.content_hash, b.content_hash);
        assert_ne!(a.entity_key, b.entity_key);
    }

    #[test]
    fn content_hash_changes_with_source_type() {
        let conversation = parse_ok(json!({"user_id": "alice", "source_type": "conversation", "raw_content": {"content": "Alice: hi"}}))
            .into_new_source(None, at());
        let meeting = parse_ok(json!({"user_id": "alice", "source_type": "meeting", "raw_content": {"content": "Alice: hi"}}))
            .into_new_source(None, at());
        assert_ne!(conversation.content_hash, meeting.content_hash);
    }

    #[test]
    fn content_hash_changes_with_started_at() {
        let none = parse_ok(note_body()).into_new_source(None, at());
        let monday = parse_ok(note_with("started_at", Some(json!("2026-11-23T09:00:00Z"))))
            .into_new_source(None, at());
        let tuesday = parse_ok(note_with("started_at", Some(json!("2026-11-24T09:00:00Z"))))
            .into_new_source(None, at());
        assert_ne!(none.content_hash, monday.content_hash);
        assert_ne!(monday.content_hash, tuesday.content_hash);
        assert_ne!(monday.entity_key, tuesday.entity_key);
    }

    #[test]
    fn content_hash_depends_on_the_instant_not_its_spelling() {
        let utc = parse_ok(note_with("started_at", Some(json!("2026-11-23T09:00:00Z"))))
            .into_new_source(None, at());
        let offset = parse_ok(note_with(
            "started_at",
            Some(json!("2026-11-23T10:00:00+01:00")),
        ))
        .into_new_source(None, at());
        assert_eq!(utc.content_hash, offset.content_hash);
    }

    #[test]
    fn content_hash_ignores_fields_outside_raw_content() {
        let a = parse_ok(note_body()).into_new_source(None, at());
        let mut body = note_body();
        body["context_type"] = json!("work");
        body["sensitivity"] = json!("high");
        body["provenance"] = json!({"source": "keep"});
        let b = parse_ok(body).into_new_source(None, at());
        assert_eq!(a.content_hash, b.content_hash);
    }

    #[test]
    fn provenance_confidence_becomes_the_lifecycle_confidence() {
        let input = parse_ok(note_with("provenance", Some(json!({"confidence": 0.3}))));
        let source = input.into_new_source(None, at());
        assert_eq!(source.lifecycle.confidence, 0.3);
    }

    #[test]
    fn lifecycle_confidence_defaults_to_one() {
        let source = parse_ok(note_body()).into_new_source(None, at());
        assert_eq!(source.lifecycle.confidence, 1.0);
        let source = parse_ok(note_with("provenance", Some(json!({"source": "zoom"}))))
            .into_new_source(None, at());
        assert_eq!(source.lifecycle.confidence, 1.0);
    }

    #[test]
    fn zero_confidence_is_kept_not_defaulted() {
        let source = parse_ok(note_with("provenance", Some(json!({"confidence": 0}))))
            .into_new_source(None, at());
        assert_eq!(source.lifecycle.confidence, 0.0);
    }

    #[test]
    fn lifecycle_starts_as_a_candidate_at_half_salience() {
        let source =
            parse_ok(note_with("ttl_policy", Some(json!("ephemeral")))).into_new_source(None, at());
        let l = &source.lifecycle;
        assert_eq!(l.salience, 0.5);
        assert_eq!(l.state, MemoryState::Candidate);
        assert_eq!(l.ttl_policy, TtlPolicy::Ephemeral);
        assert_eq!(l.access_count, 0);
        assert!(!l.pinned);
        assert_eq!(l.created_at, at());
        assert_eq!(l.updated_at, at());
        assert!(l.last_accessed_at.is_none());
    }

    #[test]
    fn every_checked_field_is_carried_over() {
        let body = json!({
            "user_id": "alice",
            "source_type": "meeting",
            "team_id": "team-1",
            "participants": ["bob"],
            "context_type": "standup",
            "started_at": "2026-11-22T09:00:00Z",
            "ended_at": "2026-11-22T09:15:00Z",
            "provenance": {"source": "zoom", "confidence": 0.9},
            "sensitivity": "low",
            "ttl_policy": "keep_forever",
            "external_id": "zoom:1",
            "raw_content": {"title": "Standup", "content": [{"speaker": "Alice", "text": "Morning"}]}
        });
        let input = parse_ok(body);
        let raw = input.raw_content.clone();
        let source = input.into_new_source(None, at());
        assert_eq!(source.user_id, "alice");
        assert_eq!(source.team_id.as_deref(), Some("team-1"));
        assert_eq!(source.participants, vec!["alice", "bob"]);
        assert_eq!(source.source_type, SourceType::Meeting);
        assert_eq!(source.raw_content, raw);
        assert_eq!(source.raw_content["type"], json!("meeting"));
        assert_eq!(source.context_type.as_deref(), Some("standup"));
        assert_eq!(
            source.started_at,
            Some(Utc.with_ymd_and_hms(2026, 11, 22, 9, 0, 0).unwrap())
        );
        assert_eq!(
            source.ended_at,
            Some(Utc.with_ymd_and_hms(2026, 11, 22, 9, 15, 0).unwrap())
        );
        assert_eq!(source.sensitivity, Sensitivity::Low);
        assert_eq!(source.lifecycle.ttl_policy, TtlPolicy::KeepForever);
        assert_eq!(source.lifecycle.confidence, 0.9);
        assert_eq!(
            source.provenance,
            Some(json!({"source": "zoom", "confidence": 0.9}))
        );
        assert_eq!(source.external_id.as_deref(), Some("zoom:1"));
        assert_eq!(source.idempotency_key, "external:zoom:1");
    }
}

// ---------------------------------------------------------------- ProfileInput

mod profile {
    use super::*;

    #[test]
    fn name_is_trimmed() {
        let p = ProfileInput::parse(json!({"full_name": "  Alice Johnson \n"})).unwrap();
        assert_eq!(p.full_name, "Alice Johnson");
    }

    #[test]
    fn names_with_apostrophes_accents_and_hyphens_are_accepted() {
        for name in [
            "O'Brien, Pat",
            "José Álvarez",
            "Jean-Luc",
            "李雷",
            "X Æ A-12",
        ] {
            assert_eq!(
                ProfileInput::parse(json!({"full_name": name}))
                    .unwrap()
                    .full_name,
                name
            );
        }
    }

    #[test]
    fn control_characters_inside_a_name_are_refused() {
        for name in [
            "Alice\u{0}Johnson",
            "Alice\nJohnson",
            "Alice\tJohnson",
            "Al\u{7f}ice",
        ] {
            let e = ProfileInput::parse(json!({"full_name": name})).unwrap_err();
            assert_field_error(&e, "full_name", "control characters");
        }
    }

    #[test]
    fn blank_name_is_refused() {
        for blank in ["", "   ", "\t\n"] {
            let e = ProfileInput::parse(json!({"full_name": blank})).unwrap_err();
            assert_field_error(&e, "full_name", "must contain a name");
        }
    }

    #[test]
    fn punctuation_only_name_is_refused() {
        for name in ["!!!", "...", "---", "'", "?!", " - . - ", "()", "@#$%"] {
            let e = ProfileInput::parse(json!({"full_name": name})).unwrap_err();
            assert_field_error(&e, "full_name", "must contain a name");
        }
    }

    #[test]
    fn name_of_200_characters_is_accepted_201_refused() {
        let ok = "é".repeat(200);
        assert_eq!(
            ProfileInput::parse(json!({"full_name": ok}))
                .unwrap()
                .full_name,
            ok
        );
        let e = ProfileInput::parse(json!({"full_name": "a".repeat(201)})).unwrap_err();
        assert_field_error(&e, "full_name", "at most 200 characters");
    }

    #[test]
    fn length_is_measured_after_trimming() {
        let padded = format!("   {}   ", "a".repeat(200));
        assert_eq!(
            ProfileInput::parse(json!({"full_name": padded}))
                .unwrap()
                .full_name
                .len(),
            200
        );
    }

    #[test]
    fn unknown_fields_are_refused() {
        let e = ProfileInput::parse(json!({"full_name": "Alice", "email": "a@example.com"}))
            .unwrap_err();
        assert_field_error(&e, "email", "is not a known field");
        assert!(e.message.contains("full_name"), "{e:?}");
    }

    #[test]
    fn missing_name_is_required() {
        let e = ProfileInput::parse(json!({})).unwrap_err();
        assert_field_error(&e, "full_name", "is required");
    }

    #[test]
    fn name_of_the_wrong_type_is_refused() {
        let e = ProfileInput::parse(json!({"full_name": 5})).unwrap_err();
        assert_field_error(&e, "full_name", "invalid type");
    }

    #[test]
    fn non_object_body_is_refused() {
        let e = ProfileInput::parse(json!("Alice")).unwrap_err();
        assert_field_error(&e, "body", "must be a JSON object");
    }
}

// ---------------------------------------------------------------- ExtractionRequestInput

mod extraction_request {
    use super::*;

    #[test]
    fn valid_user_id_is_accepted() {
        let input = ExtractionRequestInput::parse(json!({"user_id": "bob"})).unwrap();
        assert_eq!(
            input,
            ExtractionRequestInput {
                user_id: "bob".into()
            }
        );
    }

    #[test]
    fn invalid_user_id_is_refused() {
        for bad in ["", "bob smith", "bob/alice", "b".repeat(129).as_str()] {
            let e = ExtractionRequestInput::parse(json!({"user_id": bad})).unwrap_err();
            assert_field_error(&e, "user_id", "must be 1-128 characters");
        }
    }

    #[test]
    fn missing_user_id_is_required() {
        let e = ExtractionRequestInput::parse(json!({})).unwrap_err();
        assert_field_error(&e, "user_id", "is required");
    }

    #[test]
    fn user_id_of_the_wrong_type_is_refused() {
        let e = ExtractionRequestInput::parse(json!({"user_id": 7})).unwrap_err();
        assert_field_error(&e, "user_id", "invalid type");
    }

    #[test]
    fn unknown_fields_are_refused() {
        let e =
            ExtractionRequestInput::parse(json!({"user_id": "bob", "force": true})).unwrap_err();
        assert_field_error(&e, "force", "is not a known field");
    }

    #[test]
    fn non_object_body_is_refused() {
        let e = ExtractionRequestInput::parse(json!(["bob"])).unwrap_err();
        assert_field_error(&e, "body", "must be a JSON object");
    }
}

// ---------------------------------------------------------------- idempotency_header

mod header {
    use super::*;

    #[test]
    fn ordinary_keys_are_accepted_verbatim() {
        for key in [
            "req-1",
            "7f9c2ba4-e88f-11d6-b2b4-0800200c9a66",
            "a b c",
            "k".repeat(256).as_str(),
        ] {
            assert_eq!(idempotency_header(key).unwrap(), key);
        }
    }

    #[test]
    fn empty_key_is_refused() {
        let e = idempotency_header("").unwrap_err();
        assert_field_error(&e, "Idempotency-Key", "must be 1-256 printable characters");
        assert_eq!(e.code, "validation_failed");
    }

    #[test]
    fn key_of_257_characters_is_refused() {
        let e = idempotency_header(&"k".repeat(257)).unwrap_err();
        assert_field_error(&e, "Idempotency-Key", "1-256");
    }

    #[test]
    fn control_characters_are_refused() {
        for key in ["req\n1", "req\r\n", "\u{0}", "tab\there", "del\u{7f}"] {
            let e = idempotency_header(key).unwrap_err();
            assert_field_error(&e, "Idempotency-Key", "printable");
        }
    }
}

// ---------------------------------------------------------------- FieldError

#[test]
fn field_error_displays_field_and_message() {
    let e = FieldError::new("raw_content.from", "is required");
    assert_eq!(e.to_string(), "raw_content.from: is required");
    assert_eq!(e.code, "validation_failed");
}

// ---------------------------------------------------------------- known bugs (expected to FAIL until fixed)

/// Cases that were once wrong.
mod regressions {
    use super::*;

    /// `NewSource::participants` is documented as "Users who may extract this Source
    /// for themselves; always contains the owner." A Source posted without
    /// `participants` ends up with an empty list.
    #[test]
    fn new_source_participants_always_contain_the_owner() {
        let source = parse_ok(note_body()).into_new_source(None, at());
        assert_eq!(source.participants, vec!["alice"]);
    }

    /// `ProfileInput::parse` refuses names that contain no name ("must contain a name"),
    /// but `&` and `+` survive `names::canonical_person`, so punctuation-only names made
    /// of them are accepted (and become an owner Person with canonical name `&&`).
    #[test]
    fn profile_name_of_only_ampersands_or_pluses_is_refused() {
        for name in ["&&", "+", "& + &"] {
            let result = ProfileInput::parse(json!({"full_name": name}));
            assert!(
                result.is_err(),
                "{name:?} should be refused, got {result:?}"
            );
        }
    }
}
