//! A small JSON client for the API under test.

use reqwest::{Method, StatusCode};
use serde_json::Value;

/// Serves the whole API for `svc` in this process on a free loopback port, until the
/// test ends; returns its base URL.
pub async fn serve(svc: &cosmo_shared::services::Services) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(cosmo_api::serve(
        svc.clone(),
        listener,
        std::future::pending(),
    ));
    base
}

#[derive(Debug, Clone)]
pub struct Api {
    pub base: String,
    pub key: Option<String>,
    client: reqwest::Client,
}

impl Api {
    pub fn new(base: impl Into<String>, key: Option<&str>) -> Self {
        Self {
            base: base.into(),
            key: key.map(str::to_owned),
            client: cosmo_shared::http::client(),
        }
    }

    pub fn with_key(&self, key: Option<&str>) -> Self {
        Self {
            key: key.map(str::to_owned),
            ..self.clone()
        }
    }

    /// Sends a request with a raw body; returns the status and the JSON answer
    /// (`Value::Null` if the answer is not JSON).
    pub async fn send(
        &self,
        method: Method,
        path: &str,
        body: Option<Vec<u8>>,
        headers: &[(&str, &str)],
    ) -> (StatusCode, Value) {
        let mut req = self.client.request(method, format!("{}{path}", self.base));
        if let Some(key) = &self.key {
            req = req.bearer_auth(key);
        }
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        if let Some(body) = body {
            req = req.header("content-type", "application/json").body(body);
        }
        let resp = req.send().await.unwrap_or_else(|e| panic!("{path}: {e}"));
        let status = resp.status();
        let bytes = resp.bytes().await.unwrap_or_default();
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    }

    pub async fn post(&self, path: &str, body: &Value) -> (StatusCode, Value) {
        self.send(Method::POST, path, Some(body.to_string().into_bytes()), &[])
            .await
    }

    pub async fn put(&self, path: &str, body: &Value) -> (StatusCode, Value) {
        self.send(Method::PUT, path, Some(body.to_string().into_bytes()), &[])
            .await
    }

    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        self.send(Method::GET, path, None, &[]).await
    }

    /// Posts a Source and returns its entity key (asserting 202).
    pub async fn post_source(&self, body: &Value) -> String {
        let (status, answer) = self.post("/api/sources", body).await;
        assert_eq!(status, StatusCode::ACCEPTED, "{answer}");
        answer["entity_key"]
            .as_str()
            .expect("entity_key")
            .to_owned()
    }

    /// Polls `GET /api/sources/{key}` until the status is `extracted`.
    pub async fn wait_extracted(&self, key: &str) -> Value {
        crate::wait_for(
            &format!("source {key} extracted"),
            std::time::Duration::from_secs(60),
            || async {
                let (status, body) = self.get(&format!("/api/sources/{key}")).await;
                (status == StatusCode::OK && body["status"] == "extracted").then_some(body)
            },
        )
        .await
    }
}
