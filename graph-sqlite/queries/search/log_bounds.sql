SELECT (SELECT min(seq) FROM search_vector_log),
       (SELECT coalesce(max(seq), 0) FROM sqlite_sequence
        WHERE name = 'search_vector_log')
