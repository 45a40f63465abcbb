// Deletes Macros with their links.
MATCH (m:Macro)
WHERE m.macro_id IN $macro_ids
DETACH DELETE m
RETURN count(*) AS deleted
