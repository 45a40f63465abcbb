// text_search over Sources, ranked in Rust exactly as the SQLite store ranks
// (`graph::text_rank`: BM25 over the user's Sources alone). Every Source of the user,
// whatever its state and time (the statistics: `n` memories, `total` words), is read
// for the words it carries per searched column (`summary`, `content`, `keywords`: `<column>_terms`,
// `_counts`, `_len`, written with its text); the ones holding any of `$words` (the
// query's distinct stemmed words) are returned with, per word, how often each column
// holds it (a third 0 for kinds with fewer columns), and whether the scope admits them.
// A Source is the user's when it is readable by them (`readable_by`: owner and
// participants), as in the SQLite store.
MATCH (x:Source)-[r:readable_by]->(x)
WHERE r.user_id = $user_id
WITH x, coalesce(x.summary_len, 0) + coalesce(x.content_len, 0) + coalesce(x.keywords_len, 0) AS len
WITH collect([x, len]) AS docs, count(x) AS n, sum(len) AS total
UNWIND docs AS d
WITH n, total, d[0] AS x, d[1] AS len
WHERE any(w IN $words WHERE w IN coalesce(x.summary_terms, []) OR w IN coalesce(x.content_terms, []) OR w IN coalesce(x.keywords_terms, []))
RETURN n, total, x.entity_key AS key, len,
       coalesce((x.state <> 'archived' OR $include_archived)
         AND ($since IS NULL OR coalesce(x.started_at, x.created_at) >= $since)
         AND ($until IS NULL OR coalesce(x.started_at, x.created_at) < $until), false) AS admitted,
       [w IN $words | [coalesce(head([i IN range(0, size(coalesce(x.summary_terms, [])) - 1)
                        WHERE x.summary_terms[i] = w | x.summary_counts[i]]), 0),
                       coalesce(head([i IN range(0, size(coalesce(x.content_terms, [])) - 1)
                        WHERE x.content_terms[i] = w | x.content_counts[i]]), 0),
                       coalesce(head([i IN range(0, size(coalesce(x.keywords_terms, [])) - 1)
                        WHERE x.keywords_terms[i] = w | x.keywords_counts[i]]), 0)]] AS counts
