-- The live insights of user $1 derived from the Sources in $2 (JSON), on its nodes
-- archived or not, with every Source each was derived from: $3 is now, $4 the insight author.
SELECT DISTINCT n.owner_kind, n.owner_key, n.note_id, n.text, n.added_by, n.source_id,
       n.date_added, coalesce(n.said_at, n.date_added) AS said_at, 0.0 AS score,
       o.name AS node_name, NULL AS from_key, NULL AS from_name, NULL AS relationship_type,
       NULL AS to_key, NULL AS to_name,
       (SELECT json_group_array(source_key) FROM (
            SELECT DISTINCT a.source_key FROM derived_from a
            WHERE a.entity_key = n.owner_key
              AND (a.note_id = n.note_id OR (a.note_id IS NULL AND n.added_by = $4))
            ORDER BY a.source_key)) AS derived_from
FROM derived_from df
JOIN notes n ON n.owner_key = df.entity_key AND n.source_id IS NULL
     AND (df.note_id = n.note_id OR (df.note_id IS NULL AND n.added_by = $4))
JOIN nodes o ON o.entity_key = n.owner_key
WHERE df.source_key IN (SELECT value FROM json_each($2))
  AND n.user_id = $1 AND o.user_id = $1
  AND (n.expires_at IS NULL OR n.expires_at > $3)
ORDER BY n.owner_key, n.note_id
