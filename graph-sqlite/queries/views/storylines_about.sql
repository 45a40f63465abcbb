SELECT * FROM storylines WHERE anchor_key = $1
ORDER BY coalesce(last_source_at, created_at) DESC, storyline_id
