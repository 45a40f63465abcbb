// Macros written before their searched words were stored (`description_len` absent):
// a batch of their keys and searched columns, for the words to be computed in Rust.
MATCH (x:Macro)
WHERE x.description_len IS NULL AND x.macro_id IS NOT NULL
RETURN x.macro_id AS key,
       coalesce(x.description, '') AS c0
LIMIT $limit
