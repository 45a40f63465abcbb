CREATE RANGE INDEX macro_user IF NOT EXISTS
FOR (m:Macro) ON (m.user_id)
