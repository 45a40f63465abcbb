//! A user's memory in numbers.

use async_trait::async_trait;

use crate::domain::MemoryStats;
use crate::graph::GraphResult;

#[async_trait]
pub trait StatsStore: Send + Sync {
    /// `user_id`'s memory in numbers ([`MemoryStats`]): their memories by kind and
    /// state, Sources by status, links, orphan nodes, extraction records by status, and
    /// the text and vectors they store. Reads every memory of the user once; an unknown
    /// user has all zeroes.
    async fn memory_stats(&self, user_id: &str) -> GraphResult<MemoryStats>;
}
