SELECT job_type, status, count(*) AS n FROM Jobs GROUP BY job_type, status ORDER BY job_type, status
