// After Storylines went: each of these Macros, its anchor, and whether it groups no
// Storyline any more.
MATCH (m:Macro)
WHERE m.macro_id IN $macro_ids
RETURN m.macro_id AS id,
       m.anchor_key AS anchor_key,
       NOT EXISTS { (m)-[:groups]->(:Storyline) } AS empty
