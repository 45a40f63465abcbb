// The Sources a fact was stated in, as briefs.
MATCH (:Fact {fact_id: $fact_id})-[:stated_in]->(s:Source)
RETURN s {.entity_key, .user_id, .summary, event_at: coalesce(s.started_at, s.created_at)} AS brief
