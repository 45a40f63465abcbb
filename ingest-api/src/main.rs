//! The `ingest-api` process: the HTTP API on its own (production). Workers and the
//! scheduler run as separate processes.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use cosmo_api::bootstrap::{Bootstrap, ensure_api_key};
use cosmo_shared::config::Config;
use cosmo_shared::exit;
use cosmo_shared::services::Services;
use cosmo_shared::telemetry;

#[derive(Debug, Parser)]
#[command(version, about = "Cosmo ingest API")]
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
    let telemetry = telemetry::init(&config.log, &config.telemetry, "cosmo-ingest-api")?;
    let result = run(config).await;
    telemetry.shutdown().await;
    result
}

async fn run(config: Config) -> anyhow::Result<()> {
    let svc = Services::connect(config).await?;
    if ensure_api_key(&svc, false).await? == Bootstrap::Existing
        && svc.directory.api_keys().await?.is_empty()
    {
        tracing::warn!(
            "no API keys exist: set auth.bootstrap_key or run `cosmo keys create --tenant <name>`"
        );
    }
    let listener = tokio::net::TcpListener::bind(&svc.config.server.bind).await?;
    tracing::info!(addr = %listener.local_addr()?, "ingest API listening");
    cosmo_api::serve(svc, listener, telemetry::shutdown_signal()).await
}
