// Deletes semantic nodes with their remaining links.
MATCH (n:Semantic)
WHERE n.entity_key IN $entity_keys
DETACH DELETE n
RETURN count(*) AS deleted
