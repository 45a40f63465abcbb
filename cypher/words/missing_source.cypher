// Sources written before their searched words were stored (`summary_len` absent):
// a batch of their keys and searched columns, for the words to be computed in Rust.
MATCH (x:Source)
WHERE x.summary_len IS NULL AND x.entity_key IS NOT NULL
RETURN x.entity_key AS key,
       coalesce(x.summary, '') AS c0,
       coalesce(x.content, '') AS c1,
       coalesce(x.keywords, []) AS c2
LIMIT $limit
