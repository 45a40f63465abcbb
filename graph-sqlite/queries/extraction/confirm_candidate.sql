UPDATE nodes SET state = 'active', updated_at = $2
WHERE entity_key = $1 AND state = 'candidate' AND pinned = 0 AND source_count >= 2
