// The live value of a structured fact's (user, category, key) slot.
CREATE RANGE INDEX fact_slot IF NOT EXISTS
FOR (f:Fact) ON (f.user_id, f.category, f.fact_key)
