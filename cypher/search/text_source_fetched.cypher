// text_search over Sources for a user with many: the top `$fetch` matches of the shared
// full-text index (`source_text`), filtered to the scope, in place of streaming every
// match of every user. Query, scores and order are those of `text_source_lucene`. `cut` is
// the lowest score the index returned, or -1.0 when it returned fewer than `$fetch`
// (there are no more matches). One row: `hits` (maps of key and score) and `cut`. The
// result is the exact one when `cut` is -1.0, or when there are `$limit` hits and
// every score is above `cut`: any match of the user scoring above the cut is among
// the fetched ones. Otherwise the caller searches exactly (`text_source_lucene`).
CALL () {
  CALL db.index.fulltext.queryNodes('source_text', $query, {limit: $fetch})
  YIELD node, score
  RETURN collect([node, score]) AS found,
         CASE WHEN count(*) < $fetch THEN -1.0 ELSE min(score) END AS cut
}
// The subquery aggregates without grouping: one row, whatever survives the filter.
CALL (found) {
  UNWIND found AS f
  WITH f[0] AS s, f[1] AS score
  WHERE (s.user_id = $user_id OR $user_id IN coalesce(s.participants, []))
    AND (s.state <> 'archived' OR $include_archived)
    AND ($since IS NULL OR coalesce(s.started_at, s.created_at) >= $since)
    AND ($until IS NULL OR coalesce(s.started_at, s.created_at) < $until)
  WITH s.entity_key AS key, score
  ORDER BY score DESC, key
  LIMIT $limit
  RETURN collect({key: key, score: score}) AS hits
}
RETURN hits, cut
