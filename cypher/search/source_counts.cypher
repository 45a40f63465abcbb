// How many Sources a user may read and how many the database holds (the label count
// comes from the count store): they size the over-fetch of the shared Source indexes.
MATCH ()-[r:readable_by]->()
WHERE r.user_id = $user_id
WITH count(r) AS mine
CALL () {
  MATCH (s:Source)
  RETURN count(s) AS sources
}
RETURN mine, sources
