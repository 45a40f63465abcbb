SELECT entity_key, day FROM node_days WHERE entity_key IN (SELECT value FROM json_each($1))
ORDER BY entity_key, day
