CREATE RANGE INDEX storyline_state IF NOT EXISTS
FOR (st:Storyline) ON (st.state)
