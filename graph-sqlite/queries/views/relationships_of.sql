SELECT * FROM relationships WHERE user_id = $1
  AND (from_key IN (SELECT value FROM json_each($2))
       OR to_key IN (SELECT value FROM json_each($2)))
ORDER BY strength DESC, rel_key LIMIT $3
