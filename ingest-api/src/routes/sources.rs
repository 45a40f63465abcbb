//! `POST /api/sources` (Phase 0), `GET /api/sources/{key}` (status, processed fields,
//! per-user extraction state; `?as_user=` reads as a participant and starts their lazy
//! extraction) and `POST /api/sources/{key}/extractions`.

use axum::Json;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use chrono::{DateTime, Utc};
use cosmo_pipeline as pipeline;
use cosmo_shared::domain::input::{
    ExtractionRequestInput, SourceBody, SourceInput, idempotency_header, parse_user_id,
};
use cosmo_shared::domain::{
    ExtractionRecord, MemoryState, ProcessingStatus, Sensitivity, Source, SourceType, TtlPolicy,
};
use cosmo_shared::ids;
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::{IntoParams, ToSchema};

use crate::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{JsonBody, Path, RequestId, Tenant, off_runtime};

#[derive(Debug, Serialize, ToSchema)]
pub struct SourceAccepted {
    pub entity_key: String,
    pub status: ProcessingStatus,
    pub status_url: String,
    /// True when this request matched an existing Source (same idempotency key).
    pub duplicate: bool,
}

/// Ingest a Source
///
/// Stores the item raw and enqueues its processing; extraction for the owner follows.
/// Refusals come before any write. Re-posting the same item (same `external_id`, else
/// `Idempotency-Key`, else the same content) is answered 200 with `duplicate: true`.
#[utoipa::path(post, path = "/api/sources", tag = "sources", request_body = SourceBody,
    params(("Idempotency-Key" = Option<String>, Header,
        description = "De-duplicates retries when there is no `external_id` (1 to 256 \
            printable ASCII characters)", pattern = r"^[!-~]([ -~]{0,254}[!-~])?$")),
    responses(
        (status = 202, description = "Stored; processing is queued", body = SourceAccepted),
        (status = 200, description = "The same item was already stored (`duplicate: true`)",
            body = SourceAccepted),
        (status = 409, description = "The idempotency key was used for different content",
            body = ErrorBody),
        (status = 422, description = "A field is invalid (`field` names it, e.g. \
            `raw_content.body`)", body = ErrorBody),
        (status = 503, description = "Stored, but the job queue is unreachable: it is \
            processed once the queue is back (`detail` has the `entity_key`)", body = ErrorBody),
    ))]
pub async fn create(
    State(app): State<AppState>,
    tenant: Tenant,
    RequestId(request_id): RequestId,
    headers: HeaderMap,
    JsonBody(body): JsonBody,
) -> ApiResult<(StatusCode, Json<SourceAccepted>)> {
    // Reading the item and hashing its content (up to the body limit) is CPU work.
    let input = off_runtime(move || SourceInput::parse(body)).await??;
    let idempotency_key = match headers.get("idempotency-key") {
        None => None,
        Some(v) => Some(idempotency_header(v.to_str().unwrap_or("\u{0}"))?),
    };
    let svc = &app.svc;
    let now = svc.clock.now();
    let users = input.users();
    let reused = |key: &str| {
        ApiError::Conflict(format!(
            "idempotency key already used for different content (source {key})"
        ))
    };
    // Refusals come before any write. A reused key (409) is a Source of the owner's, so
    // an owner the tenant has not used yet has none.
    if let Some(owner) = svc
        .directory
        .tenant_user(&tenant.id, &input.user_id)
        .await?
    {
        let (entity_key, content_hash) =
            input.identity_for(&owner.graph_user_id, idempotency_key.as_deref());
        if let Some(existing) = svc.graph.source(&entity_key).await?
            && existing.content_hash != content_hash
        {
            return Err(reused(&existing.entity_key));
        }
    }
    let graph_user_ids = svc.directory.claim_users(&tenant.id, &users, now).await?;
    let new = input
        .with_graph_user_ids(&users, &graph_user_ids)
        .into_new_source(idempotency_key.as_deref(), now);
    let (source, duplicate) = match pipeline::store_source(svc, &new, request_id).await {
        Ok(stored) => stored,
        Err(pipeline::StoreError::KeyReused(key)) => return Err(reused(&key)),
        Err(pipeline::StoreError::NotEnqueued { stored, error }) => {
            let entity_key = stored.entity_key;
            tracing::error!(%entity_key, %error, "source stored but not enqueued");
            let status_url = format!("/api/sources/{entity_key}");
            return Err(ApiError::Unavailable {
                message:
                    "the source is stored but the job queue is unreachable; it will be processed \
                          automatically once the queue is back"
                        .into(),
                detail: Some(json!({ "entity_key": entity_key, "status_url": status_url })),
            });
        }
        Err(pipeline::StoreError::Graph(e)) => return Err(e.into()),
    };
    let status_url = format!("/api/sources/{}", source.entity_key);
    let status = if duplicate {
        StatusCode::OK
    } else {
        StatusCode::ACCEPTED
    };
    Ok((
        status,
        Json(SourceAccepted {
            entity_key: source.entity_key.clone(),
            status: source.processing_status,
            status_url,
            duplicate,
        }),
    ))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ReadParams {
    /// Read as this participant: their extraction starts if it has not.
    #[param(
        min_length = 1,
        max_length = 128,
        pattern = r"^(?!\.\.?$)[A-Za-z0-9._@:-]+$"
    )]
    pub as_user: Option<String>,
    /// Also return `raw_content` as posted.
    #[serde(default)]
    pub include_raw: bool,
}

/// A Source
///
/// Its status (`raw` → `processed` → `extracted`), processed fields and per-user
/// extraction state. `?as_user=` reads as a participant and starts their extraction.
#[utoipa::path(get, path = "/api/sources/{key}", tag = "sources",
    params(("key" = String, Path, description = "The Source's entity key"), ReadParams),
    responses(
        (status = 200, description = "The Source", body = SourceView),
        (status = 403, description = "`as_user` is not a participant", body = ErrorBody),
        (status = 404, description = "No such Source for the caller's tenant", body = ErrorBody),
        (status = 422, description = "A query parameter is invalid", body = ErrorBody),
    ))]
pub async fn get(
    State(app): State<AppState>,
    tenant: Tenant,
    RequestId(request_id): RequestId,
    Path(key): Path<String>,
    params: Result<Query<ReadParams>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Json<SourceView>> {
    let Query(params) = params.map_err(|e| {
        ApiError::Validation(cosmo_shared::domain::input::FieldError::new(
            "query",
            e.body_text(),
        ))
    })?;
    let source = tenant_source(&app, &tenant, &key).await?;
    if let Some(user) = &params.as_user {
        let user = participant(&app, &tenant, &source, &parse_user_id("as_user", user)?).await?;
        pipeline::request_extraction(&app.svc, &key, &user, request_id).await?;
    }
    let extractions = app.svc.graph.extractions(&key).await?;
    Ok(Json(SourceView::new(
        source,
        extractions,
        params.include_raw,
    )))
}

/// Ask for a participant's extraction
///
/// Starts (or reports) the extraction of this Source into a participant's own memory.
#[utoipa::path(post, path = "/api/sources/{key}/extractions", tag = "sources",
    request_body = ExtractionRequestInput,
    params(("key" = String, Path, description = "The Source's entity key")),
    responses(
        (status = 202, description = "The participant's extraction record", body = ExtractionRecord),
        (status = 403, description = "`user_id` is not a participant", body = ErrorBody),
        (status = 404, description = "No such Source for the caller's tenant", body = ErrorBody),
        (status = 422, description = "A field is invalid", body = ErrorBody),
    ))]
pub async fn request_extraction(
    State(app): State<AppState>,
    tenant: Tenant,
    RequestId(request_id): RequestId,
    Path(key): Path<String>,
    JsonBody(body): JsonBody,
) -> ApiResult<(StatusCode, Json<ExtractionRecord>)> {
    let input = ExtractionRequestInput::parse(body)?;
    let source = tenant_source(&app, &tenant, &key).await?;
    let user = participant(&app, &tenant, &source, &input.user_id).await?;
    let record = pipeline::request_extraction(&app.svc, &key, &user, request_id).await?;
    Ok((StatusCode::ACCEPTED, Json(record)))
}

/// Erase a Source
///
/// The Source and every trace of it: what was extracted only from it, its notes, its
/// place in Storylines, its queued jobs.
#[utoipa::path(delete, path = "/api/sources/{key}", tag = "sources",
    params(("key" = String, Path, description = "The Source's entity key")),
    responses(
        (status = 200, description = "What was erased", body = cosmo_pipeline::erasure::ErasureReport),
        (status = 404, description = "No such Source for the caller's tenant", body = ErrorBody),
    ))]
pub async fn erase(
    State(app): State<AppState>,
    tenant: Tenant,
    Path(key): Path<String>,
) -> ApiResult<Json<cosmo_pipeline::erasure::ErasureReport>> {
    tenant_source(&app, &tenant, &key).await?;
    cosmo_pipeline::erasure::erase_source(&app.svc, &key)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError::NotFound(format!("source {key} not found")))
}

/// The Source if it exists and its owner is a user of the caller's tenant; otherwise
/// 404 (another tenant's Source does not exist for this caller).
async fn tenant_source(app: &AppState, tenant: &Tenant, key: &str) -> ApiResult<Source> {
    let not_found = || ApiError::NotFound(format!("source {key} not found"));
    let source = app.svc.graph.source(key).await?.ok_or_else(not_found)?;
    if super::access::in_tenant(app, tenant, &source.user_id).await? {
        Ok(source)
    } else {
        Err(not_found())
    }
}

/// The graph user id of the caller's user `user`, if a participant of `source`; else 403
/// (a user the tenant has never used is no participant either).
async fn participant(
    app: &AppState,
    tenant: &Tenant,
    source: &Source,
    user: &str,
) -> ApiResult<String> {
    let directory = &app.svc.directory;
    match directory
        .graph_user_id_recent(&tenant.id, user, tenant.lookups)
        .await?
    {
        Some(graph_user_id) if source.is_participant(&graph_user_id) => Ok(graph_user_id),
        _ => Err(ApiError::Forbidden(format!(
            "{user} is not a participant of source {}",
            source.entity_key
        ))),
    }
}

/// What `GET /api/sources/{key}` shows.
#[derive(Debug, Serialize, ToSchema)]
pub struct SourceView {
    pub entity_key: String,
    #[serde(serialize_with = "ids::serialize_user_id")]
    pub user_id: String,
    pub team_id: Option<String>,
    #[serde(serialize_with = "ids::serialize_user_ids")]
    pub participants: Vec<String>,
    pub source_type: SourceType,
    pub context_type: Option<String>,
    pub started_at: Option<DateTime<Utc>>,
    pub ended_at: Option<DateTime<Utc>>,
    pub sensitivity: Sensitivity,
    pub ttl_policy: TtlPolicy,
    pub external_id: Option<String>,
    pub provenance: Option<serde_json::Value>,
    /// `raw`, `processed` or `extracted`.
    pub status: ProcessingStatus,
    pub processing_error: Option<String>,
    pub processing_started_at: Option<DateTime<Utc>>,
    pub processing_completed_at: Option<DateTime<Utc>>,
    pub extraction_started_at: Option<DateTime<Utc>>,
    pub extraction_completed_at: Option<DateTime<Utc>>,
    pub content: String,
    pub summary: String,
    pub keywords: Vec<String>,
    pub tags: Vec<String>,
    pub embedding_dimensions: usize,
    /// One entry per user who asked for (or owns) an extraction of this Source.
    pub extractions: Vec<ExtractionRecord>,
    pub salience: f64,
    pub state: MemoryState,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw_content: Option<serde_json::Value>,
}

impl SourceView {
    fn new(s: Source, extractions: Vec<ExtractionRecord>, include_raw: bool) -> Self {
        Self {
            embedding_dimensions: s.embedding.as_ref().map_or(0, Vec::len),
            raw_content: include_raw.then_some(s.raw_content),
            entity_key: s.entity_key,
            user_id: s.user_id,
            team_id: s.team_id,
            participants: s.participants,
            source_type: s.source_type,
            context_type: s.context_type,
            started_at: s.started_at,
            ended_at: s.ended_at,
            sensitivity: s.sensitivity,
            ttl_policy: s.lifecycle.ttl_policy,
            external_id: s.external_id,
            provenance: s.provenance,
            status: s.processing_status,
            processing_error: s.processing_error,
            processing_started_at: s.processing_started_at,
            processing_completed_at: s.processing_completed_at,
            extraction_started_at: s.extraction_started_at,
            extraction_completed_at: s.extraction_completed_at,
            content: s.content,
            summary: s.summary,
            keywords: s.keywords,
            tags: s.tags,
            extractions,
            salience: s.lifecycle.salience,
            state: s.lifecycle.state,
            created_at: s.lifecycle.created_at,
            updated_at: s.lifecycle.updated_at,
        }
    }
}
