//! Facts an agent remembers, corrects, confirms, explains and lists (`/api/facts…` and
//! the MCP fact tools).

use cosmo_shared::domain::input::fact::FactInput;
use cosmo_shared::domain::input::read::limit;
use cosmo_shared::domain::input::{FieldError, parse_user_id};
use cosmo_shared::domain::{
    Fact, FactExplanation, FactFilter, FactWrite, MemoryKind, NewFact, Weakness,
};
use cosmo_shared::ids;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

use crate::AppState;
use crate::error::{ApiError, ApiResult};
use crate::extract::Tenant;
use crate::routes::access::{memory_owner, tenant_user};

/// Stores a fact (`POST /api/facts`); a less confident value never overwrites a more
/// confident one (`outcome` says what happened).
pub async fn remember_fact(app: &AppState, tenant: &Tenant, body: Value) -> ApiResult<FactWrite> {
    let input = FactInput::parse_remember(body)?;
    let user_id = tenant_user(app, tenant, input.user_id.as_deref().unwrap_or_default()).await?;
    let fact = new_fact(app, &user_id, input).await?;
    Ok(app.svc.graph.store_fact(&fact).await?)
}

/// Replaces fact `id` with a corrected one (`POST /api/facts/{id}/corrections`); the
/// old one ends.
pub async fn correct_fact(
    app: &AppState,
    tenant: &Tenant,
    id: &str,
    body: Value,
) -> ApiResult<Fact> {
    let input = FactInput::parse_correction(body)?;
    let user_id = memory_owner(app, tenant, MemoryKind::Fact, id).await?;
    if let Some(old) = app.svc.graph.fact(id).await?
        && old.is_active
        && let (Some(category), Some(key)) = (&old.category, &old.key)
    {
        // A structured fact keeps its slot; a correction must say the new value.
        match &input.slot {
            None => {
                return Err(ApiError::FieldConflict(FieldError::new(
                    "value",
                    format!(
                        "fact {id} is structured ({category}/{key}): its correction needs \
                         category, key and the new value"
                    ),
                )));
            }
            Some((c, k, _)) if c != category || k != key => {
                return Err(ApiError::FieldConflict(FieldError::new(
                    "key",
                    format!("a correction keeps the fact's slot {category}/{key}"),
                )));
            }
            Some(_) => {}
        }
    }
    let fact = new_fact(app, &user_id, input).await?;
    Ok(app.svc.graph.correct_fact(id, &fact).await?)
}

/// Confirms fact `id` (`POST /api/facts/{id}/confirm`): confidence 1, protected from
/// decay.
pub async fn confirm_fact(app: &AppState, tenant: &Tenant, id: &str) -> ApiResult<Fact> {
    memory_owner(app, tenant, MemoryKind::Fact, id).await?;
    Ok(app.svc.graph.confirm_fact(id, app.svc.clock.now()).await?)
}

/// Where fact `id` came from (`GET /api/facts/{id}/explain`): its Sources, the facts it
/// replaced, what replaced it, the entities it is about.
pub async fn explain_fact(app: &AppState, tenant: &Tenant, id: &str) -> ApiResult<FactExplanation> {
    memory_owner(app, tenant, MemoryKind::Fact, id).await?;
    app.svc
        .graph
        .explain_fact(id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("fact {id} not found")))
}

/// Which weak facts `GET /api/facts/weak` (and the MCP tool `weak_facts`) lists.
#[derive(Debug, Deserialize, IntoParams, ToSchema)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct WeakParams {
    /// A user of the caller's tenant.
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
    /// Facts with a salience below this (0 to 1, default 0.2)…
    #[param(minimum = 0.0, maximum = 1.0)]
    #[schema(minimum = 0.0, maximum = 1.0, default = 0.2)]
    pub salience_below: Option<f64>,
    /// …or a confidence below this (0 to 1, default 0.5).
    #[param(minimum = 0.0, maximum = 1.0)]
    #[schema(minimum = 0.0, maximum = 1.0, default = 0.5)]
    pub confidence_below: Option<f64>,
    /// At most this many (1 to 100, default 50).
    #[param(minimum = 1, maximum = 100)]
    #[schema(minimum = 1, maximum = 100, default = 50)]
    pub limit: Option<usize>,
}

/// Weak facts and the bars they are below.
#[derive(Debug, Serialize, ToSchema)]
pub struct WeakFacts {
    pub weakness: Weakness,
    pub facts: Vec<Fact>,
}

/// A user's live, unconfirmed facts with low salience or confidence, weakest first
/// (`GET /api/facts/weak`).
pub async fn weak_facts(app: &AppState, tenant: &Tenant, p: WeakParams) -> ApiResult<WeakFacts> {
    let user_id = parse_user_id("user_id", &p.user_id)?;
    let user_id = tenant_user(app, tenant, &user_id).await?;
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
    Ok(WeakFacts { weakness, facts })
}

/// Which facts `GET /api/facts` (and the MCP tool `list_facts`) lists.
#[derive(Debug, Deserialize, IntoParams, ToSchema)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct FactListParams {
    /// A user of the caller's tenant.
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
    /// Also facts that were superseded or retracted.
    #[serde(default)]
    pub include_inactive: bool,
    /// Only confirmed facts.
    #[serde(default)]
    pub confirmed_only: bool,
    /// At most this many (default 50).
    #[param(minimum = 1, maximum = 100)]
    #[schema(minimum = 1, maximum = 100, default = 50)]
    pub limit: Option<usize>,
}

/// A user's facts, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct FactList {
    pub facts: Vec<Fact>,
}

/// A user's facts, newest first (`GET /api/facts`).
pub async fn list_facts(
    app: &AppState,
    tenant: &Tenant,
    params: FactListParams,
) -> ApiResult<FactList> {
    let user_id = parse_user_id("user_id", &params.user_id)?;
    let user_id = tenant_user(app, tenant, &user_id).await?;
    let filter = FactFilter {
        include_inactive: params.include_inactive,
        confirmed_only: params.confirmed_only,
    };
    let facts = app
        .svc
        .graph
        .facts_for_user(&user_id, filter, limit("limit", params.limit, 50)?)
        .await?;
    Ok(FactList { facts })
}

/// Checks that what a fact refers to belongs to its user, embeds it, and makes the
/// [`NewFact`].
async fn new_fact(app: &AppState, user_id: &str, input: FactInput) -> ApiResult<NewFact> {
    let svc = &app.svc;
    let shown = ids::user_id_of(user_id);
    for (i, key) in input.about.iter().enumerate() {
        match svc.graph.node(key).await? {
            Some(n) if n.user_id == user_id => {}
            _ => {
                return Err(ApiError::FieldNotFound(FieldError::new(
                    format!("about[{i}]"),
                    format!("{key} is not an entity of {shown}"),
                )));
            }
        }
    }
    for (i, key) in input.source_keys.iter().enumerate() {
        match svc.graph.source(key).await? {
            Some(s) if s.is_participant(user_id) => {}
            _ => {
                return Err(ApiError::FieldNotFound(FieldError::new(
                    format!("source_keys[{i}]"),
                    format!("{key} is not a source of {shown}"),
                )));
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
        .metering()
        .record("remember-fact", user_id, &embedded.usage)
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
