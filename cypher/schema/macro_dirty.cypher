CREATE RANGE INDEX macro_dirty IF NOT EXISTS
FOR (m:Macro) ON (m.is_dirty)
