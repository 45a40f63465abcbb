CREATE RANGE INDEX source_causal_pending IF NOT EXISTS
FOR (s:Source) ON (s.causal_pending)
