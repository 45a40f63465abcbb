UPDATE nodes SET has_macro = 1, updated_at = $2 WHERE entity_key = $1
