CREATE RANGE INDEX source_thread IF NOT EXISTS
FOR (s:Source) ON (s.thread_key)
