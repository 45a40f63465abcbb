// Nodes that drew on an erased Source: hierarchy counters from the Sources that still
// mention them (event time: `started_at`, else `created_at`; days in UTC, sorted), the
// Storyline and Macro flags, description and embedding cleared, dirty. Each is
// write-locked first.
MATCH (n:Semantic)
WHERE n.entity_key IN $entity_keys
SET n.updated_at = $at
WITH n
OPTIONAL MATCH (s:Source)-[:mentions]->(n)
WITH n,
     count(s) AS sources,
     min(coalesce(s.started_at, s.created_at)) AS first_at,
     max(coalesce(s.started_at, s.created_at)) AS last_at
WITH n, sources, first_at, last_at,
     COLLECT {
       MATCH (s:Source)-[:mentions]->(n)
       WITH DISTINCT date(coalesce(s.started_at, s.created_at)) AS day
       ORDER BY day
       RETURN day
     } AS days
SET n.source_count = sources,
    n.first_mentioned_at = first_at,
    n.last_mentioned_at = last_at,
    n.distinct_source_days = size(days),
    n.distinct_days = days,
    n.has_meso = EXISTS { (:Storyline)-[:about]->(n) },
    n.has_macro = EXISTS { (:Macro)-[:rooted_in]->(n) },
    n.description = '',
    n.description_terms = [],
    n.description_counts = [],
    n.description_len = 0,
    n.embedding = null,
    n.is_dirty = true
RETURN count(n) AS cleared
