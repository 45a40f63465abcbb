//! An in-process HTTP server standing in for an OpenTelemetry collector: it accepts
//! OTLP/HTTP protobuf trace exports on `POST /v1/traces`, keeps the bodies, and decodes
//! the spans in them (a small protobuf reader for the few fields tests look at, so the
//! suite needs no generated OTLP types).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::routing::post;

/// One exported request as the collector saw it.
#[derive(Debug, Clone)]
pub struct Export {
    pub content_type: Option<String>,
    pub body: Vec<u8>,
}

/// A span out of an export, with its resource's `service.name`.
#[derive(Debug, Clone, PartialEq)]
pub struct Span {
    pub service: String,
    pub trace_id: Vec<u8>,
    pub span_id: Vec<u8>,
    /// Empty for a root span.
    pub parent_span_id: Vec<u8>,
    pub name: String,
    /// OTLP `SpanKind`: 2 server, 5 consumer.
    pub kind: u64,
    /// String, integer and boolean attributes, as text.
    pub attributes: BTreeMap<String, String>,
}

/// A running stand-in collector; stops with the test's runtime.
#[derive(Clone)]
pub struct Collector {
    /// What to put in `telemetry.otlp_endpoint`.
    pub endpoint: String,
    exports: Arc<Mutex<Vec<Export>>>,
}

impl Collector {
    pub async fn start() -> Self {
        let exports = Arc::new(Mutex::new(Vec::new()));
        let app = axum::Router::new()
            .route("/v1/traces", post(receive))
            .with_state(exports.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let endpoint = format!("http://{}", listener.local_addr().expect("addr"));
        tokio::spawn(async move { axum::serve(listener, app).await });
        Self { endpoint, exports }
    }

    pub fn exports(&self) -> Vec<Export> {
        self.exports.lock().unwrap().clone()
    }

    /// Every span of every export so far.
    pub fn spans(&self) -> Vec<Span> {
        self.exports()
            .iter()
            .flat_map(|e| decode_export(&e.body).expect("a valid OTLP protobuf export"))
            .collect()
    }
}

async fn receive(
    State(exports): State<Arc<Mutex<Vec<Export>>>>,
    headers: HeaderMap,
    body: Bytes,
) -> (StatusCode, [(header::HeaderName, &'static str); 1]) {
    exports.lock().unwrap().push(Export {
        content_type: headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned),
        body: body.to_vec(),
    });
    // An empty `ExportTraceServiceResponse`: everything accepted.
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "application/x-protobuf")],
    )
}

/// A protobuf field: its number and its value (varint, or the bytes of a
/// length-delimited or fixed-width field).
enum Field<'a> {
    Varint(u64),
    Bytes(&'a [u8]),
}

fn varint(buf: &mut &[u8]) -> Option<u64> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let (&byte, rest) = buf.split_first()?;
        *buf = rest;
        value |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Some(value);
        }
    }
    None
}

/// The fields of one message, in order.
fn fields(mut buf: &[u8]) -> Option<Vec<(u64, Field<'_>)>> {
    let mut out = Vec::new();
    while !buf.is_empty() {
        let key = varint(&mut buf)?;
        let field = match key & 7 {
            0 => Field::Varint(varint(&mut buf)?),
            wire @ (1 | 2 | 5) => {
                let len = match wire {
                    1 => 8,
                    5 => 4,
                    _ => usize::try_from(varint(&mut buf)?).ok()?,
                };
                let (value, rest) = buf.split_at_checked(len)?;
                buf = rest;
                Field::Bytes(value)
            }
            _ => return None,
        };
        out.push((key >> 3, field));
    }
    Some(out)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `KeyValue` → (key, value as text).
fn key_value(buf: &[u8]) -> Option<(String, String)> {
    let (mut key, mut value) = (String::new(), String::new());
    for (n, f) in fields(buf)? {
        match (n, f) {
            (1, Field::Bytes(b)) => key = text(b),
            (2, Field::Bytes(any)) => {
                for (n, f) in fields(any)? {
                    value = match (n, f) {
                        (1, Field::Bytes(s)) => text(s),
                        (2, Field::Varint(b)) => (b != 0).to_string(),
                        (3, Field::Varint(i)) => (i as i64).to_string(),
                        _ => continue,
                    };
                }
            }
            _ => {}
        }
    }
    Some((key, value))
}

/// The spans of an `ExportTraceServiceRequest`.
pub fn decode_export(body: &[u8]) -> Option<Vec<Span>> {
    let mut spans = Vec::new();
    for (n, f) in fields(body)? {
        let (1, Field::Bytes(resource_spans)) = (n, f) else {
            continue;
        };
        let mut service = String::new();
        let mut scope_spans = Vec::new();
        for (n, f) in fields(resource_spans)? {
            match (n, f) {
                (1, Field::Bytes(resource)) => {
                    for (n, f) in fields(resource)? {
                        if let (1, Field::Bytes(kv)) = (n, f)
                            && let Some((k, v)) = key_value(kv)
                            && k == "service.name"
                        {
                            service = v;
                        }
                    }
                }
                (2, Field::Bytes(scope)) => scope_spans.push(scope),
                _ => {}
            }
        }
        for scope in scope_spans {
            for (n, f) in fields(scope)? {
                if let (2, Field::Bytes(span)) = (n, f) {
                    spans.push(decode_span(span, &service)?);
                }
            }
        }
    }
    Some(spans)
}

fn decode_span(buf: &[u8], service: &str) -> Option<Span> {
    let mut span = Span {
        service: service.to_owned(),
        trace_id: Vec::new(),
        span_id: Vec::new(),
        parent_span_id: Vec::new(),
        name: String::new(),
        kind: 0,
        attributes: BTreeMap::new(),
    };
    for (n, f) in fields(buf)? {
        match (n, f) {
            (1, Field::Bytes(b)) => span.trace_id = b.to_vec(),
            (2, Field::Bytes(b)) => span.span_id = b.to_vec(),
            (4, Field::Bytes(b)) => span.parent_span_id = b.to_vec(),
            (5, Field::Bytes(b)) => span.name = text(b),
            (6, Field::Varint(k)) => span.kind = k,
            (9, Field::Bytes(kv)) => {
                let (k, v) = key_value(kv)?;
                span.attributes.insert(k, v);
            }
            _ => {}
        }
    }
    Some(span)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Length-delimited field `n` holding `body`.
    fn ld(n: u64, body: &[u8]) -> Vec<u8> {
        let mut out = vec![(n << 3 | 2) as u8, body.len() as u8];
        out.extend_from_slice(body);
        out
    }

    #[test]
    fn a_hand_encoded_export_decodes() {
        let attr = [ld(1, b"request_id"), ld(2, &ld(1, b"req-1"))].concat();
        let service = [ld(1, b"service.name"), ld(2, &ld(1, b"cosmo"))].concat();
        let span = [
            ld(1, &[7; 16]),
            ld(2, &[8; 8]),
            ld(5, b"POST /api/sources"),
            vec![6 << 3, 2],
            ld(9, &attr),
        ]
        .concat();
        let body = ld(1, &[ld(1, &ld(1, &service)), ld(2, &ld(2, &span))].concat());
        let spans = decode_export(&body).unwrap();
        assert_eq!(spans.len(), 1);
        assert_eq!(spans[0].service, "cosmo");
        assert_eq!(spans[0].name, "POST /api/sources");
        assert_eq!(spans[0].kind, 2);
        assert_eq!(spans[0].trace_id, vec![7; 16]);
        assert!(spans[0].parent_span_id.is_empty());
        assert_eq!(spans[0].attributes["request_id"], "req-1");
    }
}
