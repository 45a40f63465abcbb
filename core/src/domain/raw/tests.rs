//! Unit tests for the typed views of `raw_content`, one shape per source type.

use serde_json::json;

use super::*;

// ---------------------------------------------------------------- helpers

fn ok(source_type: SourceType, raw: Value) -> RawContent {
    match RawContent::parse(source_type, &raw) {
        Ok(parsed) => parsed,
        Err(e) => panic!("expected {source_type} {raw} to parse, got {e:?}"),
    }
}

fn err(source_type: SourceType, raw: Value) -> FieldError {
    match RawContent::parse(source_type, &raw) {
        Ok(parsed) => panic!("expected {source_type} {raw} to be refused, got {parsed:?}"),
        Err(e) => e,
    }
}

#[track_caller]
fn assert_field_error(e: &FieldError, field: &str, message_part: &str) {
    assert_eq!(e.field, field, "wrong field in {e:?}");
    assert!(
        e.message.contains(message_part),
        "message of {e:?} should contain {message_part:?}"
    );
    assert_eq!(e.code, "validation_failed");
}

fn transcript(source_type: SourceType, raw: Value) -> Transcript {
    match ok(source_type, raw) {
        RawContent::Transcript(t) => t,
        other => panic!("expected a transcript, got {other:?}"),
    }
}

fn turn(speaker: Option<&str>, text: &str, timestamp: Option<&str>) -> Turn {
    Turn {
        speaker: speaker.map(str::to_owned),
        text: text.to_owned(),
        timestamp: timestamp.map(str::to_owned),
    }
}

fn email(raw: Value) -> Email {
    match ok(SourceType::Email, raw) {
        RawContent::Email(e) => e,
        other => panic!("expected an email, got {other:?}"),
    }
}

fn slack(raw: Value) -> SlackThread {
    match ok(SourceType::SlackThread, raw) {
        RawContent::Slack(s) => s,
        other => panic!("expected a Slack thread, got {other:?}"),
    }
}

const TRANSCRIPT_TYPES: [SourceType; 3] = [
    SourceType::Conversation,
    SourceType::Meeting,
    SourceType::VoiceMemo,
];

// ---------------------------------------------------------------- common checks

mod common {
    use super::*;

    #[test]
    fn raw_content_must_be_an_object_for_every_type() {
        for source_type in SourceType::ALL.iter().copied() {
            for raw in [json!("text"), json!([]), json!(1), Value::Null, json!(true)] {
                let e = err(source_type, raw);
                assert_field_error(&e, "raw_content", "must be a JSON object");
            }
        }
    }

    #[test]
    fn mismatching_type_is_refused_for_every_type() {
        for source_type in SourceType::ALL.iter().copied() {
            let other = if source_type == SourceType::TextNote {
                "email"
            } else {
                "text-note"
            };
            let e = err(source_type, json!({"type": other, "content": "x"}));
            assert_field_error(
                &e,
                "raw_content.type",
                &format!("must be \"{source_type}\" to match source_type"),
            );
        }
    }

    #[test]
    fn type_that_is_not_a_string_is_refused() {
        let e = err(SourceType::TextNote, json!({"type": 5, "content": "x"}));
        assert_field_error(&e, "raw_content.type", "must be \"text-note\"");
    }

    #[test]
    fn type_check_comes_before_the_shape_check() {
        // Missing content, but the wrong type is what gets reported.
        let e = err(SourceType::Conversation, json!({"type": "meeting"}));
        assert_eq!(e.field, "raw_content.type");
    }

    #[test]
    fn matching_type_is_accepted() {
        let parsed = ok(
            SourceType::VoiceMemo,
            json!({"type": "voice-memo", "content": "hello"}),
        );
        assert!(matches!(parsed, RawContent::Transcript(_)));
    }
}

// ---------------------------------------------------------------- transcripts

mod transcripts {
    use super::*;

    #[test]
    fn jsonl_string_is_read_line_by_line() {
        let jsonl = concat!(
            r#"{"speaker": "Alice", "text": "Morning, everyone.", "timestamp": "00:00:01"}"#,
            "\n",
            r#"{"speaker": "Bob", "text": "Hi Alice."}"#,
            "\n",
        );
        for source_type in TRANSCRIPT_TYPES {
            let t = transcript(source_type, json!({"title": "Standup", "content": jsonl}));
            assert_eq!(t.title.as_deref(), Some("Standup"));
            assert_eq!(
                t.turns,
                vec![
                    turn(Some("Alice"), "Morning, everyone.", Some("00:00:01")),
                    turn(Some("Bob"), "Hi Alice.", None),
                ]
            );
        }
    }

    #[test]
    fn jsonl_skips_blank_lines_and_handles_crlf_and_leading_whitespace() {
        let jsonl = "\n  {\"speaker\":\"A\",\"text\":\"one\"}\r\n\r\n   \n{\"speaker\":\"B\",\"text\":\"two\"}\r\n";
        let t = transcript(SourceType::Conversation, json!({"content": jsonl}));
        assert_eq!(
            t.turns,
            vec![turn(Some("A"), "one", None), turn(Some("B"), "two", None)]
        );
    }

    #[test]
    fn jsonl_accepts_alternative_key_names() {
        let jsonl = concat!(
            r#"{"role": "user", "content": "first", "start": 1.5}"#,
            "\n",
            r#"{"name": "Carol", "message": "second", "time": "10:00"}"#,
            "\n",
            r#"{"user": "U123", "utterance": "third", "ts": 1700000000}"#,
            "\n",
        );
        let t = transcript(SourceType::Meeting, json!({"content": jsonl}));
        assert_eq!(
            t.turns,
            vec![
                turn(Some("user"), "first", Some("1.5")),
                turn(Some("Carol"), "second", Some("10:00")),
                turn(Some("U123"), "third", Some("1700000000")),
            ]
        );
    }

    #[test]
    fn jsonl_line_without_speaker_or_with_blank_speaker_has_no_speaker() {
        let jsonl = "{\"text\": \"hello\"}\n{\"speaker\": \"  \", \"text\": \"again\"}";
        let t = transcript(SourceType::VoiceMemo, json!({"content": jsonl}));
        assert_eq!(
            t.turns,
            vec![turn(None, "hello", None), turn(None, "again", None)]
        );
    }

    #[test]
    fn jsonl_whose_second_line_is_not_json_names_line_2() {
        let jsonl = "{\"speaker\": \"Alice\", \"text\": \"hi\"}\nBob: this line is not JSON";
        let e = err(SourceType::Conversation, json!({"content": jsonl}));
        assert_field_error(&e, "raw_content.content (line 2)", "is not valid JSON");
    }

    #[test]
    fn jsonl_with_truncated_line_names_that_line() {
        let jsonl = "{\"speaker\":\"A\",\"text\":\"1\"}\n{\"speaker\":\"B\",\"text\":\"2\"}\n{\"speaker\":\"C\",\"te";
        let e = err(SourceType::Meeting, json!({"content": jsonl}));
        assert_field_error(&e, "raw_content.content (line 3)", "is not valid JSON");
    }

    #[test]
    fn jsonl_line_without_text_is_refused() {
        let jsonl = "{\"speaker\": \"Alice\", \"text\": \"hi\"}\n{\"speaker\": \"Bob\"}";
        let e = err(SourceType::Conversation, json!({"content": jsonl}));
        assert_field_error(&e, "raw_content.content (line 2)", "needs a `text` string");
    }

    #[test]
    fn jsonl_line_with_non_string_text_is_refused() {
        let e = err(
            SourceType::Conversation,
            json!({"content": "{\"speaker\": \"A\", \"text\": [\"hi\"]}"}),
        );
        assert_field_error(&e, "raw_content.content (line 1)", "needs a `text` string");
    }

    #[test]
    fn jsonl_line_that_is_not_an_object_is_refused() {
        let e = err(
            SourceType::Conversation,
            json!({"content": "{\"text\": \"hi\"}\n[\"hi\"]"}),
        );
        assert_field_error(
            &e,
            "raw_content.content (line 2)",
            "must be an object with `speaker` and `text`",
        );
    }

    #[test]
    fn array_of_turns_is_accepted() {
        let raw = json!({
            "content": [
                {"speaker": "Alice", "text": "Shall we ship Friday?", "timestamp": "2026-11-22T09:00:00Z"},
                {"speaker": "Bob", "text": "Yes."},
                {"text": "(applause)"}
            ]
        });
        for source_type in TRANSCRIPT_TYPES {
            let t = transcript(source_type, raw.clone());
            assert_eq!(t.title, None);
            assert_eq!(
                t.turns,
                vec![
                    turn(
                        Some("Alice"),
                        "Shall we ship Friday?",
                        Some("2026-11-22T09:00:00Z")
                    ),
                    turn(Some("Bob"), "Yes.", None),
                    turn(None, "(applause)", None),
                ]
            );
        }
    }

    #[test]
    fn array_turn_that_is_not_an_object_names_its_index() {
        let e = err(
            SourceType::Meeting,
            json!({"content": [{"speaker": "A", "text": "hi"}, "Bob: hi"]}),
        );
        assert_field_error(
            &e,
            "raw_content.content[1]",
            "must be an object with `speaker` and `text`",
        );
    }

    #[test]
    fn array_turn_without_text_names_its_index() {
        let e = err(
            SourceType::Meeting,
            json!({"content": [{"speaker": "A", "text": "hi"}, {"speaker": "B"}]}),
        );
        assert_field_error(&e, "raw_content.content[1]", "needs a `text` string");
    }

    #[test]
    fn plain_text_with_speaker_lines() {
        let text = "Alice: Shall we ship on Friday?\nBob Smith: Yes, if QA signs off.\n\nAlice:   Great.  ";
        let t = transcript(SourceType::Conversation, json!({"content": text}));
        assert_eq!(
            t.turns,
            vec![
                turn(Some("Alice"), "Shall we ship on Friday?", None),
                turn(Some("Bob Smith"), "Yes, if QA signs off.", None),
                turn(Some("Alice"), "Great.", None),
            ]
        );
    }

    #[test]
    fn plain_text_without_speakers() {
        let text = "we talked about the budget\nand agreed to revisit it next week";
        let t = transcript(SourceType::Meeting, json!({"content": text}));
        assert_eq!(
            t.turns,
            vec![
                turn(None, "we talked about the budget", None),
                turn(None, "and agreed to revisit it next week", None),
            ]
        );
    }

    #[test]
    fn plain_text_colon_after_a_non_name_is_not_a_speaker() {
        let long_label = format!("{}: text", "A".repeat(41));
        let lines = [
            "note to self: buy milk",                  // lower-case start
            "The Five Words Are Here: too many words", // more than four words
            ": starts with a colon",                   // empty speaker
            long_label.as_str(),                       // longer than 40 bytes
        ];
        for line in lines {
            let t = transcript(SourceType::Conversation, json!({"content": line}));
            assert_eq!(
                t.turns,
                vec![turn(None, line.trim(), None)],
                "line {line:?}"
            );
        }
    }

    #[test]
    fn plain_voice_memo() {
        let t = transcript(
            SourceType::VoiceMemo,
            json!({"content": "Remember to call the dentist about Thursday."}),
        );
        assert_eq!(
            t.turns,
            vec![turn(
                None,
                "Remember to call the dentist about Thursday.",
                None
            )]
        );
    }

    #[test]
    fn plain_voice_memo_keeps_every_non_blank_line() {
        let t = transcript(
            SourceType::VoiceMemo,
            json!({"title": "Thoughts", "content": "first idea\n\n  second idea  \n"}),
        );
        assert_eq!(t.title.as_deref(), Some("Thoughts"));
        assert_eq!(
            t.turns,
            vec![
                turn(None, "first idea", None),
                turn(None, "second idea", None)
            ]
        );
    }

    #[test]
    fn missing_or_null_content_is_required() {
        for source_type in TRANSCRIPT_TYPES {
            for raw in [json!({}), json!({"content": null}), json!({"title": "t"})] {
                let e = err(source_type, raw);
                assert_field_error(&e, "raw_content.content", "is required");
            }
        }
    }

    #[test]
    fn content_of_the_wrong_type_is_refused() {
        for content in [json!(5), json!(true), json!({"speaker": "A", "text": "hi"})] {
            let e = err(SourceType::Conversation, json!({"content": content}));
            assert_field_error(
                &e,
                "raw_content.content",
                "must be a JSONL transcript string or an array",
            );
        }
    }

    #[test]
    fn empty_transcript_is_refused() {
        for source_type in [SourceType::Conversation, SourceType::Meeting] {
            for content in [
                json!(""),
                json!("  \n\n "),
                json!([]),
                json!([{"speaker": "A", "text": "  "}]),
            ] {
                let e = err(source_type, json!({"content": content}));
                assert_field_error(&e, "raw_content.content", "the transcript is empty");
            }
        }
    }

    #[test]
    fn empty_voice_memo_says_voice_memo() {
        for content in [json!(""), json!("   "), json!([])] {
            let e = err(SourceType::VoiceMemo, json!({"content": content}));
            assert_field_error(&e, "raw_content.content", "the voice memo is empty");
        }
    }

    #[test]
    fn transcript_with_one_non_empty_turn_is_accepted() {
        let t = transcript(
            SourceType::Meeting,
            json!({"content": [{"speaker": "A", "text": ""}, {"speaker": "B", "text": "hi"}]}),
        );
        assert_eq!(t.turns.len(), 2);
    }

    #[test]
    fn title_must_be_a_string_and_blank_title_is_none() {
        let e = err(SourceType::Meeting, json!({"title": 5, "content": "hi"}));
        assert_field_error(&e, "raw_content.title", "must be a string");
        let t = transcript(
            SourceType::Meeting,
            json!({"title": "   ", "content": "hi"}),
        );
        assert_eq!(t.title, None);
    }
}

// ---------------------------------------------------------------- email

mod emails {
    use super::*;

    #[test]
    fn full_email() {
        let e = email(json!({
            "type": "email",
            "from": "alice@example.com",
            "to": ["bob@example.com", "carol@example.com"],
            "cc": "dave@example.com, , erin@example.com",
            "subject": "Q3 budget",
            "body": "Hi Bob,\nSee attached.",
            "headers": {
                "Message-ID": "<abc@mail>",
                "X-Priority": 1,
                "References": ["<a@mail>", "<b@mail>"]
            }
        }));
        assert_eq!(e.from, "alice@example.com");
        assert_eq!(e.to, vec!["bob@example.com", "carol@example.com"]);
        assert_eq!(e.cc, vec!["dave@example.com", "erin@example.com"]);
        assert_eq!(e.subject, "Q3 budget");
        assert_eq!(e.body, "Hi Bob,\nSee attached.");
        let mut headers = e.headers.clone();
        headers.sort();
        assert_eq!(
            headers,
            vec![
                ("Message-ID".to_owned(), "<abc@mail>".to_owned()),
                ("References".to_owned(), "<a@mail>, <b@mail>".to_owned()),
                ("X-Priority".to_owned(), "1".to_owned()),
            ]
        );
    }

    #[test]
    fn minimal_email_has_empty_defaults() {
        let e = email(json!({"from": "alice@example.com", "body": "hello"}));
        assert_eq!(
            e,
            Email {
                from: "alice@example.com".into(),
                to: vec![],
                cc: vec![],
                subject: String::new(),
                body: "hello".into(),
                headers: vec![],
            }
        );
    }

    #[test]
    fn null_optional_fields_are_absent() {
        let e = email(
            json!({"from": "a@x.io", "body": "b", "to": null, "cc": null, "subject": null, "headers": null}),
        );
        assert!(e.to.is_empty() && e.cc.is_empty() && e.headers.is_empty());
        assert_eq!(e.subject, "");
    }

    #[test]
    fn missing_from_is_required() {
        let e = err(SourceType::Email, json!({"subject": "hi", "body": "hello"}));
        assert_field_error(&e, "raw_content.from", "is required");
    }

    #[test]
    fn empty_from_is_refused() {
        let e = err(SourceType::Email, json!({"from": "  ", "body": "hello"}));
        assert_field_error(&e, "raw_content.from", "must not be empty");
    }

    #[test]
    fn from_of_the_wrong_type_is_refused() {
        let e = err(
            SourceType::Email,
            json!({"from": ["a@x.io"], "body": "hello"}),
        );
        assert_field_error(&e, "raw_content.from", "must be a string");
    }

    #[test]
    fn missing_body_is_required() {
        let e = err(
            SourceType::Email,
            json!({"from": "a@x.io", "subject": "hi"}),
        );
        assert_field_error(&e, "raw_content.body", "is required");
    }

    #[test]
    fn empty_body_is_refused() {
        let e = err(
            SourceType::Email,
            json!({"from": "a@x.io", "body": "\n\t "}),
        );
        assert_field_error(&e, "raw_content.body", "must not be empty");
    }

    #[test]
    fn email_does_not_accept_content_instead_of_body() {
        let e = err(
            SourceType::Email,
            json!({"from": "a@x.io", "content": "hello"}),
        );
        assert_field_error(&e, "raw_content.body", "is required");
    }

    #[test]
    fn recipients_of_the_wrong_type_are_refused() {
        let e = err(
            SourceType::Email,
            json!({"from": "a@x.io", "body": "b", "to": 5}),
        );
        assert_field_error(
            &e,
            "raw_content.to",
            "must be a string or a list of strings",
        );
        let e = err(
            SourceType::Email,
            json!({"from": "a@x.io", "body": "b", "cc": ["ok@x.io", 5]}),
        );
        assert_field_error(&e, "raw_content.cc", "must be a list of strings");
    }

    #[test]
    fn subject_of_the_wrong_type_is_refused() {
        let e = err(
            SourceType::Email,
            json!({"from": "a@x.io", "body": "b", "subject": 3}),
        );
        assert_field_error(&e, "raw_content.subject", "must be a string");
    }

    #[test]
    fn header_with_a_non_string_value_is_refused() {
        for value in [json!(true), json!({"nested": "x"})] {
            let e = err(
                SourceType::Email,
                json!({"from": "a@x.io", "body": "b", "headers": {"X-Flag": value}}),
            );
            assert_field_error(&e, "raw_content.headers.X-Flag", "must be a string");
        }
    }

    #[test]
    fn headers_that_are_not_an_object_are_refused() {
        for headers in [json!("Message-ID: <x>"), json!([["a", "b"]])] {
            let e = err(
                SourceType::Email,
                json!({"from": "a@x.io", "body": "b", "headers": headers}),
            );
            assert_field_error(&e, "raw_content.headers", "must be an object");
        }
    }
}

// ---------------------------------------------------------------- Slack

mod slack_threads {
    use super::*;

    fn msg(user: &str, text: &str, ts: Option<&str>) -> SlackMessage {
        SlackMessage {
            user: user.into(),
            text: text.into(),
            ts: ts.map(str::to_owned),
        }
    }

    #[test]
    fn thread_with_messages() {
        let s = slack(json!({
            "type": "slack-thread",
            "channel": "#launch",
            "messages": [
                {"user": "U01", "text": "Are we on for Friday?", "ts": "1700000000.000100"},
                {"username": "bob", "text": "Yes", "timestamp": 1700000001},
                {"user_name": "carol", "text": "+1"},
                {"author": "dave", "text": "🚀"}
            ]
        }));
        assert_eq!(s.channel, "#launch");
        assert_eq!(
            s.messages,
            vec![
                msg("U01", "Are we on for Friday?", Some("1700000000.000100")),
                msg("bob", "Yes", Some("1700000001")),
                msg("carol", "+1", None),
                msg("dave", "🚀", None),
            ]
        );
    }

    #[test]
    fn numeric_user_ids_are_read_as_strings() {
        let s = slack(json!({"channel": "C1", "messages": [{"user": 42, "text": "hi"}]}));
        assert_eq!(s.messages, vec![msg("42", "hi", None)]);
    }

    #[test]
    fn missing_channel_is_required() {
        let e = err(
            SourceType::SlackThread,
            json!({"messages": [{"user": "U1", "text": "hi"}]}),
        );
        assert_field_error(&e, "raw_content.channel", "is required");
    }

    #[test]
    fn empty_channel_is_refused() {
        let e = err(
            SourceType::SlackThread,
            json!({"channel": "", "messages": [{"user": "U1", "text": "hi"}]}),
        );
        assert_field_error(&e, "raw_content.channel", "must not be empty");
    }

    #[test]
    fn missing_messages_are_required() {
        for raw in [
            json!({"channel": "#c"}),
            json!({"channel": "#c", "messages": null}),
        ] {
            let e = err(SourceType::SlackThread, raw);
            assert_field_error(&e, "raw_content.messages", "is required");
        }
    }

    #[test]
    fn empty_messages_are_refused() {
        let e = err(
            SourceType::SlackThread,
            json!({"channel": "#c", "messages": []}),
        );
        assert_field_error(&e, "raw_content.messages", "must not be empty");
    }

    #[test]
    fn messages_that_are_not_an_array_are_refused() {
        for messages in [json!("hi"), json!({"user": "U1", "text": "hi"})] {
            let e = err(
                SourceType::SlackThread,
                json!({"channel": "#c", "messages": messages}),
            );
            assert_field_error(&e, "raw_content.messages", "must be an array");
        }
    }

    #[test]
    fn message_that_is_not_an_object_names_its_index() {
        let e = err(
            SourceType::SlackThread,
            json!({"channel": "#c", "messages": [{"user": "U1", "text": "hi"}, "hi"]}),
        );
        assert_field_error(
            &e,
            "raw_content.messages[1]",
            "must be an object with `user` and `text`",
        );
    }

    #[test]
    fn message_without_user_names_its_index() {
        let e = err(
            SourceType::SlackThread,
            json!({"channel": "#c", "messages": [{"user": "U1", "text": "hi"}, {"text": "who am I"}]}),
        );
        assert_field_error(&e, "raw_content.messages[1].user", "is required");
    }

    #[test]
    fn message_with_non_scalar_user_is_refused() {
        let e = err(
            SourceType::SlackThread,
            json!({"channel": "#c", "messages": [{"user": {"id": "U1"}, "text": "hi"}]}),
        );
        assert_field_error(&e, "raw_content.messages[0].user", "is required");
    }

    #[test]
    fn message_without_text_names_its_index() {
        let e = err(
            SourceType::SlackThread,
            json!({"channel": "#c", "messages": [{"user": "U1"}]}),
        );
        assert_field_error(&e, "raw_content.messages[0].text", "is required");
    }

    #[test]
    fn channel_is_checked_before_messages() {
        let e = err(SourceType::SlackThread, json!({"messages": []}));
        assert_eq!(e.field, "raw_content.channel");
    }
}

// ---------------------------------------------------------------- text note

mod text_notes {
    use super::*;

    #[test]
    fn note_with_title() {
        let parsed = ok(
            SourceType::TextNote,
            json!({"type": "text-note", "title": "Ideas", "content": "Try the new API."}),
        );
        assert_eq!(
            parsed,
            RawContent::Text(TextNote {
                title: Some("Ideas".into()),
                content: "Try the new API.".into()
            })
        );
    }

    #[test]
    fn note_without_title_and_content_kept_verbatim() {
        let content = "  line one\n\nline two  ";
        let parsed = ok(SourceType::TextNote, json!({"content": content}));
        assert_eq!(
            parsed,
            RawContent::Text(TextNote {
                title: None,
                content: content.into()
            })
        );
    }

    #[test]
    fn blank_title_is_none() {
        let parsed = ok(SourceType::TextNote, json!({"title": "  ", "content": "x"}));
        assert_eq!(
            parsed,
            RawContent::Text(TextNote {
                title: None,
                content: "x".into()
            })
        );
    }

    #[test]
    fn missing_content_is_required() {
        for raw in [json!({"title": "Ideas"}), json!({"content": null})] {
            let e = err(SourceType::TextNote, raw);
            assert_field_error(&e, "raw_content.content", "is required");
        }
    }

    #[test]
    fn empty_content_is_refused() {
        for content in ["", "   ", "\n\t"] {
            let e = err(SourceType::TextNote, json!({"content": content}));
            assert_field_error(&e, "raw_content.content", "must not be empty");
        }
    }

    #[test]
    fn content_of_the_wrong_type_is_refused() {
        for content in [json!(5), json!(["a"]), json!({"text": "a"})] {
            let e = err(SourceType::TextNote, json!({"content": content}));
            assert_field_error(&e, "raw_content.content", "must be a string");
        }
    }

    #[test]
    fn title_of_the_wrong_type_is_refused() {
        let e = err(
            SourceType::TextNote,
            json!({"title": ["a"], "content": "x"}),
        );
        assert_field_error(&e, "raw_content.title", "must be a string");
    }
}

// ---------------------------------------------------------------- known bugs (expected to FAIL until fixed)

/// Cases that were once wrong.
mod regressions {
    use super::*;

    /// `transcript_text` is documented as: "A JSONL transcript ..., or, when the first
    /// line is not JSON, plain text with optional `Speaker: text` lines." The code
    /// decides by "the first line starts with `{`", so a plain transcript whose first
    /// line merely starts with a brace is refused as invalid JSONL.
    #[test]
    fn plain_transcript_whose_first_line_starts_with_a_brace_is_plain_text() {
        let text = "{inaudible} so we agreed on Friday\nBob: Friday works.";
        let result = RawContent::parse(SourceType::VoiceMemo, &json!({"content": text}));
        let Ok(RawContent::Transcript(t)) = result else {
            panic!("a first line that is not JSON means plain text, got {result:?}");
        };
        assert_eq!(
            t.turns,
            vec![
                turn(None, "{inaudible} so we agreed on Friday", None),
                turn(Some("Bob"), "Friday works.", None)
            ]
        );
    }

    /// Blank lines are dropped before lines are numbered, so the error names the
    /// N-th non-blank line, not the line of the posted text that is wrong.
    #[test]
    fn jsonl_error_names_the_physical_line_after_blank_lines() {
        let jsonl = "{\"speaker\": \"A\", \"text\": \"hi\"}\n\n{not json";
        let e = err(SourceType::Conversation, json!({"content": jsonl}));
        assert_field_error(&e, "raw_content.content (line 3)", "is not valid JSON");
    }
}
