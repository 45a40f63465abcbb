//! The `cosmo` operator commands as an operator runs them (the real binary):
//! `cosmo jobs list|counts|retry` on a store, `cosmo run-job` for one Source,
//! `cosmo import` into a running `cosmo serve`.

mod import;
mod jobs;
mod run_source;
mod week;

use std::path::Path;

use cosmo_tests::process;

/// What a finished `cosmo …` printed, and how it exited.
#[derive(Debug)]
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub fn ok(&self) -> bool {
        self.code == Some(0)
    }
}

impl std::fmt::Display for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exit {:?}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

/// Runs `cosmo args…` in `dir` with `env` (quiet logs) to the end.
pub async fn cosmo(args: &[&str], dir: &Path, env: &[(String, String)]) -> Run {
    let out = command(args, dir, env).output().await.expect("run cosmo");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

pub fn command(args: &[&str], dir: &Path, env: &[(String, String)]) -> tokio::process::Command {
    let mut cmd = tokio::process::Command::new(process::bin("cosmo"));
    cmd.args(args)
        .current_dir(dir)
        .env("COSMO_LOG__FORMAT", "pretty")
        .env("RUST_LOG", "warn")
        .env_remove("COSMO_API_KEY")
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .stdin(std::process::Stdio::null())
        .kill_on_drop(true);
    cmd
}
