//! # cosmo-telemetry
//!
//! What Cosmo's processes tell their operators: logs, traces ([`init`]) and Prometheus
//! metrics ([`metrics`]), every model call counted ([`counted`]), a failure that repeats
//! logged once a while ([`repeats`]), and the `[log]` and `[telemetry]` settings
//! ([`config`]).
//!
//! Logs and traces. Logs go to standard error: human-readable lines when it is a
//! terminal, one JSON object per line otherwise (`log.format`: `auto`, `json` or
//! `pretty` fixes either), filtered by `log.level` or `RUST_LOG`. Handler and job spans
//! carry the request id, so every line a job writes names the API request that caused it.
//!
//! Traces (optional, `telemetry.otlp_endpoint`): Cosmo's spans (`cosmo*` targets: the
//! API's request spans, the workers' job spans) are exported over OTLP HTTP/protobuf by
//! a batch exporter on the tokio runtime. A job's envelope carries the W3C
//! `traceparent` of the span that enqueued it, so its span is a child of the request
//! (or of the job) that caused it.

pub mod config;
pub mod counted;
pub mod metrics;
pub mod repeats;

use std::collections::HashMap;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};

use opentelemetry::propagation::TextMapPropagator;
use opentelemetry::trace::{TraceContextExt, TracerProvider};
use opentelemetry_otlp::{WithExportConfig, WithHttpConfig};
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::SdkTracerProvider;
use opentelemetry_sdk::trace::span_processor_with_async_runtime::BatchSpanProcessor;
use tracing_opentelemetry::OpenTelemetrySpanExt;
use tracing_subscriber::EnvFilter;
use tracing_subscriber::layer::{Layer, SubscriberExt};
use tracing_subscriber::util::SubscriberInitExt;

use crate::config::{LogConfig, TelemetryConfig};

/// Keeps the trace exporter alive; [`Telemetry::shutdown`] sends the spans still
/// buffered. Without an OTLP endpoint it holds nothing.
#[derive(Debug, Default)]
#[must_use = "call `shutdown` before the process exits, or buffered spans are lost"]
pub struct Telemetry {
    provider: Option<SdkTracerProvider>,
}

impl Telemetry {
    /// Whether spans are exported.
    pub fn exporting(&self) -> bool {
        self.provider.is_some()
    }

    /// Flushes buffered spans to the collector and stops the exporter.
    pub async fn shutdown(self) {
        let Some(provider) = self.provider else {
            return;
        };
        // The SDK waits for its export task on this thread: off the runtime's workers.
        let done = tokio::task::spawn_blocking(move || provider.shutdown()).await;
        if let Ok(Err(e)) = done {
            eprintln!("exporting the last spans failed: {e}");
        }
    }
}

/// Installs the global subscriber: logs per `log` and, when
/// `telemetry.otlp_endpoint` is set, trace export as `telemetry.service_name` (default
/// `service`, the binary's name). Must run inside the tokio runtime. Later calls change
/// nothing and return an empty guard (tests start many apps in one process).
pub fn init(
    log: &LogConfig,
    telemetry: &TelemetryConfig,
    service: &str,
) -> anyhow::Result<Telemetry> {
    if tracing::dispatcher::has_been_set() {
        return Ok(Telemetry::default());
    }
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(&log.level));
    // Logs are written to stderr, so its being a terminal decides (not stdout's, which
    // `cosmo mcp` speaks its protocol on). Colours only on a terminal, too.
    let terminal = std::io::stderr().is_terminal();
    let (pretty, json) = if log.format.human_readable(terminal) {
        let layer = tracing_subscriber::fmt::layer()
            .with_ansi(terminal)
            .with_writer(std::io::stderr);
        (Some(layer), None)
    } else {
        let layer = tracing_subscriber::fmt::layer()
            .with_writer(std::io::stderr)
            .json()
            .flatten_event(true)
            .with_current_span(true)
            .with_span_list(false);
        (None, Some(layer))
    };
    let provider = match telemetry.traces_url() {
        Some(url) => Some(tracer_provider(&url, telemetry.service_name(service))?),
        None => None,
    };
    let traces = provider.as_ref().map(|p| {
        tracing_opentelemetry::layer()
            .with_tracer(p.tracer("cosmo"))
            // Only Cosmo's own spans: the exporter's HTTP client must not trace itself.
            .with_filter(tracing_subscriber::filter::filter_fn(|meta| {
                meta.target().starts_with("cosmo")
            }))
    });
    let installed = tracing_subscriber::registry()
        .with(filter)
        .with(pretty)
        .with(json)
        .with(traces)
        .try_init()
        .is_ok();
    if !installed {
        // Lost a race with another `init`: stop this exporter without blocking here.
        if let Some(p) = provider {
            std::thread::spawn(move || p.shutdown());
        }
        return Ok(Telemetry::default());
    }
    EXPORTING.store(provider.is_some(), Ordering::Relaxed);
    if let Some(url) = telemetry.traces_url() {
        tracing::info!(%url, service = telemetry.service_name(service), "exporting traces over OTLP");
    }
    Ok(Telemetry { provider })
}

fn tracer_provider(url: &str, service: &str) -> anyhow::Result<SdkTracerProvider> {
    let client = cosmo_models::http::client_builder()
        .timeout(std::time::Duration::from_secs(10))
        .build()?;
    let exporter = opentelemetry_otlp::SpanExporter::builder()
        .with_http()
        .with_http_client(client)
        .with_protocol(opentelemetry_otlp::Protocol::HttpBinary)
        .with_endpoint(url)
        .build()
        .map_err(|e| anyhow::anyhow!("telemetry.otlp_endpoint: {e}"))?;
    let batch = BatchSpanProcessor::builder(exporter, opentelemetry_sdk::runtime::Tokio).build();
    Ok(SdkTracerProvider::builder()
        .with_span_processor(batch)
        .with_resource(
            opentelemetry_sdk::Resource::builder()
                .with_service_name(service.to_owned())
                .build(),
        )
        .build())
}

/// Whether this process exports traces (set once by [`init`]).
static EXPORTING: AtomicBool = AtomicBool::new(false);

/// Names `span` in exported traces (`otel.name`, `otel.kind`: `server`, `consumer`…),
/// when traces are exported; logs don't show these fields otherwise. The span must
/// declare both fields (`tracing::field::Empty`) and not be entered yet.
pub fn name_span(span: &tracing::Span, name: impl FnOnce() -> String, kind: &'static str) {
    if EXPORTING.load(Ordering::Relaxed) {
        span.record("otel.name", name());
        span.record("otel.kind", kind);
    }
}

/// The W3C `traceparent` of the current span, if traces are exported (for a job's
/// envelope: the job's span becomes its child).
pub fn current_traceparent() -> Option<String> {
    if !EXPORTING.load(Ordering::Relaxed) {
        return None;
    }
    let cx = tracing::Span::current().context();
    if !cx.span().span_context().is_valid() {
        return None;
    }
    let mut carrier = HashMap::new();
    TraceContextPropagator::new().inject_context(&cx, &mut carrier);
    carrier.remove("traceparent")
}

/// Makes `span` a child of the span a `traceparent` names. Without one, or without
/// trace export, nothing changes.
pub fn set_parent(span: &tracing::Span, traceparent: Option<&str>) {
    let Some(traceparent) = traceparent else {
        return;
    };
    let carrier = HashMap::from([("traceparent".to_owned(), traceparent.to_owned())]);
    let cx = TraceContextPropagator::new()
        .extract_with_context(&opentelemetry::Context::new(), &carrier);
    if cx.span().span_context().is_valid() {
        let _ = span.set_parent(cx);
    }
}

/// Resolves on SIGINT (Ctrl-C) or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
    tracing::info!("shutdown signal received");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_export_no_trace_context_is_taken() {
        let span = tracing::info_span!("request");
        let _entered = span.enter();
        assert_eq!(current_traceparent(), None);
    }
}
