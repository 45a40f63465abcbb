UPDATE nodes SET state = 'active', salience = max(salience, $3), last_decayed_at = $2, updated_at = $2
WHERE entity_key = $1 AND state = 'archived' AND pinned = 0
