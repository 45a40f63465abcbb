//! Cosmo's integration suite (one binary): the store contract suites, the pipeline run
//! in-process, and end-to-end tests of the real binaries.

mod admin;
mod backfill;
mod cli;
mod directory;
mod e2e;
mod graph_contract;
mod jobs_admin;
mod mcp;
mod memory_over_time;
mod minilm;
mod models;
mod observability;
mod openapi;
mod pipeline;
mod query_files;
mod queue_contract;
mod read_side;
mod request_deadline;
mod retrieval;
mod scheduling;
mod sessions;
