// Of these nodes, those no Source supports any more: not the owner Person, mentioned by
// no Source, derived from none.
MATCH (n:Semantic)
WHERE n.entity_key IN $entity_keys
  AND n.owner_of IS NULL
  AND NOT EXISTS { (:Source)-[:mentions]->(n) }
  AND NOT EXISTS { (n)-[:derived_from]->(:Source) }
RETURN collect(n.entity_key) AS keys
