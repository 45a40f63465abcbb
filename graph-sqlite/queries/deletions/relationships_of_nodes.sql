SELECT rel_key FROM relationships
WHERE from_key IN (SELECT value FROM json_each($1)) OR to_key IN (SELECT value FROM json_each($1))
