UPDATE sources SET state = 'archived', updated_at = $2 WHERE entity_key = $1
