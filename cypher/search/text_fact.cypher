// text_search over facts, ranked in Rust exactly as the SQLite store ranks
// (`graph::text_rank`: BM25 over the user's facts alone). Every fact of the user,
// whatever its state and time (the statistics: `n` memories, `total` words), is read
// for the words it carries per searched column (`text`, `value`: `<column>_terms`,
// `_counts`, `_len`, written with its text); the ones holding any of `$words` (the
// query's distinct stemmed words) are returned with, per word, how often each column
// holds it (a third 0 for kinds with fewer columns), and whether the scope admits them.
// Superseded facts count in the statistics and are never admitted.
MATCH (x:Fact)
WHERE x.user_id = $user_id
WITH x, coalesce(x.text_len, 0) + coalesce(x.value_len, 0) AS len
WITH collect([x, len]) AS docs, count(x) AS n, sum(len) AS total
UNWIND docs AS d
WITH n, total, d[0] AS x, d[1] AS len
WHERE any(w IN $words WHERE w IN coalesce(x.text_terms, []) OR w IN coalesce(x.value_terms, []))
RETURN n, total, x.fact_id AS key, len,
       coalesce(x.is_active AND (x.state <> 'archived' OR $include_archived)
         AND ($since IS NULL OR x.valid_from >= $since)
         AND ($until IS NULL OR x.valid_from < $until), false) AS admitted,
       [w IN $words | [coalesce(head([i IN range(0, size(coalesce(x.text_terms, [])) - 1)
                        WHERE x.text_terms[i] = w | x.text_counts[i]]), 0),
                       coalesce(head([i IN range(0, size(coalesce(x.value_terms, [])) - 1)
                        WHERE x.value_terms[i] = w | x.value_counts[i]]), 0),
                       0]] AS counts
