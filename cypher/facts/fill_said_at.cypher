// Run by migrate() in batches of `$limit` until a batch fills fewer: facts written
// before facts knew when they were said get it: the latest event time of the Sources
// they were stated in (`started_at`, else when the Source arrived), else when they
// were told (`valid_from`).
MATCH (f:Fact)
WHERE f.said_at IS NULL
WITH f
LIMIT $limit
OPTIONAL MATCH (f)-[:stated_in]->(s:Source)
WITH f, max(coalesce(s.started_at, s.created_at)) AS said
SET f.said_at = coalesce(said, f.valid_from)
RETURN count(f) AS filled
