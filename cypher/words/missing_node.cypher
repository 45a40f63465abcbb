// Semantics written before their searched words were stored (`name_len` absent):
// a batch of their keys and searched columns, for the words to be computed in Rust.
MATCH (x:Semantic)
WHERE x.name_len IS NULL AND x.entity_key IS NOT NULL
RETURN x.entity_key AS key,
       CASE WHEN x:Person THEN coalesce(x.name, '') ELSE coalesce(x.display_name, x.name, '') END AS c0,
       coalesce(x.description, '') AS c1
LIMIT $limit
