WITH RECURSIVE chain(fact_id) AS (
    SELECT value FROM json_each($1)
    UNION SELECT f.supersedes FROM facts f JOIN chain c ON c.fact_id = f.fact_id
    WHERE f.supersedes IS NOT NULL)
SELECT fact_id FROM chain WHERE fact_id IN (SELECT fact_id FROM facts)
