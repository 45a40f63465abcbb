// A refreshed Storyline: new description, the embedding only when one is given
// (`$embedding` null keeps the old one); clean again.
MATCH (st:Storyline {storyline_id: $storyline_id})
SET st.description = $description,
    st.description_terms = $description_terms,
    st.description_counts = $description_counts,
    st.description_len = $description_len,
    st.embedding = coalesce($embedding, st.embedding),
    st.is_dirty = false,
    st.updated_at = $at
