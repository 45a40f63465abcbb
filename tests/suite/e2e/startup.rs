//! What a newcomer meets on first run, on every binary (`cosmo`, `ingest-api`,
//! `workers`, `scheduler`): a configuration error is one line, `error: …`, with no
//! backtrace, and logs written to a pipe are JSON.

use std::path::Path;
use std::process::Output;

use cosmo_tests::process;

/// Runs `binary args…` in `dir` to the end, with `env` and nothing of the caller's
/// `COSMO_…` or log settings.
fn run(binary: &str, args: &[&str], dir: &Path, env: &[(&str, &str)]) -> Output {
    run_program(&process::bin(binary), args, dir, env)
}

fn run_program(program: &Path, args: &[&str], dir: &Path, env: &[(&str, &str)]) -> Output {
    let mut cmd = std::process::Command::new(program);
    for (key, _) in std::env::vars_os() {
        let key = key.to_string_lossy().into_owned();
        if key.starts_with("COSMO_") || key == "RUST_LOG" || key == "RUST_LIB_BACKTRACE" {
            cmd.env_remove(key);
        }
    }
    cmd.args(args)
        .current_dir(dir)
        .envs(env.iter().copied())
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("running {}: {e}", program.display()))
}

/// `body_limit` for `body_limit_bytes`: each binary stops at once, exit status 1, and
/// prints the message naming the key and the file, alone on one line, although
/// `RUST_BACKTRACE=1` is set (as it often is in developers' shells).
#[test]
fn a_typo_in_the_config_file_stops_every_binary_with_the_message_alone() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("typo.toml");
    std::fs::write(&file, "[server]\nbody_limit = 4096\n").unwrap();
    let file = file.to_str().unwrap();
    for (binary, command) in [
        ("cosmo", Some("serve")),
        ("ingest-api", None),
        ("workers", None),
        ("scheduler", None),
    ] {
        let mut args: Vec<&str> = command.into_iter().collect();
        args.extend(["--config", file]);
        let out = run(binary, &args, dir.path(), &[("RUST_BACKTRACE", "1")]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{binary}: {stderr}");
        assert!(
            stderr.starts_with(
                "error: invalid configuration: unknown field: found `body_limit`, expected"
            ) && stderr.contains("`body_limit_bytes`")
                && stderr.contains("for key \"default.server.body_limit\" in typo.toml"),
            "{binary}: the message names the key, its fix and the file: {stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{binary}: one line: {stderr}");
        assert!(
            !stderr.to_lowercase().contains("backtrace"),
            "{binary}: {stderr}"
        );
        assert!(out.stdout.is_empty(), "{binary}: nothing on stdout");
    }
}

/// A bad value, given in the environment, is refused the same way, naming the setting
/// and the values it takes.
#[test]
fn an_unknown_log_format_is_refused_with_the_formats_it_takes() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        "cosmo",
        &["migrate"],
        dir.path(),
        &[("COSMO_LOG__FORMAT", "text"), ("RUST_BACKTRACE", "1")],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with("error: invalid configuration: unknown variant: found `text`")
            && stderr.contains("`auto`, `json`, `pretty`")
            && stderr.contains("\"LOG.FORMAT\" in `COSMO_` environment variable"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

/// `cosmo run-job decay` on a fresh store, with `env`: what it logged.
fn decay_log(env: &[(&str, &str)]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cosmo.db");
    let url = format!("sqlite://{}", db.display());
    let mut vars = vec![("COSMO_DATABASE__URL", url.as_str()), ("RUST_LOG", "info")];
    vars.extend_from_slice(env);
    let out = run("cosmo", &["run-job", "decay"], dir.path(), &vars);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("periodic job ran"), "{stderr}");
    stderr
}

/// Logs written to a pipe (or a file) are one JSON object per line, as collectors
/// expect, unless `log.format = "pretty"` asks for human-readable lines.
#[test]
fn logs_to_a_pipe_are_json_unless_pretty_is_asked_for() {
    for line in decay_log(&[]).lines() {
        let event: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("not a JSON line ({e}): {line}"));
        assert!(
            event["timestamp"].is_string() && event["message"].is_string(),
            "{line}"
        );
    }
    let pretty = decay_log(&[("COSMO_LOG__FORMAT", "pretty")]);
    let line = pretty
        .lines()
        .find(|l| l.contains("periodic job ran"))
        .unwrap();
    assert!(
        serde_json::from_str::<serde_json::Value>(line).is_err()
            && line.contains(" INFO cosmo_workers::dispatch: periodic job ran kind=decay"),
        "{line}"
    );
}

/// On a terminal (a pseudo-terminal from `script`, from util-linux), the same command
/// logs human-readable lines, in colour; `log.format = "json"` keeps JSON there.
#[cfg(target_os = "linux")]
#[test]
fn logs_on_a_terminal_are_human_readable_unless_json_is_asked_for() {
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: no `script` command to give the binary a terminal");
        return;
    }
    let on_a_terminal = |env: &[(&str, &str)]| {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("cosmo.db");
        let url = format!("sqlite://{}", db.display());
        let command = format!(
            "{} run-job decay >/dev/null",
            process::bin("cosmo").display()
        );
        let mut vars = vec![("COSMO_DATABASE__URL", url.as_str()), ("RUST_LOG", "info")];
        vars.extend_from_slice(env);
        let out = run_program(
            Path::new("script"),
            &["-qec", &command, "/dev/null"],
            dir.path(),
            &vars,
        );
        let output = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(out.status.success(), "{output}");
        output
            .lines()
            .find(|l| l.contains("periodic job ran"))
            .unwrap_or_else(|| panic!("no log line: {output}"))
            .trim_end()
            .to_owned()
    };
    let line = on_a_terminal(&[]);
    assert!(
        !line.starts_with('{') && line.contains("\x1b[") && line.contains("INFO"),
        "{line:?}"
    );
    let line = on_a_terminal(&[("COSMO_LOG__FORMAT", "json")]);
    let event: serde_json::Value =
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line:?}"));
    assert_eq!(event["message"], "periodic job ran");
}
