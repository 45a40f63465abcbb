// Active/core Storylines about one anchor, found by its identity, whose last Source is
// after `$since`; the most recent first.
MATCH (n:Person {canonical_name: $name, user_id: $user_id})
WHERE n.has_meso = true
MATCH (st:Storyline)-[:about]->(n)
WHERE st.state IN ['active', 'core'] AND st.last_source_at > $since
WITH st
ORDER BY st.last_source_at DESC, st.storyline_id
LIMIT $limit
RETURN properties(st) AS storyline
