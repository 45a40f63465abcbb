UPDATE nodes SET source_count = source_count + 1,
   first_mentioned_at = min(coalesce(first_mentioned_at, $2), $2),
   last_mentioned_at = max(coalesce(last_mentioned_at, $2), $2),
   distinct_source_days = distinct_source_days + $3, updated_at = $4
WHERE entity_key = $1
