// vector_search over Sources for a user with many: the top `$fetch` of the shared
// vector indexes (Source summaries and content passages), filtered to the scope, in
// place of scoring every vector the user has. Scores and ties are those of
// `vector_source`: a Source scores the best of its fetched vectors (the summary wins
// ties), `$candidates` Sources are pre-ranked by the index's single-precision score
// (`vector.similarity.cosine`'s scale), and each carries its plain cosine recomputed
// in double precision (`score`); the caller keeps the best `$limit`. One row: `hits`
// (maps of key, ordinal, approx, score) and `cut`.
// `cut` is the lowest score an index returned, or -1.0 when it returned fewer than
// `$fetch` (it holds nothing more); the larger of the two indexes' cuts is returned.
// The result is the exact one when every hit's `approx` is above `cut` and there are
// `$candidates` hits, or when `cut` is -1.0: any Source of the user scoring above
// the cut has that vector among the fetched ones. Otherwise the caller searches
// exactly (`vector_source`).
CALL () {
  CALL db.index.vector.queryNodes('source_embedding', $fetch, $embedding)
  YIELD node, score
  RETURN collect([node, -1, score]) AS summaries,
         CASE WHEN count(*) < $fetch THEN -1.0 ELSE min(score) END AS summary_cut
}
CALL () {
  CALL db.index.vector.queryNodes('passage_embedding', $fetch, $embedding)
  YIELD node, score
  OPTIONAL MATCH (s:Source)-[:has_passage]->(node)
  RETURN collect([s, node.ordinal, score]) AS passages,
         CASE WHEN count(*) < $fetch THEN -1.0 ELSE min(score) END AS passage_cut
}
WITH summaries + passages AS found,
     CASE WHEN summary_cut > passage_cut THEN summary_cut ELSE passage_cut END AS cut
// The subquery aggregates without grouping: one row, whatever survives the filter.
CALL (found) {
  UNWIND found AS f
  WITH f[0] AS s, f[1] AS ordinal, f[2] AS approx
  WHERE s IS NOT NULL
    AND EXISTS { (s)-[r:readable_by]->(s) WHERE r.user_id = $user_id }
    AND (s.state <> 'archived' OR $include_archived)
    AND ($since IS NULL OR coalesce(s.started_at, s.created_at) >= $since)
    AND ($until IS NULL OR coalesce(s.started_at, s.created_at) < $until)
    AND size(s.embedding) = size($embedding) AND any(x IN s.embedding WHERE x <> 0.0)
  // Each Source's best fetched vector: the summary (-1) first among equal scores,
  // then the lowest ordinal, as `vector_source` picks.
  WITH s, ordinal, approx
  ORDER BY approx DESC, ordinal
  WITH s, head(collect([ordinal, approx])) AS best
  WITH s, best[0] AS ordinal, best[1] AS approx
  ORDER BY approx DESC, s.entity_key
  LIMIT $candidates
  WITH s.entity_key AS key, ordinal, approx,
       CASE WHEN ordinal = -1 THEN s.embedding
            ELSE head([(s)-[:has_passage]->(q:Passage) WHERE q.ordinal = ordinal | q.embedding])
       END AS e
  WITH key, ordinal, approx,
       reduce(dot = 0.0, i IN range(0, size(e) - 1) | dot + e[i] * $embedding[i]) AS dot,
       reduce(sq = 0.0, x IN e | sq + x * x) AS sq
  RETURN collect({key: key, ordinal: ordinal, approx: approx,
                  score: dot / (sqrt(sq) * $norm)}) AS hits
}
RETURN hits, cut
