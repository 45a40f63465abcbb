// A confirmed fact: certain, fully salient, protected from decay; `$state` is decided
// in Rust from the state read under the lock.
MATCH (f:Fact {fact_id: $fact_id})
SET f.confirmed = true,
    f.confidence = 1.0,
    f.salience = 1.0,
    f.ttl_policy = 'keep_forever',
    f.state = $state,
    f.updated_at = $at
