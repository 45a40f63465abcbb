//! MCP clients for the tests: over stdio to a `cosmo mcp` child process, and over
//! streamable HTTP to an API's `/mcp`; and a tool call that returns what the tool said.

use std::path::Path;
use std::process::Stdio;

use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{RoleClient, ServiceError, ServiceExt};
use serde_json::Value;

pub type Client = RunningService<RoleClient, ()>;

/// `cosmo mcp` in `dir` with `env` (see [`crate::process::env`]), its stderr in
/// `dir/cosmo-mcp.log`. The child ends when the client is dropped.
pub async fn stdio(dir: &Path, env: &[(String, String)]) -> Client {
    let log = std::fs::File::create(dir.join("cosmo-mcp.log")).expect("log file");
    let mut cmd = tokio::process::Command::new(crate::process::bin("cosmo"));
    cmd.arg("mcp")
        .current_dir(dir)
        .env("RUST_LOG", "info")
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    let (transport, _) = TokioChildProcess::builder(cmd)
        .stderr(Stdio::from(log))
        .spawn()
        .expect("start cosmo mcp");
    ().serve(transport).await.unwrap_or_else(|e| {
        panic!(
            "MCP handshake with cosmo mcp: {e}; its log:\n{}",
            log_of(dir)
        )
    })
}

/// What `cosmo mcp` wrote to stderr.
pub fn log_of(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("cosmo-mcp.log")).unwrap_or_default()
}

/// A client of `{base}/mcp` presenting `key` (none: no `Authorization` header).
pub async fn http(base: &str, key: Option<&str>) -> Result<Client, String> {
    let mut config = StreamableHttpClientTransportConfig::with_uri(format!("{base}/mcp"));
    if let Some(key) = key {
        config = config.auth_header(key);
    }
    // rmcp builds its own reqwest client, which needs the TLS provider installed.
    cosmo_shared::http::install_tls();
    ().serve(StreamableHttpClientTransport::from_config(config))
        .await
        .map_err(|e| e.to_string())
}

/// Calls `tool` with `args` (a JSON object): whether the tool reported an error, and
/// its structured content.
pub async fn call(client: &Client, tool: &str, args: Value) -> (bool, Value) {
    let Value::Object(args) = args else {
        panic!("tool arguments are an object")
    };
    let result = client
        .call_tool(CallToolRequestParams::new(tool.to_owned()).with_arguments(args))
        .await
        .unwrap_or_else(|e: ServiceError| panic!("calling {tool}: {e}"));
    let is_error = result.is_error == Some(true);
    let content = result
        .structured_content
        .unwrap_or_else(|| panic!("{tool} answered without structured content"));
    (is_error, content)
}

/// Calls `tool` and expects success: its answer.
pub async fn ok(client: &Client, tool: &str, args: Value) -> Value {
    let (is_error, answer) = call(client, tool, args.clone()).await;
    assert!(!is_error, "{tool} {args}: {answer}");
    answer
}

/// Calls `tool` and expects a refusal: its error body's `error`.
pub async fn refused(client: &Client, tool: &str, args: Value) -> Value {
    let (is_error, answer) = call(client, tool, args.clone()).await;
    assert!(is_error, "{tool} {args} should be refused: {answer}");
    answer["error"].clone()
}
