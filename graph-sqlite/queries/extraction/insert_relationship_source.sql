INSERT OR IGNORE INTO relationship_sources (rel_key, source_key) VALUES ($1, $2)
