CREATE FULLTEXT INDEX storyline_text IF NOT EXISTS
FOR (st:Storyline) ON EACH [st.description]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}
