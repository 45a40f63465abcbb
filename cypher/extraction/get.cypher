MATCH (e:Extraction {source_key: $source_key, user_id: $user_id})
RETURN properties(e) AS extraction
