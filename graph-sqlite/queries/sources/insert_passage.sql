INSERT INTO source_passages (source_key, ordinal, text) VALUES ($1, $2, $3)
