// Phase 0: writes a raw Source unless its entity key (derived from the owner and the
// idempotency key) exists. `just_created` marks a node this MERGE created; it is read
// and removed in the same statement, so it is never committed.
MERGE (s:Source {entity_key: $entity_key})
ON CREATE SET
  s.user_id = $user_id,
  s.team_id = $team_id,
  s.participants = $participants,
  s.source_type = $source_type,
  s.raw_content = $raw_content,
  s.provenance = $provenance,
  s.context_type = $context_type,
  s.started_at = $started_at,
  s.ended_at = $ended_at,
  s.sensitivity = $sensitivity,
  s.idempotency_key = $idempotency_key,
  s.external_id = $external_id,
  s.content_hash = $content_hash,
  s.content = '',
  s.summary = '',
  s.keywords = [],
  s.summary_terms = [],
  s.summary_counts = [],
  s.summary_len = 0,
  s.content_terms = [],
  s.content_counts = [],
  s.content_len = 0,
  s.keywords_terms = [],
  s.keywords_counts = [],
  s.keywords_len = 0,
  s.tags = [],
  s.processing_status = 'raw',
  s.salience = $salience,
  s.state = $state,
  s.confidence = $confidence,
  s.access_count = $access_count,
  s.recall_frequency = $recall_frequency,
  s.last_recall_interval = $last_recall_interval,
  s.decay_gradient = $decay_gradient,
  s.ttl_policy = $ttl_policy,
  s.pinned = $pinned,
  s.created_at = $created_at,
  s.updated_at = $updated_at,
  s.just_created = true
WITH s, s.just_created IS NOT NULL AS created
REMOVE s.just_created
// Who may read it (scoped search finds a user's Sources through these self-links'
// `user_id` index): the owner and every participant, each once.
FOREACH (reader IN CASE WHEN created THEN [$user_id] + coalesce($participants, []) ELSE [] END |
  MERGE (s)-[:readable_by {user_id: reader}]->(s))
RETURN created, properties(s) AS source
