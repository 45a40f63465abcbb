WITH m AS MATERIALIZED (
    SELECT rowid AS doc_id, -bm25(notes_fts) AS score FROM notes_fts WHERE notes_fts MATCH $5)
SELECT n.owner_kind, n.owner_key, n.note_id, n.text, n.added_by, n.source_id, n.date_added,
       coalesce(n.said_at, n.date_added) AS said_at,
       m.score AS score,
       o.name AS node_name, r.from_key, a.name AS from_name, r.relationship_type,
       r.to_key, b.name AS to_name,
       (SELECT json_group_array(source_key) FROM (
            SELECT DISTINCT df.source_key FROM derived_from df
            WHERE n.owner_kind = 'node' AND n.source_id IS NULL AND df.entity_key = n.owner_key
              AND (df.note_id = n.note_id OR (df.note_id IS NULL AND n.added_by = $7))
            ORDER BY df.source_key)) AS derived_from
FROM m
JOIN note_docs d ON d.doc_id = m.doc_id
JOIN notes n ON n.owner_key = d.owner_key AND n.note_id = d.note_id
LEFT JOIN nodes o ON n.owner_kind = 'node' AND o.entity_key = n.owner_key
LEFT JOIN relationships r ON n.owner_kind = 'relationship' AND r.rel_key = n.owner_key
LEFT JOIN nodes a ON a.entity_key = r.from_key
LEFT JOIN nodes b ON b.entity_key = r.to_key
WHERE n.user_id = $1
  AND coalesce(o.user_id, r.user_id) = $1
  AND (coalesce(o.state, r.state) <> 'archived' OR $2)
  AND coalesce(n.said_at, n.date_added) >= $3 AND coalesce(n.said_at, n.date_added) < $4
  AND (n.expires_at IS NULL OR n.expires_at > $6)
ORDER BY score DESC, n.owner_key, n.note_id
LIMIT $8
