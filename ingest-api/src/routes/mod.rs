//! One module per resource.

pub mod access;
pub mod admin;
pub mod dashboard;
pub mod entities;
pub mod explore;
pub mod facts;
pub mod health;
pub mod memories;
pub mod sessions;
pub mod sources;
pub mod users;
