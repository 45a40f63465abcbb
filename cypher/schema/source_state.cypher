CREATE RANGE INDEX source_state IF NOT EXISTS
FOR (s:Source) ON (s.state)
