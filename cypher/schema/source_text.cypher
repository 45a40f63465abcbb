// The English analyzer stems (Porter), as the SQLite store's FTS5 tokenizer does.
// `keywords` is a LIST<STRING>: each element is indexed.
CREATE FULLTEXT INDEX source_text IF NOT EXISTS
FOR (s:Source) ON EACH [s.summary, s.content, s.keywords]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}
