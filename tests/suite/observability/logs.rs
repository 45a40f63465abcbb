//! The request id of `POST /api/sources` — the caller's `x-request-id`, or the one the
//! API generated and answered with — is in every JSON log line of the jobs the request
//! caused: `process-source`, and the `extract-entities` it enqueued.

use std::collections::HashSet;
use std::time::Duration;

use cosmo_tests::process::{self, Proc};
use cosmo_tests::{fixtures, wait_for};
use reqwest::StatusCode;
use serde_json::Value;

const KEY: &str = "logs-key";

/// The JSON log lines written inside the spans of the jobs about Source `key` (other
/// output, such as the start-up banner on stdout, is not JSON and is skipped).
fn job_lines(server: &Proc, key: &str) -> Vec<Value> {
    let lines: Vec<Value> = server
        .output()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|l| l["span"]["name"] == "job")
        .collect();
    // A job is about `key` if one of its lines names it; all its lines count.
    let jobs: HashSet<&str> = lines
        .iter()
        .filter(|l| l["entity_key"] == key)
        .filter_map(|l| l["span"]["job_id"].as_str())
        .collect();
    lines
        .iter()
        .filter(|l| {
            l["span"]["job_id"]
                .as_str()
                .is_some_and(|id| jobs.contains(id))
        })
        .cloned()
        .collect()
}

/// Posts a Source (with `request_id` as `x-request-id` if given); returns its key and
/// the request id the API answered with.
async fn post(base: &str, user: &str, request_id: Option<&str>) -> (String, String) {
    let mut req = cosmo_shared::http::client()
        .post(format!("{base}/api/sources"))
        .bearer_auth(KEY)
        .json(&fixtures::text_note(user));
    if let Some(id) = request_id {
        req = req.header("x-request-id", id);
    }
    let resp = req.send().await.expect("POST /api/sources");
    assert_eq!(resp.status(), StatusCode::ACCEPTED);
    let answered = resp.headers()["x-request-id"]
        .to_str()
        .expect("ASCII request id")
        .to_owned();
    let body: Value = resp.json().await.expect("JSON answer");
    (
        body["entity_key"].as_str().expect("key").to_owned(),
        answered,
    )
}

#[tokio::test]
async fn every_job_a_request_caused_logs_its_request_id() {
    let dir = tempfile::tempdir().unwrap();
    let (server, api) = process::embedded(
        dir.path(),
        KEY,
        &[("COSMO_LOG__FORMAT", "json"), ("RUST_LOG", "info")],
    )
    .await;
    let chosen = format!("req-{}", ulid::Ulid::generate());
    let (with_header, answered) = post(&api.base, "alex", Some(&chosen)).await;
    assert_eq!(answered, chosen, "the caller's id is echoed");
    let (without_header, generated) = post(&api.base, "sam", None).await;
    assert!(
        !generated.is_empty() && generated != chosen,
        "an id is generated: {generated:?}"
    );

    for (key, request_id) in [(&with_header, &chosen), (&without_header, &generated)] {
        api.wait_extracted(key).await;
        // Both jobs' lines: "source processed" (process-source) and "source extracted"
        // (extract-entities, enqueued by process-source).
        let lines = wait_for("both jobs' log lines", Duration::from_secs(30), || async {
            let lines = job_lines(&server, key);
            let by = |kind: &str, message: &str| {
                lines
                    .iter()
                    .any(|l| l["span"]["kind"] == kind && l["message"] == message)
            };
            (by("process-source", "source processed") && by("extract-entities", "source extracted"))
                .then_some(lines)
        })
        .await;
        for line in &lines {
            assert_eq!(
                line["span"]["request_id"], **request_id,
                "a job line of {key} without the request's id: {line}"
            );
        }
    }
}
