//! The HTTP side of `cosmo import`: `POST /api/sources` with retries, and
//! `GET /api/sources/{key}` for `--follow`.
//!
//! 429, 5xx, timeouts and connection errors are retried with exponential backoff
//! (0.5 s doubling to 30 s, or the server's `Retry-After`), up to [`ATTEMPTS`] times.
//! A 503 that says the Source was stored (its queue was down) counts as accepted: the
//! reconciler processes it. 401 stops the whole import (every item would fail alike);
//! other 4xx answers refuse the item with the server's error.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::Value;

/// Tries per request before giving up.
pub const ATTEMPTS: u32 = 8;

#[derive(Debug, Clone)]
pub struct Client {
    http: reqwest::Client,
    base: String,
    key: Option<String>,
}

/// What Cosmo made of one item.
#[derive(Debug, Clone, PartialEq)]
pub enum Posted {
    Accepted { entity_key: String, duplicate: bool },
    Refused(String),
}

/// Stops the import: Cosmo unreachable, or the key refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct Fatal(pub String);

/// A Source's progress through the pipeline, as `--follow` sees it.
#[derive(Debug, Clone, PartialEq)]
pub enum Progress {
    Extracted,
    /// The owner's extraction failed for good, or the Source is gone.
    Failed(String),
    /// Still on its way; the last processing or extraction error, if any.
    Working(Option<String>),
}

impl Client {
    pub fn new(base: &str, key: Option<String>) -> anyhow::Result<Self> {
        let http = cosmo_shared::http::client_builder()
            .timeout(Duration::from_secs(120))
            .build()?;
        Ok(Self {
            http,
            base: base.trim_end_matches('/').to_owned(),
            key,
        })
    }

    /// Fails fast (three quick tries) when nothing answers at the URL.
    pub async fn check(&self) -> Result<(), Fatal> {
        let url = format!("{}/healthz", self.base);
        self.send(|| self.http.get(&url), 3).await.map(|_| ())
    }

    pub async fn post_source(&self, body: &Value) -> Result<Posted, Fatal> {
        let url = format!("{}/api/sources", self.base);
        let (status, answer) = self
            .send(|| self.http.post(&url).json(body), ATTEMPTS)
            .await?;
        match status {
            StatusCode::OK | StatusCode::ACCEPTED => match answer["entity_key"].as_str() {
                Some(key) => Ok(Posted::Accepted {
                    entity_key: key.to_owned(),
                    duplicate: answer["duplicate"] == true,
                }),
                None => Ok(Posted::Refused(format!(
                    "{status}: unexpected answer {answer}"
                ))),
            },
            StatusCode::SERVICE_UNAVAILABLE => {
                match answer["error"]["detail"]["entity_key"].as_str() {
                    // Stored; processed once the queue is back.
                    Some(key) => Ok(Posted::Accepted {
                        entity_key: key.to_owned(),
                        duplicate: false,
                    }),
                    None => Ok(Posted::Refused(error_text(status, &answer))),
                }
            }
            _ => Ok(Posted::Refused(error_text(status, &answer))),
        }
    }

    pub async fn source_progress(&self, key: &str) -> Result<Progress, Fatal> {
        let url = format!("{}/api/sources/{key}", self.base);
        let (status, view) = self.send(|| self.http.get(&url), ATTEMPTS).await?;
        if status == StatusCode::NOT_FOUND {
            return Ok(Progress::Failed("the source no longer exists".into()));
        }
        if !status.is_success() {
            return Ok(Progress::Working(Some(error_text(status, &view))));
        }
        if view["status"] == "extracted" {
            return Ok(Progress::Extracted);
        }
        let owner = view["user_id"].as_str().unwrap_or_default();
        let extraction = view["extractions"]
            .as_array()
            .and_then(|all| all.iter().find(|e| e["user_id"] == owner));
        if let Some(e) = extraction
            && e["status"] == "failed"
        {
            let error = e["error"].as_str().unwrap_or("no error recorded");
            return Ok(Progress::Failed(format!("extraction failed: {error}")));
        }
        let error = view["processing_error"]
            .as_str()
            .or_else(|| extraction.and_then(|e| e["error"].as_str()));
        Ok(Progress::Working(error.map(str::to_owned)))
    }

    /// Sends with the API key, retrying what is worth retrying. Returns the final status
    /// and JSON answer (`Null` if not JSON); 401 and exhausted connection errors are
    /// fatal.
    async fn send(
        &self,
        request: impl Fn() -> reqwest::RequestBuilder,
        attempts: u32,
    ) -> Result<(StatusCode, Value), Fatal> {
        let mut delay = Duration::from_millis(500);
        for attempt in 1..=attempts {
            let mut req = request();
            if let Some(key) = &self.key {
                req = req.bearer_auth(key);
            }
            let last = attempt == attempts;
            match req.send().await {
                Ok(resp) => {
                    let status = resp.status();
                    let retry_after = resp
                        .headers()
                        .get(reqwest::header::RETRY_AFTER)
                        .and_then(|v| v.to_str().ok())
                        .and_then(|v| v.parse::<u64>().ok())
                        .map(Duration::from_secs);
                    let bytes = resp.bytes().await.unwrap_or_default();
                    let answer = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
                    if status == StatusCode::UNAUTHORIZED {
                        return Err(Fatal(format!(
                            "Cosmo refused the API key ({}); pass --api-key or set COSMO_API_KEY",
                            error_text(status, &answer)
                        )));
                    }
                    // A 503 that stored the Source is an answer, not a hiccup.
                    let stored = answer["error"]["detail"]["entity_key"].is_string();
                    let retry = status == StatusCode::TOO_MANY_REQUESTS
                        || (status.is_server_error() && !stored);
                    if !retry || last {
                        return Ok((status, answer));
                    }
                    tokio::time::sleep(retry_after.unwrap_or(delay).min(Duration::from_secs(60)))
                        .await;
                }
                Err(e) if last => {
                    return Err(Fatal(format!(
                        "cannot reach Cosmo at {} after {attempts} tries: {e}",
                        self.base
                    )));
                }
                Err(_) => tokio::time::sleep(delay).await,
            }
            delay = (delay * 2).min(Duration::from_secs(30));
        }
        unreachable!("the last attempt returns")
    }
}

/// `422 validation_failed: raw_content.body: is required`, from Cosmo's error shape.
fn error_text(status: StatusCode, answer: &Value) -> String {
    let e = &answer["error"];
    match (e["code"].as_str(), e["message"].as_str()) {
        (Some(code), Some(message)) => format!("{} {code}: {message}", status.as_u16()),
        _ => format!("{status}"),
    }
}
