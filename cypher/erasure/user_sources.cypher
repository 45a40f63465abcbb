// erase_user: the user's own Sources nobody else takes part in (`solo_keys`), their
// team Sources (`team_keys`), and the facts stated in any of them.
RETURN COLLECT {
         MATCH (s:Source)
         WHERE s.user_id = $user_id AND none(p IN coalesce(s.participants, []) WHERE p <> $user_id)
         RETURN s.entity_key AS key
       } AS solo_keys,
       COLLECT {
         MATCH (s:Source)
         WHERE s.user_id = $user_id AND any(p IN coalesce(s.participants, []) WHERE p <> $user_id)
         RETURN s.entity_key AS key
       } AS team_keys,
       COLLECT {
         MATCH (f:Fact)-[:stated_in]->(s:Source)
         WHERE s.user_id = $user_id
         RETURN DISTINCT f.fact_id AS id
       } AS fact_ids
