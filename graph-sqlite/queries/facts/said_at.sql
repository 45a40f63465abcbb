-- A fact was said at the latest event time of the Sources it cites, else when it was
-- told (its valid_from).
UPDATE facts SET said_at = coalesce(
    (SELECT max(coalesce(s.started_at, s.created_at))
     FROM fact_sources fs JOIN sources s ON s.entity_key = fs.source_key
     WHERE fs.fact_id = facts.fact_id),
    valid_from)
WHERE fact_id = $1
