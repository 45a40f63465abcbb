//! End-to-end: the real binaries over HTTP. `embedded` runs `cosmo serve` (one
//! process, one SQLite file); `fleet` runs `ingest-api` and `workers` as separate
//! processes over PostgreSQL (and over one SQLite file), kills and stops them; `startup`
//! starts every binary as a newcomer would: a configuration error, the log format.

mod bad_input;
mod embedded;
mod fleet;
mod startup;
