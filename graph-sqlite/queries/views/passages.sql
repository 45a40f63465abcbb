SELECT p.source_key, p.ordinal, p.text
FROM json_each($1) k JOIN source_passages p ON p.source_key = k.value
ORDER BY k.key, p.ordinal
