// insights_of: the nodes of $user_id (archived or not) holding an insight derived from one of
// the Sources in $source_keys, each once with its note lists and every `derived_from`
// link as a [note id ('' for a link recorded before note ids were kept), Source key]
// pair. The Rust code keeps the live insights those links name.
MATCH (n:Semantic)-[:derived_from]->(s:Source)
WHERE s.entity_key IN $source_keys AND n.user_id = $user_id
WITH DISTINCT n
RETURN n.entity_key AS owner_key,
       coalesce(n.display_name, n.name) AS owner,
       0.0 AS score,
       n {.note_ids, .note_texts, .note_added_by, .note_source_ids, .note_dates, .note_said_at,
          .note_lifetimes, .note_expires_at} AS notes,
       [(n)-[d:derived_from]->(s:Source) | [coalesce(d.note_id, ''), s.entity_key]] AS derived
ORDER BY owner_key
