// erase_source, first: write-locks the Source (an extraction write, a consolidation, a
// fact citing it or a Storyline joining it waits, then finds it gone), then returns
// what draws on it: the users who could have taken notes from it (owner, participants,
// extractions), the nodes that mention it or derive from it, the Storylines including
// it and the facts stated in it. No row: unknown Source.
MATCH (s:Source {entity_key: $source_key})
SET s.just_locked = true
WITH s
REMOVE s.just_locked
WITH s
RETURN [s.user_id] + coalesce(s.participants, [])
         + COLLECT { MATCH (e:Extraction {source_key: $source_key}) RETURN e.user_id AS user_id } AS user_ids,
       COLLECT { MATCH (s)-[:mentions]->(n:Semantic) RETURN n.entity_key AS key } AS mentioned,
       COLLECT { MATCH (n:Semantic)-[:derived_from]->(s) RETURN DISTINCT n.entity_key AS key } AS derived,
       COLLECT { MATCH (st:Storyline)-[:includes]->(s) RETURN st.storyline_id AS id } AS storylines,
       COLLECT { MATCH (f:Fact)-[:stated_in]->(s) RETURN f.fact_id AS id } AS facts
