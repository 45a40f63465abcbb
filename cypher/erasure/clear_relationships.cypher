// Semantic links that drew on an erased Source and remain: description and notes
// embedding cleared, dirty.
MATCH ()-[r:RELATES]->()
WHERE r.rel_key IN $rel_keys
SET r.description = '',
    r.notes_embedding = null,
    r.is_dirty = true,
    r.updated_at = $at
RETURN count(r) AS cleared
