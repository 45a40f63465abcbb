UPDATE nodes SET has_meso = 1, updated_at = $2 WHERE entity_key = $1
