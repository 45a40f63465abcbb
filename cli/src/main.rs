//! `cosmo`: the embedded default in one process (`cosmo serve`), and operator commands.

use std::path::PathBuf;
use std::process::ExitCode;

use chrono::{DateTime, Utc};
use clap::{Parser, Subcommand};
use cosmo_api::bootstrap::{Bootstrap, ensure_api_key};
use cosmo_shared::config::Config;
use cosmo_shared::exit;
use cosmo_shared::queue::JobKind;
use cosmo_shared::services::Services;
use cosmo_shared::telemetry;
use tokio::sync::watch;

#[derive(Debug, Parser)]
#[command(version, about = "Cosmo: long-term memory for AI assistants")]
struct Cli {
    /// Configuration file (TOML); `COSMO_…` variables override it.
    #[arg(long, global = true, env = "COSMO_CONFIG")]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the API, the workers and the scheduler in this process (the embedded default:
    /// one SQLite file, the offline model, nothing to install).
    Serve,
    /// Create or update every table, index and queue schema, then exit.
    Migrate,
    /// Manage API keys.
    #[command(subcommand)]
    Keys(KeysCommand),
    /// Inspect and retry the job queue (on the configured database).
    #[command(subcommand)]
    Jobs(cosmo_cli::jobs::JobsCommand),
    /// Bulk-load Sources from a JSONL file or a folder into a running Cosmo over HTTP
    /// (resumable; see docs/operations.md).
    Import(cosmo_cli::import::ImportArgs),
    /// Serve MCP (Model Context Protocol) on stdin/stdout for an agent, acting for the
    /// tenant of an API key, on the configured stores (see docs/mcp.md). Logs go to
    /// stderr.
    Mcp {
        /// The API key whose tenant the agent acts for.
        #[arg(long, env = "COSMO_API_KEY", hide_env_values = true)]
        api_key: String,
    },
    /// Run a job now, in this process, and print what it did: a periodic job (back-fills:
    /// `--as-of` in the past; tests: in the future), or one Source's processing or a
    /// user's extraction of it.
    RunJob {
        /// decay, promote-storylines, refresh-storylines, promote-macros, refresh-macros,
        /// consolidate-descriptions, cleanup-notes, consolidate-episodic,
        /// infer-causal-links, reconcile; process-source (with --source),
        /// extract-entities (with --source and --user).
        kind: String,
        /// The job's "now" (RFC 3339); default: the clock.
        #[arg(long)]
        as_of: Option<String>,
        /// Only `decay`, `consolidate-episodic` and `cleanup-notes`: print what the run
        /// would do (its counts; for the first two, up to 100 of the memories it would
        /// archive), writing nothing.
        #[arg(long)]
        dry_run: bool,
        /// process-source and extract-entities: the Source's entity key.
        #[arg(long)]
        source: Option<String>,
        /// extract-entities: whose extraction, as the graph knows the user (their user
        /// id, or `<tenant>/<user id>` when another tenant had the id first; as
        /// `cosmo jobs list` shows it).
        #[arg(long)]
        user: Option<String>,
    },
}

#[derive(Debug, Subcommand)]
enum KeysCommand {
    /// Create a key for a tenant (created if new) and print it once.
    Create {
        #[arg(long)]
        tenant: String,
        #[arg(long, default_value = "cli")]
        label: String,
        /// An admin key also reaches operator endpoints (usage of every tenant, jobs).
        #[arg(long)]
        admin: bool,
    },
    /// List keys (never the keys themselves).
    List,
    /// Revoke a key by its id.
    Revoke { key_id: String },
}

#[tokio::main]
async fn main() -> ExitCode {
    let cli = Cli::parse();
    exit::report(start(cli).await)
}

async fn start(cli: Cli) -> anyhow::Result<()> {
    let config = Config::load(cli.config.as_deref())?;
    let telemetry = telemetry::init(&config.log, &config.telemetry, "cosmo")?;
    let result = run(cli.command, config).await;
    // Sends the spans still buffered (a no-op without `telemetry.otlp_endpoint`).
    telemetry.shutdown().await;
    result
}

async fn run(command: Command, config: Config) -> anyhow::Result<()> {
    let svc = match command {
        // Over HTTP: touches no database.
        Command::Import(args) => return cosmo_cli::import::run(args).await,
        _ => Services::connect(config).await?,
    };
    match command {
        Command::Serve => serve(svc).await,
        Command::Migrate => {
            println!(
                "migrations applied ({} queue, {} graph)",
                svc.queue.backend(),
                svc.graph.backend()
            );
            Ok(())
        }
        Command::Keys(cmd) => keys(&svc, cmd).await,
        Command::Jobs(cmd) => cosmo_cli::jobs::run(&svc, cmd).await,
        Command::Import(_) => unreachable!("handled above"),
        Command::Mcp { api_key } => {
            // A configured bootstrap key works here too, as with `ingest-api`.
            ensure_api_key(&svc, false).await?;
            cosmo_api::mcp::serve_stdio(svc, &api_key).await
        }
        Command::RunJob {
            kind,
            as_of,
            dry_run,
            source,
            user,
        } => {
            let kind: JobKind = kind.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
            match source {
                Some(key) => {
                    anyhow::ensure!(
                        as_of.is_none() && !dry_run,
                        "--as-of and --dry-run are for periodic jobs, not {kind}"
                    );
                    let done = cosmo_cli::run_source::run(svc, kind, &key, user.as_deref()).await?;
                    println!("{}", serde_json::to_string_pretty(&done)?);
                    Ok(())
                }
                None => {
                    anyhow::ensure!(user.is_none(), "--user goes with --source");
                    run_job(svc, kind, as_of.as_deref(), dry_run).await
                }
            }
        }
    }
}

async fn serve(svc: Services) -> anyhow::Result<()> {
    // Refuse a bad schedule now rather than run without a scheduler.
    cosmo_scheduler::schedules(&svc)?;
    if let Bootstrap::Created(key) = ensure_api_key(&svc, true).await? {
        let tenant = &svc.config.auth.bootstrap_tenant;
        println!(
            "\nCosmo created an API key for tenant \"{tenant}\". It is shown only this once:\n"
        );
        println!("    {key}\n");
        println!(
            "Send it as `Authorization: Bearer <key>`. More keys: `cosmo keys create --tenant <name>`.\n"
        );
    }
    let listener = tokio::net::TcpListener::bind(&svc.config.server.bind).await?;
    let addr = listener.local_addr()?;
    println!(
        "Cosmo is listening on http://{addr} (graph: {}, queue: {})",
        svc.graph.backend(),
        svc.queue.backend()
    );
    tracing::info!(%addr, "cosmo serve: API, workers and scheduler in one process");

    // One signal stops all three parts; each drains in its own way.
    let (stop_tx, stop_rx) = watch::channel(false);
    let stopped = move || {
        let mut rx = stop_rx.clone();
        async move {
            let _ = rx.wait_for(|stop| *stop).await;
        }
    };
    let mut parts = tokio::task::JoinSet::new();
    parts.spawn(named(
        "api",
        cosmo_api::serve(svc.clone(), listener, stopped()),
    ));
    parts.spawn(named(
        "workers",
        cosmo_workers::process::run(svc.clone(), stopped()),
    ));
    parts.spawn(named(
        "scheduler",
        cosmo_scheduler::run(svc.clone(), stopped()),
    ));
    // Runs until a signal, or until one part stops on its own (then everything stops:
    // a Cosmo without its workers or scheduler would accept work it never does).
    let early = tokio::select! {
        () = telemetry::shutdown_signal() => None,
        Some(done) = parts.join_next() => Some(done),
    };
    let _ = stop_tx.send(true);
    let mut failure = early.and_then(|done| report(done, true));
    while let Some(done) = parts.join_next().await {
        failure = report(done, false).or(failure);
    }
    if let Some(e) = failure {
        return Err(e);
    }
    Ok(())
}

async fn run_job(
    svc: Services,
    kind: JobKind,
    as_of: Option<&str>,
    dry_run: bool,
) -> anyhow::Result<()> {
    anyhow::ensure!(
        kind.is_maintenance() || kind == JobKind::Reconcile,
        "{kind} runs for one Source: give it with --source (and --user for extract-entities)"
    );
    let as_of = match as_of {
        Some(t) => DateTime::parse_from_rfc3339(t)
            .map_err(|_| {
                anyhow::anyhow!("--as-of must be an RFC 3339 timestamp, e.g. 2027-03-01T00:00:00Z")
            })?
            .with_timezone(&Utc),
        None => svc.clock.now(),
    };
    if dry_run {
        use cosmo_pipeline::maintenance::{DRY_RUN_LISTED, dry_run, no_dry_run};
        let preview = dry_run(&svc, kind, as_of, DRY_RUN_LISTED)
            .await?
            .ok_or_else(|| anyhow::anyhow!(no_dry_run(kind)))?;
        println!("{}", serde_json::to_string_pretty(&preview)?);
        return Ok(());
    }
    let run = cosmo_workers::dispatch::Dispatcher::new(svc)
        .run_periodic(kind, as_of, None)
        .await
        .map_err(|e| anyhow::anyhow!("{kind} failed: {}", e.message))?;
    println!("{}", serde_json::to_string_pretty(&run)?);
    Ok(())
}

/// Tags a part's result with its name.
async fn named(
    name: &'static str,
    part: impl std::future::Future<Output = anyhow::Result<()>>,
) -> (&'static str, anyhow::Result<()>) {
    (name, part.await)
}

/// Logs how a part ended; an early or failed end is an error for the whole process.
fn report(
    done: Result<(&'static str, anyhow::Result<()>), tokio::task::JoinError>,
    early: bool,
) -> Option<anyhow::Error> {
    match done {
        Ok((name, Ok(()))) if early => Some(anyhow::anyhow!("{name} stopped unexpectedly")),
        Ok((_, Ok(()))) => None,
        Ok((name, Err(e))) => Some(e.context(format!("{name} failed"))),
        Err(e) => Some(anyhow::anyhow!("a part of cosmo serve panicked: {e}")),
    }
}

async fn keys(svc: &Services, cmd: KeysCommand) -> anyhow::Result<()> {
    let now = svc.clock.now();
    match cmd {
        KeysCommand::Create {
            tenant,
            label,
            admin,
        } => {
            let (key, info) = svc
                .directory
                .create_api_key(&tenant, &label, admin, now)
                .await?;
            println!("{key}");
            eprintln!(
                "created key {} for tenant {} (shown once)",
                info.key_id, info.tenant_id
            );
        }
        KeysCommand::List => {
            for k in svc.directory.api_keys().await? {
                let state = if k.revoked_at.is_some() {
                    "revoked"
                } else {
                    "active"
                };
                let scope = if k.is_admin { "admin" } else { "tenant" };
                println!(
                    "{}\t{}\t{}…\t{}\t{}\t{state}\t{scope}",
                    k.key_id, k.tenant_id, k.prefix, k.label, k.created_at
                );
            }
        }
        KeysCommand::Revoke { key_id } => {
            anyhow::ensure!(
                svc.directory.revoke_api_key(&key_id, now).await?,
                "no active key with id {key_id}"
            );
            println!("revoked {key_id}");
        }
    }
    Ok(())
}
