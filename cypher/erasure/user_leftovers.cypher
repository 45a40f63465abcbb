// erase_user, after their nodes went: whatever of theirs was not reachable from them
// (nothing, normally).
RETURN COLLECT { MATCH ()-[r:RELATES]->() WHERE r.user_id = $user_id RETURN r.rel_key AS key } AS rel_keys,
       COLLECT { MATCH (st:Storyline) WHERE st.user_id = $user_id RETURN st.storyline_id AS id } AS storyline_ids,
       COLLECT { MATCH (m:Macro) WHERE m.user_id = $user_id RETURN m.macro_id AS id } AS macro_ids
