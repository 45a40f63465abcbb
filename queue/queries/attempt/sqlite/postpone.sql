UPDATE Jobs SET run_at = $1 WHERE id = $2
