// A refreshed Storyline: new description, the embedding only when one is given
// (`$embedding` null keeps the old one); clean again.
MATCH (st:Storyline {storyline_id: $storyline_id})
SET st.description = $description,
    st.embedding = coalesce($embedding, st.embedding),
    st.is_dirty = false,
    st.updated_at = $at
