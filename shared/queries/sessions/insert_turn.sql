INSERT INTO cosmo_session_turns
    (graph_user_id, session_id, seq, speaker, text, spoken_at)
VALUES ($1, $2, $3, $4, $5, $6)
