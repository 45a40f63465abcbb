// Deletes semantic links; returns how many, and how many notes they held.
MATCH ()-[r:RELATES]->()
WHERE r.rel_key IN $rel_keys
WITH r, size(coalesce(r.note_ids, [])) AS held
DELETE r
RETURN count(*) AS deleted, sum(held) AS notes
