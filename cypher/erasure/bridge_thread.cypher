// erase_source, before the Source goes: the Sources just before and after it in its
// thread follow each other directly, and the one after has its causes looked for again
// (links to and from the Source go with it).
MATCH (b:Source)-[:precedes]->(s:Source {entity_key: $source_key})-[:precedes]->(a:Source)
MERGE (b)-[l:precedes]->(a)
ON CREATE SET l.user_id = s.user_id, l.confidence = 1.0, l.created_at = $at
SET a.causal_pending = true
