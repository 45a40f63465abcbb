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
OPTIONAL MATCH (s)-[:has_passage]->(p:Passage)
WITH s, collect(p) AS ps
UNWIND [{ordinal: -1, e: s.embedding}] + [p IN ps | {ordinal: p.ordinal, e: p.embedding}] AS c
WITH s.entity_key AS key, c.ordinal AS ordinal, c.e AS e
WHERE size(e) = size($embedding) AND any(x IN e WHERE x <> 0.0)
WITH key, ordinal, e, vector.similarity.cosine(e, $embedding) AS approx
ORDER BY approx DESC, ordinal
WITH key, collect({ordinal: ordinal, e: e, approx: approx})[0] AS best
WITH key, best.ordinal AS ordinal, best.e AS e, best.approx AS approx
ORDER BY approx DESC, key
LIMIT $candidates
WITH key, ordinal,
     reduce(dot = 0.0, i IN range(0, size(e) - 1) | dot + e[i] * $embedding[i]) AS dot,
     reduce(sq = 0.0, x IN e | sq + x * x) AS sq
WITH key, ordinal, dot / (sqrt(sq) * $norm) AS score
ORDER BY score DESC, key
LIMIT $limit
RETURN key, score, ordinal
