// New lifecycles from decay (or access): one row per distinct Storyline key. Null times
// remove the property (absent = none).
UNWIND $rows AS row
MATCH (x:Storyline {storyline_id: row.key})
SET x.salience = row.salience,
    x.state = row.state,
    x.confidence = row.confidence,
    x.access_count = row.access_count,
    x.recall_frequency = row.recall_frequency,
    x.last_recall_interval = row.last_recall_interval,
    x.decay_gradient = row.decay_gradient,
    x.last_accessed_at = row.last_accessed_at,
    x.last_decayed_at = row.last_decayed_at,
    x.ttl_policy = row.ttl_policy,
    x.pinned = row.pinned,
    x.updated_at = row.updated_at
