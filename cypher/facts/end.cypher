// A superseded fact stops being live (soft delete) at `$at`.
MATCH (f:Fact {fact_id: $fact_id})
SET f.is_active = false,
    f.valid_to = $at,
    f.updated_at = $at
