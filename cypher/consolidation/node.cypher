// A consolidated node: new description, the embedding only when one is given
// (`$embedding` null keeps the old one); clean again.
MATCH (n:Semantic {entity_key: $entity_key})
SET n.description = $description,
    n.description_terms = $description_terms,
    n.description_counts = $description_counts,
    n.description_len = $description_len,
    n.embedding = coalesce($embedding, n.embedding),
    n.is_dirty = false,
    n.updated_at = $at
