// vector_search over semantic nodes in scope: exact cosine over the user's own
// candidates, found through an indexed property (`user_id`), never a top-k of the
// shared vector index filtered afterwards (other users' vectors could fill that top-k
// and hide the user's best matches). `vector.similarity.cosine` (single precision,
// normalised to [0, 1]) picks `$candidates` (a margin over `$limit`); their scores are
// recomputed in double precision as the plain cosine, as the SQLite store computes it
// (`$norm`: the query vector's norm), and the best `$limit` kept. Vectors of another
// length and zero vectors (invalid for cosine) are not candidates.
MATCH (n:Semantic)
WHERE n.user_id = $user_id
  AND (n.state <> 'archived' OR $include_archived)
  AND ($since IS NULL OR coalesce(n.last_mentioned_at, n.created_at) >= $since)
  AND ($until IS NULL OR coalesce(n.last_mentioned_at, n.created_at) < $until)
WITH n.entity_key AS key, n.embedding AS e
WHERE size(e) = size($embedding) AND any(x IN e WHERE x <> 0.0)
WITH key, e, vector.similarity.cosine(e, $embedding) AS approx
ORDER BY approx DESC, key
LIMIT $candidates
WITH key,
     reduce(dot = 0.0, i IN range(0, size(e) - 1) | dot + e[i] * $embedding[i]) AS dot,
     reduce(sq = 0.0, x IN e | sq + x * x) AS sq
WITH key, dot / (sqrt(sq) * $norm) AS score
ORDER BY score DESC, key
LIMIT $limit
RETURN key, score
