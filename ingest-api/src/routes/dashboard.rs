//! The job dashboard: one server-rendered page at `GET /admin/jobs` (no JavaScript, no
//! external assets) with the jobs per kind and state, the failed jobs and their errors,
//! and retry buttons (plain form posts to `POST /admin/jobs/{job_id}/retry` and
//! `POST /admin/jobs/retry`, which redirect back). It refreshes itself every 10 s.
//!
//! Browsers authenticate with HTTP Basic, the admin API key as the password (the
//! browser prompts, since a 401 carries `WWW-Authenticate: Basic`); `Authorization:
//! Bearer <key>` works too. Form posts from another site are refused (`Origin`).

use std::fmt::Write as _;

use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use chrono::{DateTime, Utc};
use cosmo_shared::directory::Use;
use cosmo_shared::queue::{JobCounts, JobFilter, JobRecord, JobState};
use serde::Deserialize;

use crate::AppState;
use crate::error::ApiError;
use crate::extract::Path;

/// The page refreshes itself this often.
const REFRESH_SECS: u32 = 10;
/// Failed jobs shown per state.
const SHOWN: usize = 100;

#[derive(Debug, Default, Deserialize)]
pub struct PageParams {
    /// Set by the retry redirect: the job just retried.
    pub retried: Option<String>,
    /// Set by the retry-all redirect: how many dead jobs were retried.
    pub retried_dead: Option<u64>,
}

/// `GET /admin/jobs`: the dashboard.
pub async fn page(
    State(app): State<AppState>,
    headers: HeaderMap,
    params: Result<Query<PageParams>, axum::extract::rejection::QueryRejection>,
) -> Response {
    harden(show(app, headers, params).await)
}

async fn show(
    app: AppState,
    headers: HeaderMap,
    params: Result<Query<PageParams>, axum::extract::rejection::QueryRejection>,
) -> Response {
    if let Err(refused) = authorize(&app, &headers).await {
        return refused;
    }
    // Only the retry redirects set parameters; anything unexpected is ignored.
    let params = params.map(|Query(p)| p).unwrap_or_default();
    match render(&app, &params).await {
        Ok(html) => Html(html).into_response(),
        Err(e) => error_page(e),
    }
}

/// `POST /admin/jobs/{job_id}/retry`: the form behind a job's retry button.
pub async fn retry(
    State(app): State<AppState>,
    headers: HeaderMap,
    Path(job_id): Path<String>,
) -> Response {
    harden(retry_one(app, headers, job_id).await)
}

async fn retry_one(app: AppState, headers: HeaderMap, job_id: String) -> Response {
    if let Err(refused) = authorize_post(&app, &headers).await {
        return refused;
    }
    match super::admin::retry(&app, &job_id).await {
        Ok(job) => Redirect::to(&format!("/admin/jobs?retried={}", job.job_id)).into_response(),
        Err(e) => error_page(e),
    }
}

/// `POST /admin/jobs/retry`: the "retry every dead job" button.
pub async fn retry_dead(State(app): State<AppState>, headers: HeaderMap) -> Response {
    if let Err(refused) = authorize_post(&app, &headers).await {
        return harden(refused);
    }
    harden(match app.svc.queue.retry_dead(None).await {
        Ok(n) => Redirect::to(&format!("/admin/jobs?retried_dead={n}")).into_response(),
        Err(e) => error_page(super::admin::queue_down(e)),
    })
}

/// Every answer of the dashboard: never framed by another site (a click in a frame
/// would post with our own `Origin`), never cached (it shows live state behind a key).
fn harden(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(
        header::X_FRAME_OPTIONS,
        header::HeaderValue::from_static("DENY"),
    );
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        header::HeaderValue::from_static("frame-ancestors 'none'"),
    );
    headers.insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
    response
}

/// Lets an admin key through (Basic password or Bearer); otherwise the refusal page.
async fn authorize(app: &AppState, headers: &HeaderMap) -> Result<(), Response> {
    let Some(key) = presented_key(headers) else {
        return Err(challenge("Sign in with an admin API key as the password."));
    };
    match app
        .svc
        .directory
        .authenticate_recent(&key, Use::Verified)
        .await
    {
        Ok(Some(caller)) if caller.is_admin => Ok(()),
        Ok(Some(_)) => Err(error_page(ApiError::Forbidden(
            "the job dashboard needs an admin API key".into(),
        ))),
        Ok(None) => Err(challenge("Unknown or revoked API key.")),
        Err(e) => Err(error_page(e.into())),
    }
}

/// [`authorize`], and the form must come from this site: browsers send Basic
/// credentials with any site's form posts, so a cross-site `Origin` is refused.
async fn authorize_post(app: &AppState, headers: &HeaderMap) -> Result<(), Response> {
    authorize(app, headers).await?;
    let value = |name: header::HeaderName| headers.get(name).and_then(|v| v.to_str().ok());
    let cross_site = match (value(header::ORIGIN), value(header::HOST)) {
        (Some("null"), _) => true,
        (Some(origin), Some(host)) => origin.split_once("://").map(|(_, h)| h) != Some(host),
        (Some(_), None) => true,
        (None, _) => value(header::HeaderName::from_static("sec-fetch-site"))
            .is_some_and(|s| s == "cross-site"),
    };
    if cross_site {
        return Err(error_page(ApiError::Forbidden(
            "retries must be posted from the dashboard itself".into(),
        )));
    }
    Ok(())
}

/// The key from `Authorization: Basic` (the password, or the user name if the password
/// is empty) or `Authorization: Bearer`.
fn presented_key(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?.trim();
    let (scheme, rest) = value.split_once(' ')?;
    let key = if scheme.eq_ignore_ascii_case("basic") {
        let decoded = String::from_utf8(crate::base64::decode(rest.trim())?).ok()?;
        let (user, password) = decoded.split_once(':').unwrap_or((&decoded, ""));
        if password.is_empty() { user } else { password }.to_owned()
    } else if scheme.eq_ignore_ascii_case("bearer") {
        rest.trim().to_owned()
    } else {
        return None;
    };
    (!key.is_empty()).then_some(key)
}

/// 401 with the Basic challenge that makes a browser ask for the key.
fn challenge(message: &str) -> Response {
    let mut response = page_response(StatusCode::UNAUTHORIZED, "Sign in", message);
    response.headers_mut().insert(
        header::WWW_AUTHENTICATE,
        header::HeaderValue::from_static(r#"Basic realm="Cosmo admin", charset="UTF-8""#),
    );
    response
}

fn error_page(e: ApiError) -> Response {
    let status = e.status();
    let message = match &e {
        ApiError::Internal(err) => {
            tracing::error!(error = %format_args!("{err:#}"), "job dashboard");
            "internal error; see the server log".to_owned()
        }
        other => other.to_string(),
    };
    let title = status.canonical_reason().unwrap_or("Error");
    page_response(status, title, &message)
}

fn page_response(status: StatusCode, title: &str, message: &str) -> Response {
    let body = format!(
        "{head}<h1>{title}</h1><p>{message}</p><p><a href=\"/admin/jobs\">Back to the jobs</a></p></body></html>",
        head = head(title, false),
        title = escape(title),
        message = escape(message),
    );
    (status, Html(body)).into_response()
}

async fn render(app: &AppState, params: &PageParams) -> Result<String, ApiError> {
    let q = &app.svc.queue;
    let internal = super::admin::queue_down;
    let counts = JobCounts::tally(&q.state_counts().await.map_err(internal)?);
    let listed = |state| JobFilter {
        state: Some(state),
        kind: None,
        limit: SHOWN,
    };
    let dead = q
        .list_jobs(&listed(JobState::Dead))
        .await
        .map_err(internal)?;
    let failing = q
        .list_jobs(&listed(JobState::Failed))
        .await
        .map_err(internal)?;

    let mut html = head("Cosmo jobs", true);
    html.push_str("<h1>Cosmo jobs</h1>");
    let _ = write!(
        html,
        "<p class=\"meta\">{} · refreshes every {REFRESH_SECS} s · \
         JSON: <a href=\"/api/admin/jobs/counts\">counts</a>, \
         <a href=\"/api/admin/jobs?state=dead\">dead jobs</a></p>",
        time(Some(app.svc.clock.now()))
    );
    if let Some(id) = &params.retried {
        let _ = write!(
            html,
            "<p class=\"notice\">Job {} is back to pending.</p>",
            escape(id)
        );
    }
    if let Some(n) = params.retried_dead {
        let _ = write!(
            html,
            "<p class=\"notice\">{n} dead job(s) are back to pending.</p>"
        );
    }
    counts_table(&mut html, &counts);

    html.push_str("<h2>Dead jobs (failed for good)</h2>");
    if dead.is_empty() {
        html.push_str("<p>None.</p>");
    } else {
        let _ = write!(
            html,
            "<form method=\"post\" action=\"/admin/jobs/retry\"><button>Retry all {} dead job(s)</button></form>",
            counts.total.dead
        );
        jobs_table(&mut html, &dead, "Retry", false);
    }
    html.push_str("<h2>Failing jobs (will retry after their backoff)</h2>");
    if failing.is_empty() {
        html.push_str("<p>None.</p>");
    } else {
        jobs_table(&mut html, &failing, "Retry now", true);
    }
    html.push_str("</body></html>");
    Ok(html)
}

const STATES: [(JobState, &str); 5] = [
    (JobState::Pending, "pending"),
    (JobState::Running, "running"),
    (JobState::Done, "done"),
    (JobState::Failed, "failed (will retry)"),
    (JobState::Dead, "dead"),
];

fn counts_table(html: &mut String, counts: &JobCounts) {
    html.push_str("<h2>Jobs by kind and state</h2><table><tr><th>kind</th>");
    for (_, label) in STATES {
        let _ = write!(html, "<th>{label}</th>");
    }
    html.push_str("</tr>");
    let rows = counts.kinds.iter().map(|(k, t)| (escape(k), t));
    for (kind, totals) in rows.chain([("total".to_owned(), &counts.total)]) {
        let _ = write!(html, "<tr><td>{kind}</td>");
        for (state, _) in STATES {
            let n = totals.get(state);
            let class = match state {
                JobState::Dead | JobState::Failed if n > 0 => " class=\"bad\"",
                _ => "",
            };
            let _ = write!(html, "<td{class}>{n}</td>");
        }
        html.push_str("</tr>");
    }
    html.push_str("</table>");
}

/// Failed jobs with their errors and a retry button each; `next_run` for jobs that
/// will retry by themselves.
fn jobs_table(html: &mut String, jobs: &[JobRecord], button: &str, next_run: bool) {
    let next_header = if next_run { "<th>next run</th>" } else { "" };
    let _ = write!(
        html,
        "<table><tr><th>job</th><th>kind</th><th>attempts</th><th>failed at</th>\
         {next_header}<th>error</th><th></th></tr>"
    );
    for j in jobs {
        let error = j.last_error.as_deref().unwrap_or("");
        let short: String = error.chars().take(160).collect();
        let error_cell = if short.len() < error.len() {
            format!(
                "<details><summary>{}…</summary><pre>{}</pre></details>",
                escape(&short),
                escape(error)
            )
        } else {
            format!("<pre>{}</pre>", escape(error))
        };
        let next = if next_run {
            format!("<td>{}</td>", time(j.run_at))
        } else {
            String::new()
        };
        let _ = write!(
            html,
            "<tr><td><code>{id}</code><br><small>{key}</small></td><td>{kind}</td>\
             <td>{attempts}/{max}</td><td>{done}</td>{next}<td>{error_cell}</td>\
             <td><form method=\"post\" action=\"/admin/jobs/{id}/retry\"><button>{button}</button></form></td></tr>",
            id = escape(&j.job_id),
            key = escape(j.idempotency_key.as_deref().unwrap_or("")),
            kind = escape(j.kind.as_str()),
            attempts = j.attempts,
            max = j.max_attempts,
            done = time(j.done_at),
        );
    }
    html.push_str("</table>");
}

fn time(t: Option<DateTime<Utc>>) -> String {
    t.map_or_else(
        || "—".to_owned(),
        |t| t.format("%Y-%m-%d %H:%M:%S UTC").to_string(),
    )
}

fn head(title: &str, refresh: bool) -> String {
    let refresh = if refresh {
        format!("<meta http-equiv=\"refresh\" content=\"{REFRESH_SECS}; url=/admin/jobs\">")
    } else {
        String::new()
    };
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">{refresh}\
         <title>{}</title><style>{STYLE}</style></head><body>",
        escape(title)
    )
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2em;color:#222}\
table{border-collapse:collapse;margin:.5em 0 1.5em}\
th,td{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}\
td.bad{color:#b00;font-weight:bold}pre{margin:0;white-space:pre-wrap;max-width:60em}\
.meta{color:#666}.notice{background:#e8f5e9;padding:.5em}";

/// Text made safe for HTML content and attribute values.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
