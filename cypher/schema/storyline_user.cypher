CREATE RANGE INDEX storyline_user IF NOT EXISTS
FOR (st:Storyline) ON (st.user_id)
