//! The OpenAPI 3.1 document, generated from the handlers' `#[utoipa::path]` annotations
//! and the request and response types' `ToSchema`, served at `GET /api/openapi.json`
//! and browsable with Swagger UI at `/docs` (its files are compiled into the binary).
//!
//! What every endpoint shares is added once, by [`Conventions`]: the bearer key on
//! `/api/*` (with its 401, 429 and 503), the 403 of admin endpoints, the 400, 408 and 413 of a body,
//! the 500, the `x-request-id` header, and an `operationId` unique in the document
//! (`<tag>_<handler>`: handlers of different resources share names such as `get`).

use std::sync::LazyLock;

use axum::Json;
use axum::http::Method;
use utoipa::openapi::path::{Operation, Parameter, ParameterBuilder, ParameterIn};
use utoipa::openapi::response::ResponseBuilder;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{Content, Header, RefOr, Required};
use utoipa::{Modify, OpenApi, PartialSchema, ToSchema};
use utoipa_swagger_ui::{Config, SwaggerUi};

use crate::AppState;
use crate::error::ErrorBody;
use crate::routes;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Cosmo API",
        description = "Long-term memory for AI assistants: ingest Sources and live \
            session turns, explore and read memory back, keep facts, control lifecycles, erase. Send an API key as \
            `Authorization: Bearer <key>`; errors are `{\"error\": {\"code\", \"message\", \
            \"field\"?}}`. The same agent operations are offered over MCP at `/mcp`.",
        license(name = "Apache-2.0"),
    ),
    servers((url = "/", description = "This server")),
    paths(
        routes::sources::create,
        routes::sources::get,
        routes::sources::erase,
        routes::sources::request_extraction,
        routes::sessions::append,
        routes::sessions::end,
        routes::sessions::get,
        routes::users::put,
        routes::users::get,
        routes::users::erase,
        routes::users::stats,
        routes::users::extract_team_sources,
        routes::explore::explore,
        routes::explore::context,
        routes::explore::storyline,
        routes::explore::macro_,
        routes::entities::get,
        routes::facts::remember,
        routes::facts::list,
        routes::facts::weak,
        routes::facts::get,
        routes::facts::erase,
        routes::facts::correct,
        routes::facts::confirm,
        routes::facts::explain,
        routes::memories::get,
        routes::memories::events,
        routes::memories::act,
        routes::admin::usage,
        routes::admin::job_runs,
        routes::admin::run_job,
        routes::admin::dry_run,
        routes::admin::jobs,
        routes::admin::job_counts,
        routes::admin::job,
        routes::admin::retry_job,
        routes::admin::retry_dead,
        routes::health::healthz,
        routes::health::readyz,
        crate::observability::render,
    ),
    tags(
        (name = "sources", description = "Ingestion (Phase 0), status and erasure of Sources"),
        (name = "sessions", description = "The live session buffer: recent turns as working \
            memory, older ones compressed into conversation Sources"),
        (name = "users", description = "User profiles, memory stats and erasure of a user"),
        (name = "retrieval", description = "Explore memory, drill down, context for prompts"),
        (name = "entities", description = "People, Concepts and Entities"),
        (name = "facts", description = "Facts a user states or confirms"),
        (name = "memories", description = "Lifecycle of any memory: pin, archive, events"),
        (name = "admin", description = "Operator endpoints: admin API keys only"),
        (name = "health", description = "Liveness and readiness; no API key"),
    ),
    modifiers(&Conventions),
)]
pub struct ApiDoc;

mod rules;

/// The document as generated from the code, built once.
pub fn document() -> &'static utoipa::openapi::OpenApi {
    static DOC: LazyLock<utoipa::openapi::OpenApi> = LazyLock::new(ApiDoc::openapi);
    &DOC
}

/// The document as served: [`document`] with the [`rules`] it cannot state by itself.
pub fn served() -> &'static serde_json::Value {
    static SERVED: LazyLock<serde_json::Value> = LazyLock::new(|| {
        let mut doc = serde_json::to_value(document()).unwrap_or_default();
        rules::add(&mut doc);
        doc
    });
    &SERVED
}

/// `GET /api/openapi.json` (no API key).
pub async fn json() -> Json<&'static serde_json::Value> {
    Json(served())
}

/// Swagger UI at `/docs`, reading `/api/openapi.json`; its files are served from the
/// binary (the `vendored` feature), nothing is fetched from elsewhere.
pub fn swagger_ui() -> axum::Router<AppState> {
    // No online validator badge: the page talks to this server only.
    let config = Config::from("/api/openapi.json")
        .validator_url("none")
        .try_it_out_enabled(true);
    SwaggerUi::new("/docs").config(config).into()
}

/// The routes [`swagger_ui`] serves (all `GET`).
pub const SWAGGER_UI_ROUTES: &[(Method, &str)] = &[
    (Method::GET, "/docs"),
    (Method::GET, "/docs/"),
    (Method::GET, "/docs/{*rest}"),
];

/// What every operation shares (see the module comment).
struct Conventions;

impl Modify for Conventions {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        let components = doc.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "api_key",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "An API key: `Authorization: Bearer <key>`. Keys come from \
                         `auth.bootstrap_key` or `cosmo keys create`; a key reaches only \
                         its tenant's users.",
                    ))
                    .build(),
            ),
        );
        components
            .schemas
            .insert(ErrorBody::name().into_owned(), ErrorBody::schema());
        for (path, item) in doc.paths.paths.iter_mut() {
            let operations = [
                &mut item.get,
                &mut item.put,
                &mut item.post,
                &mut item.delete,
                &mut item.patch,
            ];
            for op in operations.into_iter().flatten() {
                conventions(path, op);
            }
        }
    }
}

fn conventions(path: &str, op: &mut Operation) {
    let has_body = op.request_body.is_some();
    if let (Some(tag), Some(handler)) = (
        op.tags.as_ref().and_then(|t| t.first()),
        op.operation_id.as_deref(),
    ) {
        op.operation_id = Some(format!("{tag}_{}", handler.trim_end_matches('_')));
    }
    let error = |description: &str| {
        ResponseBuilder::new()
            .description(description)
            .content("application/json", Content::new(Some(error_ref())))
            .build()
    };
    let mut add = |status: &str, description: &str| {
        op.responses
            .responses
            .entry(status.to_owned())
            .or_insert_with(|| error(description).into());
    };
    if path.starts_with("/api/") {
        add(
            "401",
            "No API key, not `Bearer <key>`, or an unknown or revoked key",
        );
        if path.starts_with("/api/admin/") {
            add("403", "Not an admin API key");
        }
        add(
            "429",
            "The API key has `server.max_concurrent_per_key` requests in flight",
        );
        add(
            "503",
            "A store or the job queue is out of reach, or the request did not finish \
             within `server.request_timeout_secs`: retry after `Retry-After` seconds",
        );
    }
    if has_body {
        add("400", "The body is empty or not JSON");
        add(
            "408",
            "The body did not arrive within `server.body_read_timeout_secs` (default 30 s)",
        );
        add(
            "413",
            "The body is larger than `server.body_limit_bytes` (default 2 MiB)",
        );
    }
    add("500", "An internal error (details are in the server log)");
    if path.starts_with("/api/") {
        op.security = Some(vec![SecurityRequirement::new(
            "api_key",
            Vec::<String>::new(),
        )]);
        if path.starts_with("/api/admin/") {
            let note = "**Admin API keys only** (403 otherwise).";
            op.description = Some(match op.description.take() {
                Some(d) => format!("{d}\n\n{note}"),
                None => note.to_owned(),
            });
        }
    }
    op.parameters
        .get_or_insert_with(Vec::new)
        .push(RefOr::T(request_id_parameter()));
    let header = Header::builder()
        .schema(Some(String::schema()))
        .description(Some(
            "The request id: the one sent, else a new UUID. It is in the server's log \
             lines and in the jobs this request enqueues.",
        ))
        .build();
    for response in op.responses.responses.values_mut() {
        if let RefOr::T(response) = response {
            response
                .headers
                .insert("x-request-id".into(), RefOr::T(header.clone()));
        }
    }
}

fn request_id_parameter() -> Parameter {
    ParameterBuilder::new()
        .name("x-request-id")
        .parameter_in(ParameterIn::Header)
        .required(Required::False)
        .description(Some(
            "Your id for this request (kept and echoed); a UUID is made otherwise.",
        ))
        .schema(Some(String::schema()))
        .build()
}

fn error_ref() -> RefOr<utoipa::openapi::schema::Schema> {
    RefOr::Ref(utoipa::openapi::Ref::from_schema_name(ErrorBody::name()))
}
