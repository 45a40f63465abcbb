SELECT * FROM facts WHERE user_id = $1 AND is_active = 1 AND confirmed = 0
  AND state <> 'archived' AND (salience < $2 OR confidence < $3)
ORDER BY salience, confidence, fact_id LIMIT $4
