//! `[log]`: how log lines are written and filtered; `[telemetry]`: optional export of
//! traces (request and job spans) to an OpenTelemetry collector over OTLP HTTP/protobuf,
//! off by default.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LogConfig {
    /// `auto` (human-readable on a terminal, JSON otherwise), `json` or `pretty`.
    pub format: LogFormat,
    /// An `EnvFilter` directive, e.g. `info,cosmo=debug`. `RUST_LOG` overrides it.
    pub level: String,
}

/// `log.format`: how log lines are written to standard error.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// `pretty` when standard error is a terminal, `json` otherwise.
    #[default]
    Auto,
    /// One JSON object per line.
    Json,
    /// Human-readable lines: timestamp, level, span, target, message and fields.
    Pretty,
}

impl LogFormat {
    /// Whether lines are human-readable rather than JSON, when the logs' stream is a
    /// terminal (`terminal`) or not: `auto` follows the stream, the others are fixed.
    pub fn human_readable(self, terminal: bool) -> bool {
        match self {
            LogFormat::Auto => terminal,
            LogFormat::Json => false,
            LogFormat::Pretty => true,
        }
    }
}

impl Default for LogConfig {
    fn default() -> Self {
        Self {
            format: LogFormat::Auto,
            level: "info".into(),
        }
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TelemetryConfig {
    /// The collector's OTLP/HTTP base URL, e.g. `http://collector:4318` (spans go to
    /// `<endpoint>/v1/traces`). Empty: no export, and no cost.
    pub otlp_endpoint: String,
    /// `service.name` of the exported spans; empty: the binary's own name (`cosmo`,
    /// `cosmo-ingest-api`, `cosmo-workers`, `cosmo-scheduler`).
    pub service_name: String,
}

impl TelemetryConfig {
    pub fn validate(&self) -> anyhow::Result<()> {
        let endpoint = self.otlp_endpoint.trim();
        anyhow::ensure!(
            endpoint.is_empty()
                || endpoint.starts_with("http://")
                || endpoint.starts_with("https://"),
            "telemetry.otlp_endpoint must be an http:// or https:// URL, e.g. http://collector:4318 (got {endpoint:?})"
        );
        Ok(())
    }

    /// Where spans are posted: the endpoint with `/v1/traces` (unless it names it).
    pub fn traces_url(&self) -> Option<String> {
        let endpoint = self.otlp_endpoint.trim().trim_end_matches('/');
        if endpoint.is_empty() {
            None
        } else if endpoint.ends_with("/v1/traces") {
            Some(endpoint.to_owned())
        } else {
            Some(format!("{endpoint}/v1/traces"))
        }
    }

    /// The configured service name, or `default`.
    pub fn service_name<'a>(&'a self, default: &'a str) -> &'a str {
        match self.service_name.trim() {
            "" => default,
            name => name,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(endpoint: &str) -> TelemetryConfig {
        TelemetryConfig {
            otlp_endpoint: endpoint.into(),
            service_name: String::new(),
        }
    }

    #[test]
    fn the_traces_path_is_added_once() {
        assert_eq!(with("").traces_url(), None);
        assert_eq!(
            with("http://collector:4318").traces_url().as_deref(),
            Some("http://collector:4318/v1/traces")
        );
        assert_eq!(
            with("http://collector:4318/").traces_url().as_deref(),
            Some("http://collector:4318/v1/traces")
        );
        assert_eq!(
            with("https://otel.example/v1/traces")
                .traces_url()
                .as_deref(),
            Some("https://otel.example/v1/traces")
        );
    }

    #[test]
    fn an_endpoint_without_a_scheme_is_refused() {
        let err = with("collector:4318").validate().unwrap_err().to_string();
        assert!(err.contains("telemetry.otlp_endpoint"), "{err}");
        assert!(with("").validate().is_ok());
    }

    #[test]
    fn the_service_name_defaults_to_the_binary() {
        assert_eq!(with("").service_name("cosmo-workers"), "cosmo-workers");
        let named = TelemetryConfig {
            service_name: "memory".into(),
            ..with("")
        };
        assert_eq!(named.service_name("cosmo-workers"), "memory");
    }
}
