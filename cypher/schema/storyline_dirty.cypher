CREATE RANGE INDEX storyline_dirty IF NOT EXISTS
FOR (st:Storyline) ON (st.is_dirty)
