// A consolidated semantic link: new description, the notes embedding only when one is
// given (`$notes_embedding` null keeps the old one); clean again.
MATCH ()-[r:RELATES {rel_key: $rel_key}]->()
SET r.description = $description,
    r.notes_embedding = coalesce($notes_embedding, r.notes_embedding),
    r.is_dirty = false,
    r.updated_at = $at
