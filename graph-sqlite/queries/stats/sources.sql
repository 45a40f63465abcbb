SELECT s.state, s.processing_status, count(*) AS n,
       sum(length(s.raw_content) + length(s.content) + length(s.summary)
           + coalesce((SELECT sum(length(p.text)) FROM source_passages p
                       WHERE p.source_key = s.entity_key), 0)) AS text_chars,
       sum(coalesce(length(s.embedding), 0) + coalesce(length(d.passages), 0)) AS vector_bytes
FROM sources s
LEFT JOIN search_docs d ON d.target = 'source' AND d.key = s.entity_key
WHERE s.user_id = $1
GROUP BY s.state, s.processing_status
