//! End-to-end: the real binaries over HTTP. `embedded` runs `cosmo serve` (one
//! process, one SQLite file); `fleet` runs `ingest-api` and `workers` as separate
//! processes over PostgreSQL (and over one SQLite file), kills and stops them.

mod bad_input;
mod embedded;
mod fleet;
