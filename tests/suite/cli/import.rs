//! `cosmo import` into a running `cosmo serve`: a folder of transcripts, a note, an
//! email and a JSONL file becomes one Source per item, once, however often it is
//! imported or interrupted; bad items are reported and fail the run; `--follow` waits
//! for the pipeline.

use std::path::Path;
use std::time::Duration;

use cosmo_cli::import::items::jsonl_key;
use cosmo_shared::graph::ports::*;
use cosmo_shared::graph::sqlite::SqliteGraph;
use cosmo_tests::http::Api;
use cosmo_tests::{process, wait_for};
use reqwest::StatusCode;
use serde_json::{Value, json};

use super::{Run, command, cosmo};

const KEY: &str = "import-test-key";

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

async fn import(server: &Api, path: &Path, extra: &[&str]) -> Run {
    let mut args = vec!["import", path.to_str().unwrap(), "--user", "alex"];
    args.extend_from_slice(&["--url", &server.base, "--api-key", KEY]);
    args.extend_from_slice(extra);
    cosmo(&args, path.parent().unwrap(), &[]).await
}

/// Alex's Sources, as the server's database holds them.
async fn sources(server_dir: &Path) -> Vec<cosmo_shared::domain::Source> {
    let graph = SqliteGraph::open(&server_dir.join("cosmo.db"))
        .await
        .unwrap();
    graph.sources_for_user("alex", None, 10_000).await.unwrap()
}

/// The Source an item with this `external_id` became.
async fn source(api: &Api, external_id: &str) -> Value {
    let key = cosmo_shared::ids::source_key("alex", &format!("external:{external_id}"));
    let (status, view) = api
        .get(&format!("/api/sources/{key}?include_raw=true"))
        .await;
    assert_eq!(status, StatusCode::OK, "{external_id}: {view}");
    view
}

#[tokio::test]
async fn a_folder_becomes_one_source_per_item_and_bad_lines_are_reported() {
    let server_dir = tempfile::tempdir().unwrap();
    let (_server, api) = process::embedded(server_dir.path(), KEY, &[]).await;
    let data = tempfile::tempdir().unwrap();
    let root = data.path().join("export");
    write(
        &root,
        "calls/standup.txt",
        "Sarah Chen: Acme Corp signed the pilot last week.\nPriya Patel: The hiring plan is the blocker.\n",
    );
    write(
        &root,
        "calls/retro.txt",
        "Maria Lopez: The Berlin launch slipped.\nSarah Chen: We move it to March.\n",
    );
    write(
        &root,
        "notes/garden.md",
        "# Garden\n\nPlanted tomatoes. They need water every day.\n",
    );
    write(
        &root,
        "mail/review.eml",
        "From: Sarah Chen <sarah@acme.example>\r\nTo: alex@example.com\r\nSubject: Acme Corp security review\r\nDate: Tue, 3 Nov 2026 09:30:00 +0100\r\nMessage-ID: <r1@acme.example>\r\n\r\nHi Alex,\r\n\r\nAcme Corp needs the security review before the Berlin launch.\r\n\r\nSarah\r\n",
    );
    let note = |text: &str| json!({"source_type": "text-note", "raw_content": {"content": text}});
    let mut crm = note("Lunch with Priya Patel about the hiring plan.");
    crm["external_id"] = json!("crm:42");
    write(
        &root,
        "batch.jsonl",
        &format!(
            "{}\n{{\"source_type\": \"text-note\", oops\n\n{}\n",
            note("Call the bank about the mortgage."),
            crm
        ),
    );
    write(&root, "photo.png", "not text");

    // Nothing listening, or a key Cosmo does not know: the import stops at once.
    let nowhere = format!("http://127.0.0.1:{}", process::free_port());
    let unreachable = import(&Api::new(&nowhere, None), &root, &[]).await;
    assert_eq!(unreachable.code, Some(1), "{unreachable}");
    assert!(
        unreachable
            .stderr
            .contains(&format!("cannot reach Cosmo at {nowhere}")),
        "{unreachable}"
    );
    let refused = cosmo(
        &[
            "import",
            root.to_str().unwrap(),
            "--user",
            "alex",
            "--url",
            &api.base,
            "--api-key",
            "wrong-key",
        ],
        data.path(),
        &[],
    )
    .await;
    assert_eq!(refused.code, Some(1), "{refused}");
    assert!(
        refused.stderr.contains("Cosmo refused the API key"),
        "{refused}"
    );
    assert!(
        refused.stdout.contains("0 accepted"),
        "nothing was posted: {refused}"
    );
    std::fs::remove_file(data.path().join("export.cosmo-import")).unwrap();

    let first = import(&api, &root, &[]).await;
    assert_eq!(first.code, Some(1), "a refused line fails the run: {first}");
    assert!(
        first
            .stderr
            .contains("refused batch.jsonl line 2: invalid JSON"),
        "the bad line is reported with its place: {first}"
    );
    assert!(
        first
            .stderr
            .contains("ignoring 1 file(s) of other types: photo.png"),
        "{first}"
    );
    assert!(
        first.stdout.contains(
            "import: 6 accepted (6 new, 0 already in Cosmo), 0 skipped (already imported), 1 refused"
        ),
        "{first}"
    );

    let standup = source(&api, "import:calls/standup.txt").await;
    assert_eq!(
        standup["source_type"], "conversation",
        "speaker lines: a transcript"
    );
    assert_eq!(standup["raw_content"]["title"], "standup");
    assert_eq!(
        source(&api, "import:calls/retro.txt").await["source_type"],
        "conversation"
    );
    assert_eq!(
        source(&api, "import:notes/garden.md").await["source_type"],
        "text-note"
    );
    let email = source(&api, "import:mail/review.eml").await;
    assert_eq!(email["source_type"], "email");
    assert_eq!(email["raw_content"]["subject"], "Acme Corp security review");
    assert_eq!(
        email["raw_content"]["from"],
        "Sarah Chen <sarah@acme.example>"
    );
    assert_eq!(
        email["started_at"], "2026-11-03T08:30:00Z",
        "the Date header"
    );
    let line_one = note("Call the bank about the mortgage.").to_string();
    let line_one = source(
        &api,
        &format!("import:{}", jsonl_key("batch.jsonl", line_one.as_bytes())),
    )
    .await;
    assert_eq!(
        line_one["raw_content"]["content"],
        "Call the bank about the mortgage."
    );
    assert_eq!(
        source(&api, "crm:42").await["external_id"],
        "crm:42",
        "its own id is kept"
    );
    assert_eq!(sources(server_dir.path()).await.len(), 6);

    let again = import(&api, &root, &[]).await;
    assert_eq!(
        again.code,
        Some(1),
        "the bad line is still refused: {again}"
    );
    assert!(
        again.stdout.contains("import: 0 accepted (0 new, 0 already in Cosmo), 6 skipped (already imported), 1 refused"),
        "nothing new is posted: {again}"
    );
    assert_eq!(sources(server_dir.path()).await.len(), 6, "no duplicates");

    // Without the checkpoint, Cosmo's own de-duplication still holds.
    std::fs::remove_file(data.path().join("export.cosmo-import")).unwrap();
    let fresh = import(&api, &root, &[]).await;
    assert!(
        fresh
            .stdout
            .contains("6 accepted (0 new, 6 already in Cosmo)"),
        "{fresh}"
    );
    assert_eq!(
        sources(server_dir.path()).await.len(),
        6,
        "still no duplicates"
    );

    // An export regenerated with a new line on top: only that line is new, the lines
    // that moved are recognised (keyed by content, not by position).
    let batch = root.join("batch.jsonl");
    let old = std::fs::read_to_string(&batch).unwrap();
    let newest = note("Book the dentist for Thursday.");
    std::fs::write(&batch, format!("{newest}\n{old}")).unwrap();
    let shifted = import(&api, &root, &[]).await;
    assert!(
        shifted.stdout.contains(
            "1 accepted (1 new, 0 already in Cosmo), 6 skipped (already imported), 1 refused"
        ),
        "{shifted}"
    );
    assert!(
        shifted
            .stderr
            .contains("refused batch.jsonl line 3: invalid JSON"),
        "the bad line is reported where it is now: {shifted}"
    );
    assert_eq!(sources(server_dir.path()).await.len(), 7);
}

#[tokio::test]
async fn an_interrupted_import_resumes_without_duplicates() {
    let server_dir = tempfile::tempdir().unwrap();
    let (_server, api) = process::embedded(server_dir.path(), KEY, &[]).await;
    let data = tempfile::tempdir().unwrap();
    let file = data.path().join("notes.jsonl");
    const ITEMS: usize = 300;
    let lines: Vec<String> = (0..ITEMS)
        .map(|i| json!({"source_type": "text-note", "raw_content": {"content": format!("Note {i}: water the tomatoes.")}}).to_string())
        .collect();
    std::fs::write(&file, lines.join("\n")).unwrap();
    let checkpoint = data.path().join("notes.jsonl.cosmo-import");
    let recorded = || {
        std::fs::read_to_string(&checkpoint)
            .map(|t| t.lines().count().saturating_sub(1))
            .unwrap_or(0)
    };
    let args = [
        "import",
        file.to_str().unwrap(),
        "--user",
        "alex",
        "--url",
        &api.base,
        "--api-key",
        KEY,
        "--concurrency",
        "1",
    ];

    let mut first = command(&args, data.path(), &[]).spawn().unwrap();
    wait_for("some items recorded", Duration::from_secs(60), || async {
        (recorded() >= 10).then_some(())
    })
    .await;
    first.kill().await.unwrap();
    let done_before = recorded();
    assert!(
        done_before < ITEMS,
        "killed part-way ({done_before} of {ITEMS})"
    );

    let second = cosmo(&args, data.path(), &[]).await;
    assert!(second.ok(), "{second}");
    let summary = second
        .stdout
        .lines()
        .find(|l| l.starts_with("import:"))
        .unwrap_or_else(|| panic!("a summary: {second}"));
    assert!(
        summary.contains(&format!("{done_before} skipped (already imported)")),
        "what was recorded is skipped: {summary}"
    );
    let accepted = ITEMS - done_before;
    let duplicates = (0..=1)
        .find(|d| {
            summary.contains(&format!(
                "{accepted} accepted ({} new, {d} already in Cosmo)",
                accepted - d
            ))
        })
        .unwrap_or_else(|| panic!("at most the one item in flight was posted twice: {summary}"));
    assert!(duplicates <= 1);
    assert_eq!(recorded(), ITEMS);
    assert_eq!(
        sources(server_dir.path()).await.len(),
        ITEMS,
        "one Source per item"
    );
}

#[tokio::test]
async fn follow_returns_once_every_source_is_extracted() {
    let server_dir = tempfile::tempdir().unwrap();
    let (_server, api) = process::embedded(server_dir.path(), KEY, &[]).await;
    let data = tempfile::tempdir().unwrap();
    let root = data.path().join("notes");
    write(
        &root,
        "a.md",
        "Lunch with Sarah Chen from Acme Corp about the hiring plan.",
    );
    write(
        &root,
        "b.md",
        "Priya Patel leads the Berlin launch at Acme Corp.",
    );
    write(&root, "c.md", "Planted tomatoes in the garden.");

    let run = import(&api, &root, &["--follow", "--follow-timeout", "120"]).await;
    assert!(run.ok(), "{run}");
    assert!(
        run.stdout.contains("follow: 3 extracted, 0 failed"),
        "{run}"
    );
    for name in ["a.md", "b.md", "c.md"] {
        let view = source(&api, &format!("import:{name}")).await;
        assert_eq!(
            view["status"], "extracted",
            "{name} was extracted when import returned"
        );
    }
}
