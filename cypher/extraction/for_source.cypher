MATCH (e:Extraction {source_key: $source_key})
WITH e
ORDER BY e.user_id
RETURN properties(e) AS extraction
