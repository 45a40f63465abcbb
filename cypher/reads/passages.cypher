// The passages of these Sources, by Source in the order of `$source_keys` (distinct),
// each Source's in content order.
UNWIND range(0, size($source_keys) - 1) AS i
MATCH (s:Source {entity_key: $source_keys[i]})-[:has_passage]->(p:Passage)
RETURN s.entity_key AS source_key, p.ordinal AS ordinal, p.text AS text
ORDER BY i, ordinal
