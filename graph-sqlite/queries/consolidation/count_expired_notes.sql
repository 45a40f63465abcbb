SELECT COUNT(*) FROM notes WHERE expires_at IS NOT NULL AND expires_at <= $1
