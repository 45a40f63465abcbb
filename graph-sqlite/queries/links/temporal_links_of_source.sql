SELECT from_key, to_key, user_id FROM source_links
WHERE kind = 'temporal' AND (to_key = $1 OR from_key = $1)
