//! `[sessions]`: the live session buffer (`POST /api/sessions/{id}/turns`).

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SessionsConfig {
    /// The working memory: how many of a session's latest turns stay in the buffer when
    /// older ones are compressed into a Source (`POST /api/context` with a `session_id`
    /// shows the buffer's latest this many as "Recent conversation").
    pub keep_turns: u32,
    /// When an append leaves more than this many turns in the buffer, all but the latest
    /// `keep_turns` become one `conversation` Source. So after every append the buffer
    /// holds at most this many turns (or the turns of that one append, if more).
    pub flush_after_turns: u32,
}

impl Default for SessionsConfig {
    fn default() -> Self {
        Self {
            keep_turns: 10,
            flush_after_turns: 20,
        }
    }
}

impl SessionsConfig {
    pub fn validate(&self) -> anyhow::Result<()> {
        anyhow::ensure!(
            self.flush_after_turns >= 1 && self.flush_after_turns <= 10_000,
            "sessions.flush_after_turns must be from 1 to 10000"
        );
        anyhow::ensure!(
            self.keep_turns < self.flush_after_turns,
            "sessions.keep_turns ({}) must be below sessions.flush_after_turns ({}): a flush \
             must compress at least one turn",
            self.keep_turns,
            self.flush_after_turns
        );
        Ok(())
    }
}
