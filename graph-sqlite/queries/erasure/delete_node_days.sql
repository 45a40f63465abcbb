DELETE FROM node_days WHERE entity_key IN (SELECT value FROM json_each($1))
