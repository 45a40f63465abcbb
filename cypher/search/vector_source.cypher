// vector_search over Sources in scope: exact cosine over the user's own candidates,
// found through an indexed property (the `readable_by` self-links of the Sources the
// user may read), never a top-k of the shared vector index filtered afterwards (other
// users' vectors could fill that top-k and hide the user's best matches).
// A Source scores the best of its summary's vector and its passages' vectors
// (`ordinal` -1: the summary; it wins ties). Passages count only when the summary's
// vector is a valid candidate, as in the SQLite store.
// `vector.similarity.cosine` (single precision, normalised to [0, 1]) picks each
// Source's best vector and then `$candidates` Sources (a margin over `$limit`); their
// scores are recomputed in double precision as the plain cosine, as the SQLite store
// computes it (`$norm`: the query vector's norm), and the best `$limit` kept. Vectors
// of another length and zero vectors (invalid for cosine) are not candidates.
MATCH (s:Source)-[r:readable_by]->(s)
WHERE r.user_id = $user_id
  AND (s.state <> 'archived' OR $include_archived)
  AND ($since IS NULL OR coalesce(s.started_at, s.created_at) >= $since)
  AND ($until IS NULL OR coalesce(s.started_at, s.created_at) < $until)
  AND size(s.embedding) = size($embedding) AND any(x IN s.embedding WHERE x <> 0.0)
WITH s, vector.similarity.cosine(s.embedding, $embedding) AS summary
// Each Source's best passage in a subquery that keeps one row: only the Sources' best
// scores are sorted, never every vector the user has.
CALL (s, summary) {
  OPTIONAL MATCH (s)-[:has_passage]->(p:Passage)
  WHERE size(p.embedding) = size($embedding) AND any(x IN p.embedding WHERE x <> 0.0)
  WITH p, summary, vector.similarity.cosine(p.embedding, $embedding) AS approx
  ORDER BY approx DESC, p.ordinal
  LIMIT 1
  RETURN CASE WHEN approx > summary THEN p.ordinal ELSE -1 END AS ordinal,
         CASE WHEN approx > summary THEN approx ELSE summary END AS approx
}
WITH s, ordinal, approx
ORDER BY approx DESC, s.entity_key
LIMIT $candidates
WITH s.entity_key AS key, ordinal,
     CASE WHEN ordinal = -1 THEN s.embedding
          ELSE head([(s)-[:has_passage]->(q:Passage) WHERE q.ordinal = ordinal | q.embedding])
     END AS e
WITH key, ordinal,
     reduce(dot = 0.0, i IN range(0, size(e) - 1) | dot + e[i] * $embedding[i]) AS dot,
     reduce(sq = 0.0, x IN e | sq + x * x) AS sq
WITH key, ordinal, dot / (sqrt(sq) * $norm) AS score
ORDER BY score DESC, key
LIMIT $limit
RETURN key, score, ordinal
