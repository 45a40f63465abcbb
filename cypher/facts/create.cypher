// A new live fact with the lifecycle defaults of a new memory (computed in Rust). A
// null category, key, value or embedding leaves the property absent.
CREATE (f:Fact {fact_id: $fact_id})
SET f.user_id = $user_id,
    f.text = $text,
    f.category = $category,
    f.fact_key = $fact_key,
    f.value = $value,
    f.is_active = true,
    f.valid_from = $at,
    f.confirmed = false,
    f.embedding = $embedding,
    f.salience = $salience,
    f.state = $state,
    f.confidence = $confidence,
    f.access_count = $access_count,
    f.recall_frequency = $recall_frequency,
    f.last_recall_interval = $last_recall_interval,
    f.decay_gradient = $decay_gradient,
    f.ttl_policy = $ttl_policy,
    f.pinned = $pinned,
    f.created_at = $at,
    f.updated_at = $at
