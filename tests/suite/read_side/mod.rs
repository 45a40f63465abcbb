//! The read side over HTTP, in-process on the embedded store with a manual clock: explore
//! at three granularities and drill-down, access updates and lazy extraction, context for
//! prompts, facts, lifecycle control, isolation between users and tenants, erasure that
//! leaves no trace, and a user's memory in numbers.

mod access;
mod context;
mod control;
mod entities;
mod erase_user;
mod erasure;
mod explore;
mod facts;
mod isolation;
mod ranking;
mod said_when;
mod stats;
mod world;
