SELECT status, count(*) AS n FROM extractions WHERE user_id = $1 GROUP BY status
