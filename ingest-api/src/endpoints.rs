//! The route table, recorded: every endpoint goes through [`Endpoints`], which adds it to
//! the axum [`Router`] and notes its `(method, path)`. [`crate::routes()`] lists them, and
//! a test checks that list against the OpenAPI document both ways, so an endpoint cannot
//! be added without being documented (nor documented without existing).

use axum::Router;
use axum::handler::Handler;
use axum::http::Method;
use axum::routing::{self, MethodRouter};

use crate::AppState;

/// A router being built, and the `(method, path)` of every endpoint added so far.
#[derive(Debug, Default)]
pub struct Endpoints {
    router: Router<AppState>,
    table: Vec<(Method, &'static str)>,
}

impl Endpoints {
    pub fn get<H: Handler<T, AppState>, T: 'static>(self, path: &'static str, handler: H) -> Self {
        self.route(Method::GET, path, routing::get(handler))
    }

    pub fn post<H: Handler<T, AppState>, T: 'static>(self, path: &'static str, handler: H) -> Self {
        self.route(Method::POST, path, routing::post(handler))
    }

    pub fn put<H: Handler<T, AppState>, T: 'static>(self, path: &'static str, handler: H) -> Self {
        self.route(Method::PUT, path, routing::put(handler))
    }

    pub fn delete<H: Handler<T, AppState>, T: 'static>(
        self,
        path: &'static str,
        handler: H,
    ) -> Self {
        self.route(Method::DELETE, path, routing::delete(handler))
    }

    /// One method of `path`, served by `method_router` (which must serve only `method`).
    pub fn route(
        mut self,
        method: Method,
        path: &'static str,
        method_router: MethodRouter<AppState>,
    ) -> Self {
        self.router = self.router.route(path, method_router);
        self.table.push((method, path));
        self
    }

    /// A ready-made router (a UI's pages, a protocol's service), recorded as `entries`.
    pub fn merge(mut self, entries: &[(Method, &'static str)], router: Router<AppState>) -> Self {
        self.router = self.router.merge(router);
        self.table.extend(entries.iter().cloned());
        self
    }

    pub fn into_parts(self) -> (Router<AppState>, Vec<(Method, &'static str)>) {
        (self.router, self.table)
    }
}
