//! The `scheduler` process: fires periodic jobs into the queue.

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
    about = "Cosmo scheduler: fires the periodic jobs into the queue"
)]
struct Args {
    /// Configuration file (TOML); `COSMO_…` variables override it.
    #[arg(long, env = "COSMO_CONFIG")]
    config: Option<PathBuf>,
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = Args::parse();
    exit::report(start(args).await)
}

async fn start(args: Args) -> anyhow::Result<()> {
    let config = Config::load(args.config.as_deref())?;
    let telemetry = telemetry::init(&config.log, &config.telemetry, "cosmo-scheduler")?;
    let result = async {
        let svc = Services::connect(config).await?;
        cosmo_scheduler::run(svc, telemetry::shutdown_signal()).await
    }
    .await;
    telemetry.shutdown().await;
    result
}
