//! The live session buffer, for both doors (REST `…/api/sessions/…` and the MCP tools
//! `append_turns`, `end_session`, `read_session`): append turns, end a session, read
//! its state. A session belongs to one user of the caller's tenant; another user's (or
//! another tenant's) session of the same id is another session.

use chrono::{DateTime, Utc};
use cosmo_pipeline::sessions::post_session;
use cosmo_shared::domain::input::parse_user_id;
use cosmo_shared::domain::input::session::{AppendInput, parse_end, parse_session_id};
use cosmo_shared::sessions::{Chunk, SessionError, SessionRow, Turn};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

use crate::AppState;
use crate::error::{ApiError, ApiResult};
use crate::extract::Tenant;
use crate::routes::access::tenant_user;

/// What an append did.
#[derive(Debug, Serialize, ToSchema)]
pub struct TurnsAppended {
    pub session_id: String,
    pub user_id: String,
    /// The numbers the appended turns got in the session (the first turn ever is 1),
    /// in the order posted: `first_seq` to `last_seq`.
    pub first_seq: i64,
    pub last_seq: i64,
    /// Turns in the buffer now, not yet in a Source.
    pub buffered_turns: i64,
    /// The Sources made of the session's older turns so far, oldest first (a
    /// `posted_at` of `null`: claimed, to be stored shortly).
    pub sources: Vec<Chunk>,
}

/// A session as it stands.
#[derive(Debug, Serialize, ToSchema)]
pub struct SessionView {
    pub session_id: String,
    pub user_id: String,
    pub status: SessionStatus,
    /// How many turns were appended in all (the number of the last one).
    pub turns_appended: i64,
    /// The buffer: turns not yet in a Source, oldest first. The latest
    /// `sessions.keep_turns` of them are what `POST /api/context` shows.
    pub buffer: Vec<Turn>,
    /// The Sources made of the session's older turns, oldest first.
    pub sources: Vec<Chunk>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub ended_at: Option<DateTime<Utc>>,
}

/// Where a session stands: `open` (it takes turns) or `ended` (no more turns; the buffer
/// went into a last Source).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SessionStatus {
    Open,
    Ended,
}

/// Which session `GET /api/sessions/{session_id}` (and `read_session`) reads.
#[derive(Debug, Deserialize, IntoParams, ToSchema)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct SessionParams {
    /// The user whose session it is.
    #[param(
        min_length = 1,
        max_length = 128,
        pattern = r"^(?!\.\.?$)[A-Za-z0-9._@:-]+$"
    )]
    #[schema(
        min_length = 1,
        max_length = 128,
        pattern = r"^(?!\.\.?$)[A-Za-z0-9._@:-]+$"
    )]
    pub user_id: String,
}

impl From<SessionError> for ApiError {
    fn from(e: SessionError) -> Self {
        match e {
            SessionError::Ended(_) => Self::Conflict(e.to_string()),
            SessionError::NotFound(_) => Self::NotFound(e.to_string()),
            SessionError::Db(e) => anyhow::Error::from(e).into(),
        }
    }
}

/// Appends turns to a session (`POST /api/sessions/{session_id}/turns`), then stores
/// as Sources the chunks of it that are claimed and not yet stored.
pub async fn append_turns(
    app: &AppState,
    tenant: &Tenant,
    session_id: &str,
    body: Value,
    request_id: Option<String>,
) -> ApiResult<TurnsAppended> {
    let session_id = parse_session_id("session_id", session_id)?;
    let input = AppendInput::parse(body)?;
    let svc = &app.svc;
    let now = svc.clock.now();
    let graph_user_id = svc
        .directory
        .claim_user(&tenant.id, &input.user_id, now)
        .await?;
    let limits = (&svc.config.sessions).into();
    let appended = svc
        .sessions
        .append(&graph_user_id, &session_id, &input.turns, limits, now)
        .await?;
    let sources = post_session(
        &svc.sessions,
        svc.into(),
        &graph_user_id,
        &session_id,
        request_id,
    )
    .await?;
    Ok(TurnsAppended {
        session_id,
        user_id: input.user_id,
        first_seq: appended.first_seq,
        last_seq: appended.last_seq,
        buffered_turns: appended.buffered,
        sources,
    })
}

/// Ends a session (`POST /api/sessions/{session_id}/end`): what is left in the buffer
/// becomes one last Source. Ending it again changes nothing.
pub async fn end_session(
    app: &AppState,
    tenant: &Tenant,
    session_id: &str,
    body: Value,
    request_id: Option<String>,
) -> ApiResult<SessionView> {
    let session_id = parse_session_id("session_id", session_id)?;
    let user_id = parse_end(body)?;
    let graph_user_id = tenant_user(app, tenant, &user_id).await?;
    let svc = &app.svc;
    svc.sessions
        .end(&graph_user_id, &session_id, svc.clock.now())
        .await?;
    post_session(
        &svc.sessions,
        svc.into(),
        &graph_user_id,
        &session_id,
        request_id,
    )
    .await?;
    view(app, &graph_user_id, &user_id, &session_id).await
}

/// A session's state (`GET /api/sessions/{session_id}`).
pub async fn read_session(
    app: &AppState,
    tenant: &Tenant,
    session_id: &str,
    params: SessionParams,
) -> ApiResult<SessionView> {
    let session_id = parse_session_id("session_id", session_id)?;
    let user_id = parse_user_id("user_id", &params.user_id)?;
    let graph_user_id = tenant_user(app, tenant, &user_id).await?;
    view(app, &graph_user_id, &user_id, &session_id).await
}

async fn view(
    app: &AppState,
    graph_user_id: &str,
    user_id: &str,
    session_id: &str,
) -> ApiResult<SessionView> {
    let sessions = &app.svc.sessions;
    let not_found = || ApiError::NotFound(format!("session {session_id} not found"));
    let read = async {
        let Some(row) = sessions.session(graph_user_id, session_id).await? else {
            return Ok(None);
        };
        let buffer = sessions
            .buffer(graph_user_id, session_id, row.last_seq - row.flushed_seq)
            .await?;
        let sources = sessions.chunks(graph_user_id, session_id).await?;
        anyhow::Ok(Some((row, buffer, sources)))
    };
    let (row, buffer, sources) = read.await?.ok_or_else(not_found)?;
    let SessionRow {
        last_seq,
        created_at,
        updated_at,
        ended_at,
        ..
    } = row;
    Ok(SessionView {
        session_id: session_id.to_owned(),
        user_id: user_id.to_owned(),
        status: if ended_at.is_some() {
            SessionStatus::Ended
        } else {
            SessionStatus::Open
        },
        turns_appended: last_seq,
        buffer,
        sources,
        created_at,
        updated_at,
        ended_at,
    })
}
