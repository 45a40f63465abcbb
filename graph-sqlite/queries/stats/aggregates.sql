SELECT 'storyline' AS kind, state, count(*) AS n, 0 AS inactive,
       sum(length(description)) AS text_chars,
       sum(coalesce(length(embedding), 0)) AS vector_bytes
FROM storylines WHERE user_id = $1 GROUP BY state
UNION ALL
SELECT 'macro', state, count(*), 0,
       sum(length(description)), sum(coalesce(length(embedding), 0))
FROM macros WHERE user_id = $1 GROUP BY state
UNION ALL
SELECT 'fact', state, count(*), sum(is_active = 0),
       sum(length(text) + coalesce(length(value), 0)), sum(coalesce(length(embedding), 0))
FROM facts WHERE user_id = $1 GROUP BY state
