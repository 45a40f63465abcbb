// Deletes Sources with all their links (mentions, includes, derived_from, stated_in,
// readable_by).
MATCH (s:Source)
WHERE s.entity_key IN $source_keys
DETACH DELETE s
RETURN count(*) AS deleted
