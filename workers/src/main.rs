//! The `workers` process: runs jobs from the queue.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use cosmo_shared::config::Config;
use cosmo_shared::exit;
use cosmo_shared::services::Services;
use cosmo_shared::telemetry;

#[derive(Debug, Parser)]
#[command(
    version,
    about = "Cosmo workers: run pipeline and maintenance jobs from the queue"
)]
struct Args {
    /// Configuration file (TOML); `COSMO_…` variables override it.
    #[arg(long, env = "COSMO_CONFIG")]
    config: Option<PathBuf>,
    /// Job kinds to serve, comma-separated (default: all), e.g. `process-source,extract-entities`.
    #[arg(long, value_delimiter = ',')]
    jobs: Vec<String>,
    /// Jobs of each kind this process runs at once (overrides `jobs.<kind>.concurrency`).
    #[arg(long)]
    concurrency: Option<usize>,
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = Args::parse();
    exit::report(start(args).await)
}

async fn start(args: Args) -> anyhow::Result<()> {
    let mut config = Config::load(args.config.as_deref())?;
    if !args.jobs.is_empty() {
        config.workers.jobs = args.jobs;
    }
    if let Some(n) = args.concurrency {
        anyhow::ensure!(n >= 1, "--concurrency must be at least 1");
        config.jobs.set_concurrency(n);
    }
    let telemetry = telemetry::init(&config.log, &config.telemetry, "cosmo-workers")?;
    let result = async {
        let svc = Services::connect(config).await?;
        cosmo_workers::process::run(svc, telemetry::shutdown_signal()).await
    }
    .await;
    telemetry.shutdown().await;
    result
}
