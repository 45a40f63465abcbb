SELECT t.seq, t.speaker, t.text, t.spoken_at
FROM cosmo_session_turns t JOIN cosmo_sessions s
    ON s.graph_user_id = t.graph_user_id AND s.session_id = t.session_id
WHERE t.graph_user_id = $1 AND t.session_id = $2 AND t.seq > s.flushed_seq
ORDER BY t.seq DESC LIMIT $3
