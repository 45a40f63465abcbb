// Facts written before their searched words were stored (`text_len` absent):
// a batch of their keys and searched columns, for the words to be computed in Rust.
MATCH (x:Fact)
WHERE x.text_len IS NULL AND x.fact_id IS NOT NULL
RETURN x.fact_id AS key,
       coalesce(x.text, '') AS c0,
       coalesce(x.value, '') AS c1
LIMIT $limit
