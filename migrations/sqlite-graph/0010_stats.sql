-- Memory stats (`memory_stats`) read each user's rows of every table through an index
-- on `user_id`; extraction records and Macros had none (their jobs find them by status
-- and by anchor).

CREATE INDEX extractions_by_user ON extractions (user_id, status);
CREATE INDEX macros_by_user ON macros (user_id, state);
