// text_search over nodes, ranked in Rust exactly as the SQLite store ranks
// (`graph::text_rank`: BM25 over the user's nodes alone). Every node of the user,
// whatever its state and time (the statistics: `n` memories, `total` words), is read
// for the words it carries per searched column (`name`, `description`: `<column>_terms`,
// `_counts`, `_len`, written with its text); the ones holding any of `$words` (the
// query's distinct stemmed words) are returned with, per word, how often each column
// holds it (a third 0 for kinds with fewer columns), and whether the scope admits them.
MATCH (x:Semantic)
WHERE x.user_id = $user_id
WITH x, coalesce(x.name_len, 0) + coalesce(x.description_len, 0) AS len
WITH collect([x, len]) AS docs, count(x) AS n, sum(len) AS total
UNWIND docs AS d
WITH n, total, d[0] AS x, d[1] AS len
WHERE any(w IN $words WHERE w IN coalesce(x.name_terms, []) OR w IN coalesce(x.description_terms, []))
RETURN n, total, x.entity_key AS key, len,
       coalesce((x.state <> 'archived' OR $include_archived)
         AND ($since IS NULL OR coalesce(x.last_mentioned_at, x.created_at) >= $since)
         AND ($until IS NULL OR coalesce(x.last_mentioned_at, x.created_at) < $until), false) AS admitted,
       [w IN $words | [coalesce(head([i IN range(0, size(coalesce(x.name_terms, [])) - 1)
                        WHERE x.name_terms[i] = w | x.name_counts[i]]), 0),
                       coalesce(head([i IN range(0, size(coalesce(x.description_terms, [])) - 1)
                        WHERE x.description_terms[i] = w | x.description_counts[i]]), 0),
                       0]] AS counts
