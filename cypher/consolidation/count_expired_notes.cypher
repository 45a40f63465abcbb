// cleanup-notes' dry run: how many notes, on semantic nodes and on links, have an
// `expires_at` at or before `$now` (a note that never expires holds 9999-12-31), as
// `expired_node_notes` and `expired_relationship_notes` find them (of `$key_space`'s
// users only, '' for the whole database); nothing is removed.
CALL () {
  MATCH (x:Semantic)
  WHERE any(t IN coalesce(x.note_expires_at, []) WHERE t <= $now)
    AND ($key_space = '' OR x.user_id ENDS WITH $key_space)
  RETURN size([t IN x.note_expires_at WHERE t <= $now]) AS expired
  UNION ALL
  MATCH ()-[x:RELATES]->()
  WHERE any(t IN coalesce(x.note_expires_at, []) WHERE t <= $now)
    AND ($key_space = '' OR x.user_id ENDS WITH $key_space)
  RETURN size([t IN x.note_expires_at WHERE t <= $now]) AS expired
}
RETURN sum(expired) AS expired
