CREATE FULLTEXT INDEX macro_text IF NOT EXISTS
FOR (m:Macro) ON EACH [m.description]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}
