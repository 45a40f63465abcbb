//! `/healthz` (the process is up) and `/readyz` (the graph store and the queue answer).

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::AppState;

pub async fn healthz() -> Json<Value> {
    Json(json!({ "status": "ok" }))
}

pub async fn readyz(State(app): State<AppState>) -> (StatusCode, Json<Value>) {
    let graph = app.svc.graph.ping().await.map_err(|e| e.to_string());
    let queue = app.svc.queue.ping().await.map_err(|e| e.to_string());
    let check = |r: &Result<(), String>| match r {
        Ok(()) => json!({ "status": "ok" }),
        Err(e) => json!({ "status": "down", "error": e }),
    };
    let ready = graph.is_ok() && queue.is_ok();
    let body = json!({
        "status": if ready { "ready" } else { "not_ready" },
        "graph": { "backend": app.svc.graph.backend(), "check": check(&graph) },
        "queue": { "backend": app.svc.queue.backend(), "check": check(&queue) },
    });
    (
        if ready {
            StatusCode::OK
        } else {
            StatusCode::SERVICE_UNAVAILABLE
        },
        Json(body),
    )
}
