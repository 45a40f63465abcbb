SELECT n.kind, n.state, count(*) AS n,
       sum(NOT EXISTS (SELECT 1 FROM relationships r WHERE r.from_key = n.entity_key)
           AND NOT EXISTS (SELECT 1 FROM relationships r WHERE r.to_key = n.entity_key))
         AS orphans,
       sum(length(n.name) + length(n.description)
           + coalesce((SELECT sum(length(t.text)) FROM notes t
                       WHERE t.owner_key = n.entity_key AND t.owner_kind = 'node'), 0))
         AS text_chars,
       sum(coalesce(length(n.embedding), 0)) AS vector_bytes
FROM nodes n
WHERE n.user_id = $1
GROUP BY n.kind, n.state
