SELECT * FROM storylines WHERE anchor_key = $1 AND state IN ('active', 'core')
ORDER BY first_source_at, storyline_id
