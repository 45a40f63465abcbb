SELECT kind, count(*) AS n FROM source_links WHERE user_id = $1 GROUP BY kind
