SELECT r.relationship_type, r.state, count(*) AS n,
       sum(length(r.description)
           + coalesce((SELECT sum(length(t.text)) FROM notes t
                       WHERE t.owner_key = r.rel_key AND t.owner_kind = 'relationship'), 0))
         AS text_chars,
       sum(coalesce(length(r.notes_embedding), 0)) AS vector_bytes
FROM relationships r
WHERE r.user_id = $1
GROUP BY r.relationship_type, r.state
