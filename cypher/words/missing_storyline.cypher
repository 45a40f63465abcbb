// Storylines written before their searched words were stored (`description_len` absent):
// a batch of their keys and searched columns, for the words to be computed in Rust.
MATCH (x:Storyline)
WHERE x.description_len IS NULL AND x.storyline_id IS NOT NULL
RETURN x.storyline_id AS key,
       coalesce(x.description, '') AS c0
LIMIT $limit
