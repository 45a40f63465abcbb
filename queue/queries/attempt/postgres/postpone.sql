UPDATE apalis.jobs SET run_at = now() + make_interval(secs => $1) WHERE id = $2
