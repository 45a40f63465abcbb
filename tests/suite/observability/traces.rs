//! `telemetry.otlp_endpoint`: `cosmo serve` exports its spans to an OTLP collector (an
//! in-process stand-in) over HTTP/protobuf; a request and the jobs it caused form one
//! trace; spans still buffered at shutdown are sent before the process exits.

use std::time::Duration;

use cosmo_tests::fixtures;
use cosmo_tests::otlp::{Collector, Span};
use cosmo_tests::process;
use reqwest::StatusCode;

const KEY: &str = "traces-key";

/// The span named `name` carrying `request_id`.
fn find<'a>(spans: &'a [Span], name: &str, request_id: &str) -> &'a Span {
    spans
        .iter()
        .find(|s| {
            s.name == name && s.attributes.get("request_id").map(String::as_str) == Some(request_id)
        })
        .unwrap_or_else(|| {
            let names: Vec<_> = spans
                .iter()
                .map(|s| (&s.name, s.attributes.get("request_id")))
                .collect();
            panic!("no span {name} with request id {request_id}; exported: {names:?}")
        })
}

// Multi-threaded: the collector must answer while the test waits for the process.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_and_the_jobs_it_caused_are_exported_as_one_trace() {
    let collector = Collector::start().await;
    let dir = tempfile::tempdir().unwrap();
    let (mut server, api) = process::embedded(
        dir.path(),
        KEY,
        &[
            ("COSMO_TELEMETRY__OTLP_ENDPOINT", &collector.endpoint),
            // No periodic export during the test: what arrives was flushed at shutdown.
            ("OTEL_BSP_SCHEDULE_DELAY", "600000"),
        ],
    )
    .await;
    let request_id = format!("req-{}", ulid::Ulid::generate());
    let (status, answer) = api
        .send(
            reqwest::Method::POST,
            "/api/sources",
            Some(fixtures::text_note("alex").to_string().into_bytes()),
            &[("x-request-id", request_id.as_str())],
        )
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{answer}");
    api.wait_extracted(answer["entity_key"].as_str().unwrap())
        .await;
    assert!(
        server.terminate(Duration::from_secs(30)),
        "cosmo serve stops on SIGTERM"
    );

    let exports = collector.exports();
    assert!(!exports.is_empty(), "spans were exported at shutdown");
    for e in &exports {
        assert_eq!(e.content_type.as_deref(), Some("application/x-protobuf"));
    }
    let spans = collector.spans();
    let request = find(&spans, "POST /api/sources", &request_id);
    assert_eq!(
        request.service, "cosmo",
        "the binary's default service name"
    );
    assert_eq!(request.kind, 2, "a server span");
    assert_eq!(request.attributes["route"], "/api/sources");
    assert_eq!(request.attributes["status"], "202");

    let process = find(&spans, "job process-source", &request_id);
    assert_eq!(process.kind, 5, "a consumer span");
    assert_eq!(process.attributes["kind"], "process-source");
    assert_eq!(process.trace_id, request.trace_id, "one trace");
    assert_eq!(
        process.parent_span_id, request.span_id,
        "the job is a child of the request"
    );
    let extract = find(&spans, "job extract-entities", &request_id);
    assert_eq!(extract.trace_id, request.trace_id, "one trace");
    assert_eq!(
        extract.parent_span_id, process.span_id,
        "the extraction is a child of the job that enqueued it"
    );
}
