CREATE CONSTRAINT storyline_id IF NOT EXISTS
FOR (st:Storyline) REQUIRE st.storyline_id IS UNIQUE
