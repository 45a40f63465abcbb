// After a Source went: each of these Storylines, its anchor, whether it includes no
// Source any more, and the Macros grouping it.
MATCH (st:Storyline)
WHERE st.storyline_id IN $storyline_ids
RETURN st.storyline_id AS id,
       st.anchor_key AS anchor_key,
       NOT EXISTS { (st)-[:includes]->(:Source) } AS empty,
       COLLECT { MATCH (m:Macro)-[:groups]->(st) RETURN m.macro_id AS id } AS macros
