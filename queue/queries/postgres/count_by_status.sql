SELECT job_type, status, count(*) AS n FROM apalis.jobs GROUP BY job_type, status
ORDER BY job_type, status
