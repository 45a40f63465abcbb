// Note search: the notes on semantic nodes, `note_texts` being a LIST<STRING> (each
// element indexed). The English analyzer stems (Porter), as the SQLite store's FTS5
// tokenizer does.
CREATE FULLTEXT INDEX semantic_note_text IF NOT EXISTS
FOR (n:Person|Concept|Entity) ON EACH [n.note_texts]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}
