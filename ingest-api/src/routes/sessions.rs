//! The live session buffer: `POST /api/sessions/{session_id}/turns` appends a user's
//! turns, `POST …/end` ends the session, `GET /api/sessions/{session_id}` reads it. The
//! work is in [`crate::ops::sessions`], shared with the MCP tools.

use axum::Json;
use axum::extract::{Query, State};
use cosmo_shared::domain::input::FieldError;
use cosmo_shared::domain::input::session::{EndSessionBody, TurnsBody};

use crate::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{JsonBody, Path, RequestId, Tenant};
use crate::ops::sessions::{self, SessionParams, SessionView, TurnsAppended};

/// Append turns to a session
///
/// Adds the turns, in the order given, after the session's last turn (a session starts
/// with its first append; the user is claimed for the caller's tenant if new). When the
/// buffer then holds more than `sessions.flush_after_turns` turns (20), all but the
/// latest `sessions.keep_turns` (10) become one `conversation` Source, processed and
/// extracted like a posted one; every turn ends up in exactly one Source, however many
/// clients append at once. Refusals come before any write.
#[utoipa::path(post, path = "/api/sessions/{session_id}/turns", tag = "sessions",
    request_body = TurnsBody,
    params(("session_id" = String, Path, description = "The session's id, chosen by the \
        client (1 to 128 letters, digits and `. _ - @ :`)", min_length = 1, max_length = 128,
        pattern = r"^(?!\.\.?$)[A-Za-z0-9._@:-]+$")),
    responses(
        (status = 200, description = "Appended", body = TurnsAppended),
        (status = 409, description = "The session has ended", body = ErrorBody),
        (status = 422, description = "A field is invalid (`field` names it, e.g. \
            `turns[3].text`)", body = ErrorBody),
    ))]
pub async fn append(
    State(app): State<AppState>,
    tenant: Tenant,
    RequestId(request_id): RequestId,
    Path(session_id): Path<String>,
    JsonBody(body): JsonBody,
) -> ApiResult<Json<TurnsAppended>> {
    sessions::append_turns(&app, &tenant, &session_id, body, request_id)
        .await
        .map(Json)
}

/// End a session
///
/// The turns left in the buffer become one last `conversation` Source, and the session
/// takes no more turns (appending answers 409). Ending an ended session changes nothing.
#[utoipa::path(post, path = "/api/sessions/{session_id}/end", tag = "sessions",
    request_body = EndSessionBody,
    params(("session_id" = String, Path, description = "The session's id", min_length = 1,
        max_length = 128, pattern = r"^(?!\.\.?$)[A-Za-z0-9._@:-]+$")),
    responses(
        (status = 200, description = "The session, ended", body = SessionView),
        (status = 404, description = "No such session of that user of the caller's tenant",
            body = ErrorBody),
        (status = 422, description = "A field is invalid", body = ErrorBody),
    ))]
pub async fn end(
    State(app): State<AppState>,
    tenant: Tenant,
    RequestId(request_id): RequestId,
    Path(session_id): Path<String>,
    JsonBody(body): JsonBody,
) -> ApiResult<Json<SessionView>> {
    sessions::end_session(&app, &tenant, &session_id, body, request_id)
        .await
        .map(Json)
}

/// A session
///
/// Its buffer (the turns not yet in a Source), the Sources made of its older turns, and
/// whether it has ended.
#[utoipa::path(get, path = "/api/sessions/{session_id}", tag = "sessions",
    params(("session_id" = String, Path, description = "The session's id", min_length = 1,
        max_length = 128, pattern = r"^(?!\.\.?$)[A-Za-z0-9._@:-]+$"), SessionParams),
    responses(
        (status = 200, description = "The session", body = SessionView),
        (status = 404, description = "No such session of that user of the caller's tenant",
            body = ErrorBody),
        (status = 422, description = "A parameter is invalid", body = ErrorBody),
    ))]
pub async fn get(
    State(app): State<AppState>,
    tenant: Tenant,
    Path(session_id): Path<String>,
    params: Result<Query<SessionParams>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Json<SessionView>> {
    let Query(params) =
        params.map_err(|e| ApiError::Validation(FieldError::new("query", e.body_text())))?;
    sessions::read_session(&app, &tenant, &session_id, params)
        .await
        .map(Json)
}
