SELECT from_key FROM source_links WHERE kind = 'temporal' AND to_key = $1
