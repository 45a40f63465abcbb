//! What an operator sees: Prometheus `/metrics` on the API (`cosmo serve`: everything)
//! and on a worker's health port, the request id in every log line of the jobs a
//! request caused, and the request's and jobs' spans in an OTLP collector.

mod logs;
mod metrics;
mod traces;
