MATCH (m:Macro {macro_id: $macro_id})
RETURN properties(m) AS macro
