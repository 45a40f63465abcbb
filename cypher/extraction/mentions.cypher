// `(Source)-[:mentions]->(node)` for each distinct node key, and the hierarchy counters
// only where the link is new: a Source counts once per node, on its event time
// (`$event_time`, and its UTC day `$event_day`). `distinct_days` stays sorted. A
// candidate (not pinned) that a second Source now mentions is confirmed, and an
// archived node (not pinned) it mentions is revived: either becomes `active` (a revived
// one decaying from `$at`, at least `$initial_salience`, as a restore leaves it), and
// its key is returned for the event log (`re_mentioned`).
MATCH (s:Source {entity_key: $source_key})
UNWIND $entity_keys AS node_key
MATCH (n:Semantic {entity_key: node_key})
MERGE (s)-[m:mentions]->(n)
ON CREATE SET
  m.user_id = $user_id,
  m.created_at = $at,
  m.just_created = true
WITH n, m, m.just_created IS NOT NULL AS created
REMOVE m.just_created
WITH n, created
WHERE created
// Write-lock the node before reading its days (Cypher locks before a read by itself
// only when the read is in the SET expression): concurrent writes serialize here.
SET n.updated_at = $at
WITH n, coalesce(n.distinct_days, []) AS days
WITH n, days, NOT ($event_day IN days) AS new_day
SET n.source_count = coalesce(n.source_count, 0) + 1,
    n.first_mentioned_at = CASE
      WHEN n.first_mentioned_at IS NULL OR $event_time < n.first_mentioned_at THEN $event_time
      ELSE n.first_mentioned_at END,
    n.last_mentioned_at = CASE
      WHEN n.last_mentioned_at IS NULL OR $event_time > n.last_mentioned_at THEN $event_time
      ELSE n.last_mentioned_at END,
    n.distinct_source_days = coalesce(n.distinct_source_days, 0) + CASE WHEN new_day THEN 1 ELSE 0 END,
    n.distinct_days = CASE
      WHEN new_day THEN [d IN days WHERE d < $event_day] + [$event_day] + [d IN days WHERE d > $event_day]
      ELSE days END
WITH n,
     n.state = 'candidate' AND NOT coalesce(n.pinned, false) AND n.source_count >= 2 AS confirmed,
     n.state = 'archived' AND NOT coalesce(n.pinned, false) AS revived
SET n.state = CASE WHEN confirmed OR revived THEN 'active' ELSE n.state END,
    n.salience = CASE
      WHEN revived AND n.salience < $initial_salience THEN $initial_salience
      ELSE n.salience END,
    n.last_decayed_at = CASE WHEN revived THEN $at ELSE n.last_decayed_at END
RETURN count(n) AS created_count,
       collect(CASE WHEN confirmed THEN n.entity_key END) AS confirmed_keys,
       collect(CASE WHEN revived THEN n.entity_key END) AS revived_keys
