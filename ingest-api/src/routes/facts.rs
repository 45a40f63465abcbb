//! Facts (seeds 003, 004): remember, correct, confirm, explain, list, weak facts, and
//! erase. A structured fact keeps one live value per (user, category, key); a less
//! confident value never overwrites a more confident one.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use cosmo_shared::domain::input::read::{FactInput, limit};
use cosmo_shared::domain::input::{FieldError, parse_user_id};
use cosmo_shared::domain::{
    Erasure, Fact, FactExplanation, FactFilter, FactWrite, MemoryKind, NewFact, Weakness,
};
use serde::Deserialize;

use super::access::{memory_owner, tenant_user};
use crate::AppState;
use crate::error::{ApiError, ApiResult};
use crate::extract::{JsonBody, Tenant};

/// Checks that what a fact refers to belongs to its user, embeds it, and makes the
/// [`NewFact`].
async fn new_fact(app: &AppState, user_id: &str, input: FactInput) -> ApiResult<NewFact> {
    let svc = &app.svc;
    for (i, key) in input.about.iter().enumerate() {
        match svc.graph.node(key).await? {
            Some(n) if n.user_id == user_id => {}
            _ => {
                return Err(FieldError::new(
                    format!("about[{i}]"),
                    format!("{key} is not an entity of {user_id}"),
                )
                .into());
            }
        }
    }
    for (i, key) in input.source_keys.iter().enumerate() {
        match svc.graph.source(key).await? {
            Some(s) if s.is_participant(user_id) => {}
            _ => {
                return Err(FieldError::new(
                    format!("source_keys[{i}]"),
                    format!("{key} is not a source of {user_id}"),
                )
                .into());
            }
        }
    }
    let embedded = svc
        .models
        .embedder
        .embed(std::slice::from_ref(&input.text))
        .await
        .map_err(|e| ApiError::Unavailable {
            message: format!("the embedding model is unavailable: {e}"),
            detail: None,
        })?;
    if let Err(e) = svc
        .record_activity_usage("remember-fact", user_id, &embedded.usage)
        .await
    {
        tracing::warn!(error = %e, "recording the fact embedding's usage failed");
    }
    let (category, key, value) = match input.slot {
        Some((c, k, v)) => (Some(c), Some(k), Some(v)),
        None => (None, None, None),
    };
    Ok(NewFact {
        fact_id: ulid::Ulid::generate().to_string(),
        user_id: user_id.to_owned(),
        text: input.text,
        category,
        key,
        value,
        confidence: input.confidence,
        about: input.about,
        source_keys: input.source_keys,
        embedding: embedded.value.into_iter().next(),
        at: svc.clock.now(),
    })
}

/// `POST /api/facts`: 201 when stored, 200 when the same fact was already there or a
/// more confident value is kept (`outcome` says which).
pub async fn remember(
    State(app): State<AppState>,
    tenant: Tenant,
    JsonBody(body): JsonBody,
) -> ApiResult<(StatusCode, Json<FactWrite>)> {
    let input = FactInput::parse_remember(body)?;
    let user_id = input.user_id.clone().unwrap_or_default();
    tenant_user(&app, &tenant, &user_id).await?;
    let fact = new_fact(&app, &user_id, input).await?;
    let write = app.svc.graph.store_fact(&fact).await?;
    let status = match write {
        FactWrite::Stored { .. } => StatusCode::CREATED,
        _ => StatusCode::OK,
    };
    Ok((status, Json(write)))
}

/// `POST /api/facts/{id}/corrections`: the new fact supersedes the old one, which ends.
pub async fn correct(
    State(app): State<AppState>,
    tenant: Tenant,
    Path(id): Path<String>,
    JsonBody(body): JsonBody,
) -> ApiResult<(StatusCode, Json<Fact>)> {
    let input = FactInput::parse_correction(body)?;
    let user_id = memory_owner(&app, &tenant, MemoryKind::Fact, &id).await?;
    if let Some(old) = app.svc.graph.fact(&id).await?
        && old.is_active
        && let (Some(category), Some(key)) = (&old.category, &old.key)
    {
        // A structured fact keeps its slot; a correction must say the new value.
        match &input.slot {
            None => {
                return Err(ApiError::Validation(FieldError::new(
                    "value",
                    format!(
                        "fact {id} is structured ({category}/{key}): its correction needs \
                         category, key and the new value"
                    ),
                )));
            }
            Some((c, k, _)) if c != category || k != key => {
                return Err(ApiError::Validation(FieldError::new(
                    "key",
                    format!("a correction keeps the fact's slot {category}/{key}"),
                )));
            }
            Some(_) => {}
        }
    }
    let fact = new_fact(&app, &user_id, input).await?;
    let corrected = app.svc.graph.correct_fact(&id, &fact).await?;
    Ok((StatusCode::CREATED, Json(corrected)))
}

/// `POST /api/facts/{id}/confirm`: confidence 1, protected from decay.
pub async fn confirm(
    State(app): State<AppState>,
    tenant: Tenant,
    Path(id): Path<String>,
) -> ApiResult<Json<Fact>> {
    memory_owner(&app, &tenant, MemoryKind::Fact, &id).await?;
    let fact = app.svc.graph.confirm_fact(&id, app.svc.clock.now()).await?;
    Ok(Json(fact))
}

pub async fn get(
    State(app): State<AppState>,
    tenant: Tenant,
    Path(id): Path<String>,
) -> ApiResult<Json<Fact>> {
    memory_owner(&app, &tenant, MemoryKind::Fact, &id).await?;
    app.svc
        .graph
        .fact(&id)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError::NotFound(format!("fact {id} not found")))
}

/// `GET /api/facts/{id}/explain`: Sources, the chain it replaced, what replaced it,
/// the entities it is about.
pub async fn explain(
    State(app): State<AppState>,
    tenant: Tenant,
    Path(id): Path<String>,
) -> ApiResult<Json<FactExplanation>> {
    memory_owner(&app, &tenant, MemoryKind::Fact, &id).await?;
    app.svc
        .graph
        .explain_fact(&id)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError::NotFound(format!("fact {id} not found")))
}

/// `DELETE /api/facts/{id}`: the fact and the facts it superseded, gone for good.
pub async fn erase(
    State(app): State<AppState>,
    tenant: Tenant,
    Path(id): Path<String>,
) -> ApiResult<Json<Erasure>> {
    memory_owner(&app, &tenant, MemoryKind::Fact, &id).await?;
    app.svc
        .graph
        .erase_fact(&id)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError::NotFound(format!("fact {id} not found")))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListParams {
    user_id: String,
    #[serde(default)]
    include_inactive: bool,
    #[serde(default)]
    confirmed_only: bool,
    limit: Option<usize>,
}

/// `GET /api/facts?user_id=`: newest first.
pub async fn list(
    State(app): State<AppState>,
    tenant: Tenant,
    params: Result<Query<ListParams>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Json<serde_json::Value>> {
    let Query(p) = params.map_err(query_error)?;
    let user_id = parse_user_id("user_id", &p.user_id)?;
    tenant_user(&app, &tenant, &user_id).await?;
    let facts = app
        .svc
        .graph
        .facts_for_user(
            &user_id,
            FactFilter {
                include_inactive: p.include_inactive,
                confirmed_only: p.confirmed_only,
            },
            limit("limit", p.limit, 50)?,
        )
        .await?;
    Ok(Json(serde_json::json!({ "facts": facts })))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeakParams {
    user_id: String,
    salience_below: Option<f64>,
    confidence_below: Option<f64>,
    limit: Option<usize>,
}

/// `GET /api/facts/weak?user_id=`: live, unconfirmed facts with low salience or
/// confidence, weakest first: confirm them or let them fade.
pub async fn weak(
    State(app): State<AppState>,
    tenant: Tenant,
    params: Result<Query<WeakParams>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Json<serde_json::Value>> {
    let Query(p) = params.map_err(query_error)?;
    let user_id = parse_user_id("user_id", &p.user_id)?;
    tenant_user(&app, &tenant, &user_id).await?;
    let d = Weakness::default();
    let bar = |field: &str, v: Option<f64>, default: f64| match v {
        None => Ok(default),
        Some(v) if (0.0..=1.0).contains(&v) => Ok(v),
        Some(_) => Err(FieldError::new(field, "must be a number from 0 to 1")),
    };
    let weakness = Weakness {
        salience_below: bar("salience_below", p.salience_below, d.salience_below)?,
        confidence_below: bar("confidence_below", p.confidence_below, d.confidence_below)?,
    };
    let facts = app
        .svc
        .graph
        .weak_facts(&user_id, weakness, limit("limit", p.limit, 50)?)
        .await?;
    Ok(Json(
        serde_json::json!({ "weakness": weakness, "facts": facts }),
    ))
}

pub fn query_error(e: axum::extract::rejection::QueryRejection) -> ApiError {
    ApiError::Validation(FieldError::new("query", e.body_text()))
}
