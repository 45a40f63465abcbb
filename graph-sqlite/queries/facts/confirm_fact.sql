UPDATE facts SET confirmed = 1, confidence = 1.0, salience = 1.0,
   ttl_policy = 'keep_forever', state = $2, updated_at = $3
WHERE fact_id = $1
