// promote-macros: anchors without a Macro, first mentioned before `$first_before`, with
// at least two active/core Storylines; the most Storylines first. Each comes with those
// Storylines, oldest first (no first Source first, as SQLite orders NULL).
MATCH (st:Storyline)-[:about]->(n:Semantic)
WHERE st.state IN ['active', 'core']
  AND NOT coalesce(n.has_macro, false)
  AND n.first_mentioned_at < $first_before
WITH n, st
ORDER BY st.first_source_at IS NOT NULL, st.first_source_at, st.storyline_id
WITH n, collect(properties(st)) AS storylines
WHERE size(storylines) >= 2
WITH n, storylines
ORDER BY size(storylines) DESC, n.entity_key
LIMIT $limit
RETURN n.entity_key AS anchor_key,
       n.user_id AS user_id,
       CASE WHEN n:Person THEN n.name ELSE n.display_name END AS anchor_name,
       storylines
