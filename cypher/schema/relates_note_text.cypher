// Note search: the notes on semantic relationships, `note_texts` being a LIST<STRING>
// (each element indexed). The English analyzer stems (Porter), as the SQLite store's
// FTS5 tokenizer does.
CREATE FULLTEXT INDEX relates_note_text IF NOT EXISTS
FOR ()-[r:RELATES]-() ON EACH [r.note_texts]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}
