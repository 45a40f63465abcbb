//! Routing: what a query asks (`intent.rs`) and the period it names (`period/`).
//!
//! * **A named period** ("last week", "in May 2023") — any intent: each signal searches
//!   the query a second time within the period, as a second pass fused with the first.
//!   What happened then is found by both passes and outranks what only the whole search
//!   finds, yet nothing is filtered out: a period resolved wrongly, or one without
//!   memories, costs a ranking nothing.
//! * **A period an event bounds** ("after the adoption", "before the move") — any
//!   intent, when no dated period is named: the event is found among the question's
//!   best Sources (`anchor.rs`) and its time bounds the period, searched the same way.
//! * **A question asked in the past** ("When did Maya fly…?", "Why didn't Leo sell…?")
//!   — any intent: full text searches the past forms of its irregular verbs too
//!   ("flew", "flown"; `tense.rs`), since what answers it is told in the past; for
//!   *when* and *why*, each with the word after the verb ("flew home": both words).
//! * **Why** — the Sources linked by cause and effect to the best matches are lifted
//!   (`chain.rs`). *When*, *who* and *what* take no route of their own (see
//!   docs/architecture.md, "Routing").
//!
//! `since`/`until` in the request are filters; a named period inside them is searched
//! within both.
//!
//! Routing is on unless `retrieval.intent_routing = false`, which ranks every query
//! alike (the version `cosmo-bench retrieval` compares with).

use serde::Serialize;

use super::anchor::Anchor;
use super::intent::{self, Intent, ReadFrom, Reading};
use super::period::{self, Period};
use super::tense;
use crate::retrieval::Recall;
use cosmo_shared::domain::SearchScope;

/// What a query asks for and the period it names.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryRoute {
    pub reading: Reading,
    /// A period named by dates ("last week", "after May 2023").
    pub period: Option<Period>,
    /// An event the query places what it asks after or before, when it names no dated
    /// period: the period it bounds is resolved against the user's Sources
    /// (`anchor.rs`).
    pub anchor: Option<Anchor>,
    /// The past forms of the irregular verbs of a question asked in the past ("did …
    /// fly" → "flew", "flown"), searched with its words (`tense.rs`).
    pub past_forms: Vec<String>,
}

impl QueryRoute {
    /// `terms`: the query's full-text terms. `anchor`: the event `text` is anchored to
    /// (`anchor::find`), read by the caller, which embeds its words with the query;
    /// ignored when `text` names a dated period.
    pub async fn read(
        r: &Recall<'_>,
        text: &str,
        embedding: &[f32],
        terms: &[String],
        anchor: Option<Anchor>,
    ) -> Self {
        let period = period::find(text, r.clock.now());
        let reading = intent::read(r, text, embedding).await;
        // When and why leave the verb's object in place (`tense.rs`).
        let object = match reading.intent {
            Intent::When | Intent::Why => tense::Object::InPlace,
            _ => tense::Object::Fronted,
        };
        Self {
            reading,
            anchor: anchor.filter(|_| period.is_none()),
            period,
            past_forms: tense::past_forms(text, terms, object),
        }
    }

    /// `scope` narrowed to the named period, when there is one that narrows it and
    /// leaves something.
    pub fn within(&self, scope: &SearchScope) -> Option<SearchScope> {
        narrow(scope, self.period.as_ref()?)
    }
}

/// `scope` narrowed to `p`, when that narrows it and leaves something.
pub(crate) fn narrow(scope: &SearchScope, p: &Period) -> Option<SearchScope> {
    let since = match (scope.since, p.since) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    };
    let until = match (scope.until, p.until) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    if (since, until) == (scope.since, scope.until) {
        return None; // the period holds the whole scope: a second pass adds nothing
    }
    if let (Some(s), Some(u)) = (since, until)
        && s >= u
    {
        return None;
    }
    Some(SearchScope {
        since,
        until,
        ..scope.clone()
    })
}

/// How explore answered one query (in the response's `routing`).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Route {
    /// Which query (index into `queries`).
    pub query: usize,
    pub intent: Intent,
    pub read_from: ReadFrom,
    /// The period the query names, searched again on its own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub period: Option<Period>,
    /// Words searched besides the query's own: the past forms of its irregular verbs,
    /// for a question asked in the past ("What did Maya buy…?" → "bought"); for a *when*
    /// or *why* question, each with the word after the verb, as one term a memory must
    /// hold both words of ("When did Maya fly home?" → "flew home", "flown home").
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub past_forms: Vec<String>,
}

/// The routes of the queries, for the response; empty when routing is off.
pub(crate) fn routes(queries: &[super::Query]) -> Vec<Route> {
    queries
        .iter()
        .enumerate()
        .filter_map(|(i, q)| {
            q.route.as_ref().map(|r| Route {
                query: i,
                intent: r.reading.intent,
                read_from: r.reading.read_from,
                period: r
                    .period
                    .clone()
                    .or_else(|| q.anchored.get().cloned().flatten()),
                past_forms: r.past_forms.clone(),
            })
        })
        .collect()
}
