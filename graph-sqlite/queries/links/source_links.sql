SELECT l.* FROM source_links l
WHERE l.from_key IN (SELECT value FROM json_each($1))
UNION
SELECT l.* FROM source_links l
WHERE l.to_key IN (SELECT value FROM json_each($1))
ORDER BY kind, from_key, to_key
